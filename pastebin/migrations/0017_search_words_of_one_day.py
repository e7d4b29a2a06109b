"""PostgreSQL: a search asks for its words on one day at a time.

`pastebin_search_day(query, day)` asks for each word of a search on that day, keeping the
search's operators: `'slow' & !'query'` becomes `'slow 20416' & !'query 20416'` (the dated words
of migration 0014). A window of days is searched as one index scan per day, so that every word of
the search is required in each: `pastebin_search_days`, which asked for each word on any of a
window's days in one query, left none required, and the index read every explain of the window
holding any of the words (see `pastebin/search.py`). It is dropped.

The function is a single expression of built-in immutable functions, so that PostgreSQL inlines
it rather than running it as a function of its own for each day. Nothing happens on SQLite.
"""

import importlib

from django.db import migrations

from pastebin.migrations._postgresql import on_postgresql

by_day = importlib.import_module("pastebin.migrations.0014_search_words_by_day")

ONE_DAY = r"""
CREATE OR REPLACE FUNCTION pastebin_search_day(words tsquery, day bigint) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT regexp_replace(words::text, '''((?:[^'']|'''')*)''', '''\1 ' || day::text || '''', 'g')::tsquery
$$;
DROP FUNCTION IF EXISTS pastebin_search_days(tsquery, bigint, bigint);
"""
DAYS = by_day.CREATE_FUNCTIONS[
    by_day.CREATE_FUNCTIONS.index("CREATE OR REPLACE FUNCTION pastebin_search_days") : by_day.CREATE_FUNCTIONS.index(
        "CREATE OR REPLACE FUNCTION pastebin_explain_search_vector"
    )
]
BACK = DAYS + "DROP FUNCTION IF EXISTS pastebin_search_day(tsquery, bigint);"


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0016_search_words_across_angle_brackets")]

    operations = [migrations.RunPython(on_postgresql(ONE_DAY), on_postgresql(BACK))]
