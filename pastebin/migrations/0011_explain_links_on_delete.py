"""PostgreSQL: the four foreign keys to explains act when an explain is deleted, as the models'
`on_delete` says: its abuse reports and idempotency records are deleted, its misread reports and
the explains improving on it lose the link.

Each foreign key runs a trigger for every deleted explain in any case: until now it checked that
nothing pointed at it any more, after `purge_expired` had deleted or unlinked what did (so each
link was looked up twice); now the trigger does the deleting or unlinking itself. A link written
while its explain is deleted still cannot be left pointing at nothing. Each constraint is added
back NOT VALID, then validated, which lets rows be read and written meanwhile. Nothing happens on
SQLite, where Django deletes what points at an explain itself.
"""

from django.db import migrations

# (table, column, action on delete): the links to explains.
LINKS = [
    ("pastebin_abusereport", "explain_id", "CASCADE"),
    ("pastebin_idempotencyrecord", "explain_id", "CASCADE"),
    ("pastebin_misreadreport", "explain_id", "SET NULL"),
    ("pastebin_explain", "improves_on_id", "SET NULL"),
]
CONSTRAINT = """
SELECT conname FROM pg_constraint
WHERE contype = 'f' AND conrelid = %s::regclass AND confrelid = 'pastebin_explain'::regclass
  AND conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = %s::regclass AND attname = %s)]"""


def on_delete(acting: bool):
    """A RunPython function giving each link its action on delete (or none: `acting` false)."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table, column, action in LINKS:
            with schema_editor.connection.cursor() as cursor:
                cursor.execute(CONSTRAINT, [table, table, column])
                (name,) = cursor.fetchone()
            schema_editor.execute(
                f'ALTER TABLE {table} DROP CONSTRAINT "{name}", ADD CONSTRAINT "{name}" FOREIGN KEY ({column}) '
                f"REFERENCES pastebin_explain (slug) {f'ON DELETE {action} ' if acting else ''}"
                "DEFERRABLE INITIALLY DEFERRED NOT VALID"
            )
            schema_editor.execute(f'ALTER TABLE {table} VALIDATE CONSTRAINT "{name}"')

    return run


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0010_search_index_pending_list")]

    operations = [migrations.RunPython(on_delete(True), on_delete(False))]
