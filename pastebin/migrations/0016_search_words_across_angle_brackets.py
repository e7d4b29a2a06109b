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


def words_made_with(function: str):
    """A RunPython function making `pastebin_search_words` this function, then the stored words of
    the texts it reads otherwise. One operation each way: reversed, the function is put back
    before the words are made again with it."""
    define, rewrite = on_postgresql(function), by_day.rewrite_vectors(by_day.DATED, where=WITH_BRACKETS)

    def run(apps, schema_editor):
        define(apps, schema_editor)
        rewrite(apps, schema_editor)

    return run


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("pastebin", "0015_explain_links_by_statement")]

    operations = [migrations.RunPython(words_made_with(ACROSS_BRACKETS), words_made_with(WORDS))]
