"""Stored analyses gain the plan model (`tree`), which parser version 2 adds to the analysis.

The model is built from what each explain already stores (its rows and nested plan), so no paste
is parsed again and nothing else in the analysis changes; `manage.py reanalyze` brings old rows
fully up to date with the current parser. Reversing removes the key again.
"""

from django.db import migrations

from analyzer.readers.plan_model import stored_model

BATCH = 500


def add_trees(apps, schema_editor):
    Explain = apps.get_model("pastebin", "Explain")
    batch = []
    for explain in Explain.objects.only("slug", "analysis").iterator(chunk_size=BATCH):
        analysis = explain.analysis
        if not isinstance(analysis, dict) or analysis.get("tree") is not None:
            continue
        analysis["tree"] = stored_model(analysis).to_dict()
        batch.append(explain)
        if len(batch) >= BATCH:
            Explain.objects.bulk_update(batch, ["analysis"])
            batch = []
    if batch:
        Explain.objects.bulk_update(batch, ["analysis"])


def remove_trees(apps, schema_editor):
    Explain = apps.get_model("pastebin", "Explain")
    batch = []
    for explain in Explain.objects.only("slug", "analysis").iterator(chunk_size=BATCH):
        if isinstance(explain.analysis, dict) and explain.analysis.pop("tree", None) is not None:
            batch.append(explain)
    Explain.objects.bulk_update(batch, ["analysis"], batch_size=BATCH)


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0002_search_index_and_throttle_cache")]

    operations = [migrations.RunPython(add_trees, remove_trees)]
