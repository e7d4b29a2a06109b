"""PostgreSQL: an explain's `search_vector` holds each of its words twice, as it is and dated with
the UTC day the explain was created (`slow 20417`, days since 1970-01-01), so that a search for
the newest matches of frequent words reads from the GIN index only the lists of the last few
days' explains instead of every explain's (see pastebin/search.py).

- `pastebin_search_words(text, created)` makes the vector: the words of the first 65,536
  characters of the text (a tsvector holds at most 1 MB of words: a longer query of distinct
  words made saving fail), each with its positions, and dated the same way (words of up to 2,000
  bytes; a search's words are shorter). A dated word cannot come from any text: words never
  contain a space.
- `pastebin_search_days(query, first_day, last_day)` asks for each word of a search on any of
  those days, keeping the search's operators: `'slow' & !'query'` becomes
  `('slow 20416' | 'slow 20417') & !('query 20416' | 'query 20417')`. An explain holds the words
  of one day only, so it matches this exactly when it was created on one of those days and
  matches the search.
- The trigger that kept the vector on insert and on every change of `search_text` now uses the
  first function, and runs on a change of `created_at` too.

Safe on a big table, so the migration is not atomic: the trigger is replaced first (rows written
from then on are right), then every stored row is rewritten in batches of their own transactions
(about 2 minutes at a million explains). The search asks for dated words only once this code runs,
after the migration. Nothing happens on SQLite, which searches `search_text` by substring.
"""

from django.db import migrations

from pastebin.migrations._postgresql import on_postgresql

BATCH = 5000

CREATE_FUNCTIONS = r"""
CREATE OR REPLACE FUNCTION pastebin_search_words(body text, created timestamptz) RETURNS tsvector
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
SELECT coalesce(string_agg(entry, ' '), '')::tsvector
FROM unnest(to_tsvector('simple', left(coalesce(body, ''), 65536))) AS word (lexeme, positions, weights),
     LATERAL (SELECT '''' || replace(replace(lexeme, '\', '\\'), '''', '''''') AS opened,
                     coalesce(':' || array_to_string(positions, ','), '') AS places) AS quoted,
     LATERAL (VALUES (opened || '''' || places),
                     (CASE WHEN octet_length(lexeme) <= 2000
                           THEN opened || ' ' || floor(extract(epoch FROM created) / 86400)::bigint || '''' || places
                      END)) AS entries (entry)
WHERE entry IS NOT NULL
$$;

CREATE OR REPLACE FUNCTION pastebin_search_days(words tsquery, first_day bigint, last_day bigint) RETURNS tsquery
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
SELECT regexp_replace(words::text, '''((?:[^'']|'''')*)''',
                      (SELECT '(' || string_agg('''\1 ' || day || '''', ' | ') || ')'
                       FROM generate_series(first_day, last_day) AS day),
                      'g')::tsquery
$$;

CREATE OR REPLACE FUNCTION pastebin_explain_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.search_vector := pastebin_search_words(NEW.search_text, NEW.created_at);
    RETURN NEW;
END
$$;

CREATE OR REPLACE TRIGGER pastebin_explain_search_vector
    BEFORE INSERT OR UPDATE OF search_text, created_at ON pastebin_explain
    FOR EACH ROW EXECUTE FUNCTION pastebin_explain_search_vector();
"""
RESTORE_TRIGGER = """
CREATE OR REPLACE TRIGGER pastebin_explain_search_vector
    BEFORE INSERT OR UPDATE OF search_text ON pastebin_explain
    FOR EACH ROW EXECUTE FUNCTION tsvector_update_trigger(search_vector, 'pg_catalog.simple', search_text);
DROP FUNCTION IF EXISTS pastebin_explain_search_vector();
DROP FUNCTION IF EXISTS pastebin_search_days(tsquery, bigint, bigint);
DROP FUNCTION IF EXISTS pastebin_search_words(text, timestamptz);
"""
NEXT_BATCH_END = (
    "SELECT max(slug) FROM (SELECT slug FROM pastebin_explain WHERE slug > %s ORDER BY slug LIMIT %s) AS batch"
)
DATED = "pastebin_search_words(search_text, created_at)"
UNDATED = "to_tsvector('simple', search_text)"


def rewrite_vectors(vector: str, batch: int = BATCH, where: str = "true"):
    """A RunPython function setting the `search_vector` of every row (of those `where` holds) to
    `vector`, `batch` rows (in slug order) per statement, each committing on its own; nothing
    elsewhere than on PostgreSQL."""

    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        last = ""
        with schema_editor.connection.cursor() as cursor:
            while True:
                cursor.execute(NEXT_BATCH_END, [last, batch])
                end = cursor.fetchone()[0]
                if end is None:
                    return
                cursor.execute(
                    f"UPDATE pastebin_explain SET search_vector = {vector} "
                    f"WHERE slug > %s AND slug <= %s AND ({where})",
                    [last, end],
                )
                last = end

    return run


class Migration(migrations.Migration):
    atomic = False
    dependencies = [("pastebin", "0013_explain_change_notices")]

    operations = [
        migrations.RunPython(on_postgresql(CREATE_FUNCTIONS), on_postgresql(RESTORE_TRIGGER)),
        migrations.RunPython(rewrite_vectors(DATED), rewrite_vectors(UNDATED)),
    ]
