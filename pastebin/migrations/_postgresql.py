"""What the migrations that act on PostgreSQL alone share (the loader skips modules named `_…`)."""


def on_postgresql(*statements: str):
    """A RunPython function running `statements` on PostgreSQL, and nothing elsewhere."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for statement in statements:
                schema_editor.execute(statement)

    return run
