"""PostgreSQL: every change to saved explains is announced on the channel `explain_changes`, so
each worker process can forget what it remembered of them (pastebin/live.py).

- After every DELETE or TRUNCATE statement on the table, whatever ran it (the site, the admin, the
  purge, raw SQL), one notice with an empty payload: forget everything. Statement-level: a purge
  batch of thousands of rows costs one.
- After each row an UPDATE changes, the same notice (PostgreSQL sends one per transaction, however
  many rows). Row-level, so that the updates the foreign keys make for every deleted explain
  (unlinking its improvements), which almost always change no row, cost nothing.
- After each INSERT of an explain that improves on another, a notice naming the one it improves
  on, whose page lists it. Other inserts change no page that was shown.

PostgreSQL sends a notice when its transaction commits, never for one rolled back. Nothing
happens on SQLite, where nothing is remembered.
"""

from django.db import migrations

from pastebin.migrations._postgresql import on_postgresql

CHANNEL = "explain_changes"
CREATE = f"""
CREATE OR REPLACE FUNCTION pastebin_explain_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM pg_notify('{CHANNEL}', NEW.improves_on_id);
    ELSE
        PERFORM pg_notify('{CHANNEL}', '');
    END IF;
    RETURN NULL;
END
$$;
CREATE OR REPLACE TRIGGER pastebin_explain_changed AFTER DELETE OR TRUNCATE ON pastebin_explain
    FOR EACH STATEMENT EXECUTE FUNCTION pastebin_explain_changed();
CREATE OR REPLACE TRIGGER pastebin_explain_updated AFTER UPDATE ON pastebin_explain
    FOR EACH ROW EXECUTE FUNCTION pastebin_explain_changed();
CREATE OR REPLACE TRIGGER pastebin_explain_improvement AFTER INSERT ON pastebin_explain
    FOR EACH ROW WHEN (NEW.improves_on_id IS NOT NULL) EXECUTE FUNCTION pastebin_explain_changed();
"""
DROP = """
DROP TRIGGER IF EXISTS pastebin_explain_improvement ON pastebin_explain;
DROP TRIGGER IF EXISTS pastebin_explain_updated ON pastebin_explain;
DROP TRIGGER IF EXISTS pastebin_explain_changed ON pastebin_explain;
DROP FUNCTION IF EXISTS pastebin_explain_changed();
"""


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0012_analysis_lz4")]

    operations = [migrations.RunPython(on_postgresql(CREATE), on_postgresql(DROP))]
