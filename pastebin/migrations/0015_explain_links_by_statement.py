"""PostgreSQL: the four links to explains (abuse reports, idempotency records, misread reports and
improvements) are kept by triggers of our own instead of foreign keys, so that deleting a batch of
explains unlinks what points at them in four statements instead of four per explain.

A foreign key runs its action as one statement per deleted explain and key: at a million explains
that was about half of what PostgreSQL spent purging one (see README, Benchmarks). Instead:

- After each DELETE statement on explains, `pastebin_explain_unlink()` reads the deleted slugs
  from the statement's transition table and, one statement each, deletes their abuse reports and
  idempotency records and unlinks their misread reports and improvements, as the models'
  `on_delete` says (found by each link's index: the slugs are passed as an array). After a
  TRUNCATE of explains, `pastebin_explain_truncated()` does the same for every link.
- Before a link is written (a row inserted, or its link changed, to a slug), the explain it
  names is locked as a foreign key locks it (`FOR KEY SHARE`, until the writing transaction
  ends), or the statement fails with `foreign_key_violation` when there is none. So a link
  written while its explain is deleted cannot point at nothing: either the deletion waits for
  the writer and its trigger then sees the new link, or the writer waits for the deletion and
  finds no explain. The check is immediate (at the end of each statement), where the foreign keys
  were deferred to the commit: the site always writes the explain before what links to it.
- An explain's slug never changes (an UPDATE of it fails), as nothing would follow it.

Django's state keeps the foreign keys: SQLite still has them, and on PostgreSQL these triggers do
their work. The constraints are dropped last, once the triggers hold, in one transaction.
"""

from django.db import migrations

# (table, column, action on delete, Django's name of its foreign key)
LINKS = [
    ("pastebin_abusereport", "explain_id", "CASCADE", "pastebin_abusereport_explain_id_88a435e9_fk_pastebin_"),
    ("pastebin_idempotencyrecord", "explain_id", "CASCADE", "pastebin_idempotency_explain_id_4d2b1b5f_fk_pastebin_"),
    ("pastebin_misreadreport", "explain_id", "SET NULL", "pastebin_misreadrepo_explain_id_5d4753f6_fk_pastebin_"),
    ("pastebin_explain", "improves_on_id", "SET NULL", "pastebin_explain_improves_on_id_6ded4829_fk_pastebin_"),
]
# Run with parameters (none), so a percent sign is written twice.
CREATE = """
CREATE OR REPLACE FUNCTION pastebin_explain_unlink() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    slugs varchar[];
BEGIN
    slugs := ARRAY(SELECT slug FROM gone);
    DELETE FROM pastebin_abusereport WHERE explain_id = ANY (slugs);
    DELETE FROM pastebin_idempotencyrecord WHERE explain_id = ANY (slugs);
    UPDATE pastebin_misreadreport SET explain_id = NULL WHERE explain_id = ANY (slugs);
    UPDATE pastebin_explain SET improves_on_id = NULL WHERE improves_on_id = ANY (slugs);
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION pastebin_explain_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM pastebin_abusereport;
    DELETE FROM pastebin_idempotencyrecord;
    UPDATE pastebin_misreadreport SET explain_id = NULL WHERE explain_id IS NOT NULL;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION pastebin_check_link() RETURNS trigger LANGUAGE plpgsql AS $$
-- The trigger's argument names the column holding the link.
DECLARE
    target varchar := to_jsonb(NEW) ->> TG_ARGV[0];
BEGIN
    PERFORM 1 FROM pastebin_explain WHERE slug = target FOR KEY SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'insert or update on table "%%" violates its link to explains', TG_TABLE_NAME
            USING ERRCODE = 'foreign_key_violation', DETAIL = format('No explain has the slug %%L.', target);
    END IF;
    RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION pastebin_explain_slug_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'an explain''s slug never changes' USING ERRCODE = 'foreign_key_violation';
END
$$;
CREATE TRIGGER pastebin_explain_unlink AFTER DELETE ON pastebin_explain
    REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION pastebin_explain_unlink();
CREATE TRIGGER pastebin_explain_truncated AFTER TRUNCATE ON pastebin_explain
    FOR EACH STATEMENT EXECUTE FUNCTION pastebin_explain_truncated();
CREATE TRIGGER pastebin_explain_slug_kept BEFORE UPDATE OF slug ON pastebin_explain
    FOR EACH ROW WHEN (NEW.slug IS DISTINCT FROM OLD.slug) EXECUTE FUNCTION pastebin_explain_slug_kept();
CREATE TRIGGER pastebin_explain_improves_on_check AFTER INSERT OR UPDATE OF improves_on_id ON pastebin_explain
    FOR EACH ROW WHEN (NEW.improves_on_id IS NOT NULL) EXECUTE FUNCTION pastebin_check_link('improves_on_id');
"""
LINK_CHECK = """
CREATE TRIGGER {table}_explain_check AFTER INSERT OR UPDATE OF explain_id ON {table}
    FOR EACH ROW WHEN (NEW.explain_id IS NOT NULL) EXECUTE FUNCTION pastebin_check_link('explain_id');
"""
DROP = """
DROP TRIGGER IF EXISTS pastebin_explain_unlink ON pastebin_explain;
DROP TRIGGER IF EXISTS pastebin_explain_truncated ON pastebin_explain;
DROP TRIGGER IF EXISTS pastebin_explain_slug_kept ON pastebin_explain;
DROP TRIGGER IF EXISTS pastebin_explain_improves_on_check ON pastebin_explain;
DROP TRIGGER IF EXISTS pastebin_abusereport_explain_check ON pastebin_abusereport;
DROP TRIGGER IF EXISTS pastebin_idempotencyrecord_explain_check ON pastebin_idempotencyrecord;
DROP TRIGGER IF EXISTS pastebin_misreadreport_explain_check ON pastebin_misreadreport;
DROP FUNCTION IF EXISTS pastebin_explain_unlink();
DROP FUNCTION IF EXISTS pastebin_explain_truncated();
DROP FUNCTION IF EXISTS pastebin_check_link();
DROP FUNCTION IF EXISTS pastebin_explain_slug_kept();
"""
CONSTRAINT = """
SELECT conname FROM pg_constraint
WHERE contype = 'f' AND conrelid = %s::regclass AND confrelid = 'pastebin_explain'::regclass
  AND conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = %s::regclass AND attname = %s)]"""


def by_triggers(apps, schema_editor):
    """The triggers first, then the foreign keys go (each found by its table and column)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(CREATE)
    for table, column, _, _ in LINKS:
        if column == "explain_id":
            schema_editor.execute(LINK_CHECK.format(table=table))
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(CONSTRAINT, [table, table, column])
            names = [name for (name,) in cursor.fetchall()]
        for name in names:
            schema_editor.execute(f'ALTER TABLE {table} DROP CONSTRAINT "{name}"')


def by_foreign_keys(apps, schema_editor):
    """The foreign keys back as migration 0011 made them (checked while rows are written), then no triggers."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for table, column, action, name in LINKS:
        schema_editor.execute(
            f'ALTER TABLE {table} ADD CONSTRAINT "{name}" FOREIGN KEY ({column}) REFERENCES pastebin_explain (slug) '
            f"ON DELETE {action} DEFERRABLE INITIALLY DEFERRED NOT VALID"
        )
        schema_editor.execute(f'ALTER TABLE {table} VALIDATE CONSTRAINT "{name}"')
    schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0014_search_words_by_day")]

    operations = [migrations.RunPython(by_triggers, by_foreign_keys)]
