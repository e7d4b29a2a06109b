"""The links to an explain (from reports, idempotency records and improvements) keep their
indexes but lose their foreign key constraints: on PostgreSQL every constraint is a trigger
run for each deleted explain, which made purging three times slower. Dropping a constraint is
quick on a big table (no scan, a moment's lock); on SQLite the tables are rebuilt. What points at
a deleted explain is dealt with by whatever deletes it (see `Explain.improves_on`).
"""

from django.db import migrations, models
from django.db.models.deletion import CASCADE, SET_NULL


def unconstrained(model_name: str, name: str, **options) -> migrations.AlterField:
    """The link `name` of `model_name` to an explain, kept without its constraint."""
    field = models.ForeignKey(db_constraint=False, to="pastebin.explain", **options)
    return migrations.AlterField(model_name=model_name, name=name, field=field)


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0007_drop_pattern_indexes")]

    operations = [
        unconstrained("abusereport", "explain", on_delete=CASCADE, related_name="reports"),
        unconstrained("explain", "improves_on", blank=True, null=True, on_delete=SET_NULL, related_name="improvements"),
        unconstrained("idempotencyrecord", "explain", on_delete=CASCADE, related_name="+"),
        unconstrained(
            "misreadreport", "explain", blank=True, null=True, on_delete=SET_NULL, related_name="misread_reports"
        ),
    ]
