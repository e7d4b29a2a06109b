"""PostgreSQL: lists read an explain's tables from a column of their own, `listed_tables`.

Picking the tables out of the analysis made PostgreSQL read the whole analysis (out of line and
compressed, 2 to 6 kB) for each explain listed: 0.38 ms of the 0.51 ms that reading 21 listed
explains took. A trigger keeps the column equal to the analysis's `tables` on every insert and
every update of the analysis, whatever writes the row (the site, the bulk updates of reanalysis,
raw SQL), so it can never tell other tables than the analysis.

Safe on a big table, so the migration is not atomic: the column is added nullable (no rewrite),
the trigger goes first (rows written from then on are right), then the rows stored before are
filled in batches of their own transactions, oldest first (about a minute at a million explains). The column is
not a model field: loading an explain never reads it. Nothing happens on SQLite, whose lists pick
the tables out of the analysis.
"""

from django.db import migrations

from pastebin.migrations._postgresql import on_postgresql

BATCH = 5000

CREATE = """
ALTER TABLE pastebin_explain ADD COLUMN IF NOT EXISTS listed_tables jsonb;

CREATE OR REPLACE FUNCTION pastebin_explain_listed_tables() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.listed_tables := NEW.analysis -> 'tables';
    RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER pastebin_explain_listed_tables
    BEFORE INSERT OR UPDATE OF analysis, listed_tables ON pastebin_explain
    FOR EACH ROW EXECUTE FUNCTION pastebin_explain_listed_tables();
"""
DROP = """
DROP TRIGGER IF EXISTS pastebin_explain_listed_tables ON pastebin_explain;
DROP FUNCTION IF EXISTS pastebin_explain_listed_tables();
ALTER TABLE pastebin_explain DROP COLUMN IF EXISTS listed_tables;
"""
# Batches in creation order, so that the rows the updates write anew stay in that order on disk
# (lists and searches walk the newest explains): the last row of the next batch.
NEXT_BATCH_END = (
    "SELECT created_at, slug FROM pastebin_explain WHERE (created_at, slug) > (%s, %s) "
    "ORDER BY created_at, slug OFFSET %s LIMIT 1"
)
# Setting the column runs the trigger, which sets it from the analysis.
FILL_AFTER = (
    "UPDATE pastebin_explain SET listed_tables = NULL WHERE (created_at, slug) > (%s, %s) "
    "AND listed_tables IS NULL AND analysis ? 'tables'"
)
FILL_BATCH = FILL_AFTER + " AND (created_at, slug) <= (%s, %s)"


def fill(apps, schema_editor, batch: int = BATCH) -> None:
    """Fill `listed_tables` of the rows stored before the trigger, `batch` rows (in creation order)
    per statement, each committing on its own; nothing elsewhere than on PostgreSQL."""
    if schema_editor.connection.vendor != "postgresql":
        return
    last = ("-infinity", "")
    with schema_editor.connection.cursor() as cursor:
        while True:
            cursor.execute(NEXT_BATCH_END, [*last, batch - 1])
            end = cursor.fetchone()
            if end is None:  # fewer than a batch left
                cursor.execute(FILL_AFTER, last)
                return
            cursor.execute(FILL_BATCH, [*last, *end])
            last = end


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("pastebin", "0017_search_words_of_one_day")]

    operations = [
        migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP)),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
