"""PostgreSQL: an explain's paste, query, table definitions and analysis are compressed with LZ4
instead of the default pglz, where the server was built with it (PostgreSQL 14 and later).

Every saved analysis (30 kB of jsonb for a 10-row explain) is compressed on insert: pglz cost the
server 0.6 ms more per explain than LZ4 does, most of what storing an explain cost, and LZ4 also
reads back faster. Only the column's setting changes: no lock is held beyond that moment and no
row is rewritten (stored values keep their compression until they are written again). Nothing
happens on SQLite, or on a server without LZ4.
"""

from django.db import migrations

COLUMNS = ("raw_explain", "query", "schema", "analysis")


def compression(method: str):
    def change(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        alters = ", ".join(f"ALTER COLUMN {column} SET COMPRESSION {method}" for column in COLUMNS)
        schema_editor.execute(
            "DO $$ BEGIN EXECUTE 'ALTER TABLE pastebin_explain " + alters + "'; "
            "EXCEPTION WHEN feature_not_supported THEN NULL; END $$"
        )

    return change


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0010_search_index_pending_list")]

    operations = [migrations.RunPython(compression("lz4"), compression("pglz"))]
