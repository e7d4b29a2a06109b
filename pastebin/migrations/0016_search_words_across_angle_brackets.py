"""PostgreSQL: the words between a `<` and a `>` are searchable.

PostgreSQL's text parser reads `<...>` as a markup tag and drops it whole, so the query
`WHERE total<price AND qty>0` stored no `price`, `and` or `qty`, and a search for them missed it.
`pastebin_search_words` now reads angle brackets as blanks (a search's words, read by
`websearch_to_tsquery`, keep them already), and the stored vectors of the texts holding one are
made again, in batches of their own transactions as migration 0014 did. Nothing happens on SQLite,
which searches `search_text` by substring.
"""

import importlib

from django.db import migrations

from pastebin.migrations._postgresql import on_postgresql

by_day = importlib.import_module("pastebin.migrations.0014_search_words_by_day")

WORDS = by_day.CREATE_FUNCTIONS[: by_day.CREATE_FUNCTIONS.index("CREATE OR REPLACE FUNCTION pastebin_search_days")]
READ_AS_BLANKS = "left(coalesce(body, ''), 65536)"
assert READ_AS_BLANKS in WORDS
ACROSS_BRACKETS = WORDS.replace(READ_AS_BLANKS, "translate(left(coalesce(body, ''), 65536), '<>', '  ')")
# Only the texts holding a bracket have other words now.
WITH_BRACKETS = "strpos(search_text, '<') > 0 OR strpos(search_text, '>') > 0"


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("pastebin", "0015_explain_links_by_statement")]

    operations = [
        migrations.RunPython(on_postgresql(ACROSS_BRACKETS), on_postgresql(WORDS)),
        migrations.RunPython(
            by_day.rewrite_vectors(by_day.DATED, where=WITH_BRACKETS),
            by_day.rewrite_vectors(by_day.DATED, where=WITH_BRACKETS),
        ),
    ]
