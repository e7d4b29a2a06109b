"""PostgreSQL: full-text search reads a stored `search_vector` column instead of parsing
`search_text` again on every row it looks at.

Safe on a big table, so the migration is not atomic: the column is added nullable (no rewrite),
a trigger fills it on every insert and on every update of `search_text` from then on (whatever
writes the row: the site, a bulk update, raw SQL), the rows stored before are filled in batches
of their own transactions, and the GIN index is built CONCURRENTLY, without blocking writes;
the expression index it replaces goes last. The index holds the words of public explains only:
nothing else is searched. Nothing happens on SQLite, which searches
`search_text` by substring. The column is not a model field, so loading an explain never reads it.
"""

from django.db import migrations

from pastebin.migrations._postgresql import on_postgresql

BATCH = 5000

ADD_COLUMN = "ALTER TABLE pastebin_explain ADD COLUMN IF NOT EXISTS search_vector tsvector"
DROP_COLUMN = "ALTER TABLE pastebin_explain DROP COLUMN IF EXISTS search_vector"
CREATE_TRIGGER = (
    "CREATE OR REPLACE TRIGGER pastebin_explain_search_vector "
    "BEFORE INSERT OR UPDATE OF search_text ON pastebin_explain FOR EACH ROW "
    "EXECUTE FUNCTION tsvector_update_trigger(search_vector, 'pg_catalog.simple', search_text)"
)
DROP_TRIGGER = "DROP TRIGGER IF EXISTS pastebin_explain_search_vector ON pastebin_explain"
NEXT_BATCH_END = "SELECT max(slug) FROM (SELECT slug FROM pastebin_explain WHERE slug > %s ORDER BY slug LIMIT %s) AS batch"
FILL_BATCH = (
    "UPDATE pastebin_explain SET search_vector = to_tsvector('simple', search_text) "
    "WHERE slug > %s AND slug <= %s AND search_vector IS NULL"
)
# Only public explains are searched, so the index holds the words of public explains only (NULL
# for the others): a match read from it is a public explain, and ANALYZE keeps statistics of the
# words of public explains, from which the search tells rare words from frequent ones.
CREATE_INDEX = (
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS pastebin_explain_search_vector ON pastebin_explain "
    "USING gin ((CASE WHEN visibility = 'public' THEN search_vector END))"
)
DROP_INDEX = "DROP INDEX CONCURRENTLY IF EXISTS pastebin_explain_search_vector"
# A CONCURRENTLY build that failed (or was interrupted) leaves an invalid index, which IF NOT
# EXISTS would keep: it goes before the build is tried again.
FIND_INVALID_INDEX = (
    "SELECT 1 FROM pg_index WHERE indexrelid = to_regclass('pastebin_explain_search_vector') AND NOT indisvalid"
)
CREATE_OLD_INDEX = (
    "CREATE INDEX CONCURRENTLY IF NOT EXISTS pastebin_explain_search_gin "
    "ON pastebin_explain USING gin (to_tsvector('simple', search_text))"
)
DROP_OLD_INDEX = "DROP INDEX CONCURRENTLY IF EXISTS pastebin_explain_search_gin"


def fill_search_vectors(cursor, batch: int = BATCH) -> int:
    """Fill `search_vector` where it is still NULL, `batch` rows (in slug order) per statement;
    outside a transaction each statement commits on its own. Returns the rows filled."""
    filled, last = 0, ""
    while True:
        cursor.execute(NEXT_BATCH_END, [last, batch])
        end = cursor.fetchone()[0]
        if end is None:
            return filled
        cursor.execute(FILL_BATCH, [last, end])
        filled += cursor.rowcount
        last = end


def backfill(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        with schema_editor.connection.cursor() as cursor:
            fill_search_vectors(cursor)


def create_index(apps, schema_editor):
    """Build the GIN index without blocking writes, then drop the expression index it replaces."""
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(FIND_INVALID_INDEX)
        if cursor.fetchone():
            cursor.execute(DROP_INDEX)
        cursor.execute(CREATE_INDEX)
        cursor.execute(DROP_OLD_INDEX)


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("pastebin", "0005_idempotency_record")]

    operations = [
        migrations.RunPython(on_postgresql(ADD_COLUMN, CREATE_TRIGGER), on_postgresql(DROP_TRIGGER, DROP_COLUMN)),
        migrations.RunPython(backfill, migrations.RunPython.noop),
        migrations.RunPython(create_index, on_postgresql(CREATE_OLD_INDEX, DROP_INDEX)),
    ]
