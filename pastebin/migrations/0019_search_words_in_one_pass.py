"""PostgreSQL: `pastebin_search_words` makes the same vector in a fifth of the time.

The function (migrations 0014 and 0016) listed the words of a text as rows and put each back
twice, as it is and dated, in a query that PostgreSQL planned again on every save and every
change of a search text: 0.15 ms of the 0.36 ms an explain's insert took. It now takes the text
form of the words (`'slow':1 'query':2,5`), writes each word again dated with the same places
(`'slow 20417':1`) by one regular expression, as `pastebin_search_day` dates a search's words, and
reads the two back as one vector: 0.05 ms.

A text may hold a word too long to be dated (over 2,000 bytes, see migration 0014); only then,
and only for a text that long, is the vector made the old way. The vectors are the same either
way, so no stored row changes. Nothing happens on SQLite.
"""

import importlib

from django.db import migrations

from pastebin.migrations._postgresql import on_postgresql

across_brackets = importlib.import_module("pastebin.migrations.0016_search_words_across_angle_brackets")

ROWS = across_brackets.ACROSS_BRACKETS
# The query of the function before, run on the words already read.
ROWS_QUERY = ROWS[ROWS.index("SELECT coalesce") : ROWS.index("$$;")].replace(
    "unnest(to_tsvector('simple', translate(left(coalesce(body, ''), 65536), '<>', '  ')))", "unnest(words)"
)
assert "unnest(words)" in ROWS_QUERY

ONE_PASS = rf"""
CREATE OR REPLACE FUNCTION pastebin_search_words(body text, created timestamptz) RETURNS tsvector
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    words tsvector := to_tsvector('simple', translate(left(coalesce(body, ''), 65536), '<>', '  '));
    listed text := words::text;
BEGIN
    IF created IS NULL OR octet_length(listed) > 2000
            AND EXISTS (SELECT FROM unnest(words) AS word WHERE octet_length(word.lexeme) > 2000) THEN
        RETURN ({ROWS_QUERY.strip()});
    END IF;
    RETURN (listed || ' ' || regexp_replace(listed, '''((?:[^'']|'''')*)''',
                                            '''\1 ' || floor(extract(epoch FROM created) / 86400)::bigint || '''',
                                            'g'))::tsvector;
END
$$;
"""
BACK = ROWS[ROWS.index("CREATE OR REPLACE FUNCTION pastebin_search_words") :]


class Migration(migrations.Migration):
    dependencies = [("pastebin", "0018_explain_listed_tables")]

    operations = [migrations.RunPython(on_postgresql(ONE_PASS), on_postgresql(BACK))]
