"""PostgreSQL's GIN full-text index on search_text (nothing on other databases, which search
with icontains), and the database cache table that the API throttle counts in."""

from django.core.management import call_command
from django.db import migrations

CREATE_INDEX = (
    "CREATE INDEX IF NOT EXISTS pastebin_explain_search_gin "
    "ON pastebin_explain USING gin (to_tsvector('simple', search_text))"
)
DROP_INDEX = "DROP INDEX IF EXISTS pastebin_explain_search_gin"


def create_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE_INDEX)


def drop_search_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP_INDEX)


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0001_initial")]

    operations = [
        migrations.RunPython(create_search_index, drop_search_index),
        migrations.RunPython(create_cache_table, migrations.RunPython.noop),
    ]
