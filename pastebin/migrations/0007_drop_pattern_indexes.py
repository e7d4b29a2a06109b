"""PostgreSQL: drop the `varchar_pattern_ops` copies Django adds beside the index of every
indexed or unique CharField (the explain's primary key `slug`, its `improves_on` link, the
explain links of reports and idempotency records, tombstones' slugs, key hashes, statuses).

They serve only `LIKE 'prefix%'`, which nothing here runs; the plain index serves every lookup,
so each copy was one more index for every insert, delete and purge to maintain. Dropped
CONCURRENTLY (the migration is not atomic), so writes go on meanwhile; reversing builds them
again. Nothing happens on SQLite, which has no such indexes.
"""

from django.db import migrations

PATTERN_INDEXES = {
    "pastebin_explain_slug_779e9f42_like": ("pastebin_explain", "slug"),
    "pastebin_explain_improves_on_id_6ded4829_like": ("pastebin_explain", "improves_on_id"),
    "pastebin_abusereport_explain_id_88a435e9_like": ("pastebin_abusereport", "explain_id"),
    "pastebin_misreadreport_explain_id_5d4753f6_like": ("pastebin_misreadreport", "explain_id"),
    "pastebin_misreadreport_status_e1472b70_like": ("pastebin_misreadreport", "status"),
    "pastebin_idempotencyrecord_explain_id_4d2b1b5f_like": ("pastebin_idempotencyrecord", "explain_id"),
    "pastebin_idempotencyrecord_key_hash_328ea649_like": ("pastebin_idempotencyrecord", "key_hash"),
    "pastebin_deletedslug_slug_5dde856b_like": ("pastebin_deletedslug", "slug"),
}


def drop_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name in PATTERN_INDEXES:
            schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")


def create_indexes(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        for name, (table, column) in PATTERN_INDEXES.items():
            schema_editor.execute(
                f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {name} ON {table} ({column} varchar_pattern_ops)"
            )


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("pastebin", "0006_search_vector")]

    operations = [migrations.RunPython(drop_indexes, create_indexes)]
