"""Scale benchmark: `make bench-scale` (or `python bench/scale.py [--rows N] [--database-url URL]`).

Does every page stay as fast with a million stored explains as with a thousand?

1. Starts a throwaway PostgreSQL cluster of its own (initdb in a temporary folder, a free port,
   run by the `postgres` user when started as root; fsync off, as in CI), unless `--database-url`
   names an empty database it may fill. It migrates it.
2. Saves the real pastes of `tests/fixtures/real/` through the site's own `save_explain`, as seeds.
3. Fills the table to 1,000 explains, then to N (default 1,000,000), in SQL: `INSERT … SELECT`
   from `generate_series`, each row a copy of a seed (its paste, query and analysis, the analysis
   marked stale so that reanalysis rewrites it) under a slug, title, creation time (newest last,
   as rows arrive), visibility, expiry and moderation of its own. Titles are 2 to 4 words drawn
   with a Zipf-like skew from a vocabulary (a few words are in a quarter of all titles, most in
   very few); a third of unlisted titles start with "internal", a word no public explain has.
   Beside them: abuse and misread reports, idempotency records (half older than 24 hours) and
   `improves_on` links, so that purging has related rows to handle. 5% of the rows are expired.
4. At 1,000 explains, after VACUUM ANALYZE, the database is copied (`CREATE DATABASE … TEMPLATE`)
   before it grows to N, so that both sizes can be timed side by side: on a machine shared with
   other work, timing one size minutes after the other mostly measures how busy the machine was.
5. Times every page and API endpoint through Django's test client (the whole middleware stack, in
   this process, no network), in `--repeat` rounds after one warm-up, each round asking every
   endpoint once of the 1,000 explains and once of the N (each database through a connection of its
   own, kept from round to round as a server's pool keeps them; the cache is cleared); each figure
   is the median of its rounds. Permalinks, raw views, API details and comparisons each ask for
   other explains, picked at random among the live ones (read from the database each time: a
   worker's memory of explains is off here, since both databases hold the same slugs;
   `bench/http_bench.py` measures pages with it). A search's page costs more the more explains it
   lists, so the table tells how many each one listed at each size, and times finding (and reading)
   the matches alone too. The searches go from the worst cases of one way of finding matches to
   those of the other: frequent words, words each frequent but rarely together, rare words, words in
   no public explain, a word's start (words match whole).
6. At each size, runs `purge_expired` (rows deleted per second) and `reanalyze --all --jobs
   <cores>` (rows per second, and the same with the analyzer's own CPU time, as the command
   reports it, taken out); not with `--jobs 0`, which times the pages and endpoints only.

It prints one table: each figure at 1,000 and at N, and their ratio. With `--maintenance-only` it
fills to N alone and prints the purge and reanalysis rates at N, without timing any endpoint. Generating 1,000,000 rows
takes about two minutes and 4 GB of disk; re-analyzing them all, a few minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import re
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path
from urllib.parse import quote_plus

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.reliability.servers import Cluster, postgres_bin  # noqa: E402

SMALL = 1_000
CHUNK = 50_000
SEARCH_WORDS = 3_000
COMMON_WORDS = [
    "slow", "query", "report", "orders", "users", "join", "index", "dashboard", "checkout", "search",
    "invoice", "customer", "nightly", "export", "billing", "product", "analytics", "filesort", "temporary",
    "subquery", "payments", "inventory", "session", "login", "audit", "events", "cart", "shipping", "api",
    "migration", "batch", "count", "group", "sort", "range", "scan", "lookup", "archive", "tenant", "stats",
]  # fmt: skip
SERVER_SETTINGS = {
    "shared_buffers": "1GB",
    "effective_cache_size": "8GB",
    "work_mem": "16MB",
    "maintenance_work_mem": "1GB",
    "max_wal_size": "8GB",
    "checkpoint_timeout": "30min",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}


def vocabulary(size: int = SEARCH_WORDS) -> list[str]:
    """Common words first, then made-up ones: the search words, most frequent first."""
    rng = random.Random(7)
    made_up: set[str] = set()
    while len(made_up) < size - len(COMMON_WORDS):
        made_up.add("".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(rng.randint(2, 4))))
    return COMMON_WORDS + sorted(made_up)


@contextlib.contextmanager
def throwaway_database() -> Iterator[str]:
    """A PostgreSQL cluster in a temporary folder for the length of the run."""
    bin_dir = postgres_bin()
    if bin_dir is None:
        sys.exit("PostgreSQL's server binaries are missing (apt-get install postgresql), or give --database-url")
    cluster = Cluster(bin_dir)
    try:
        cluster.start(**SERVER_SETTINGS)
        yield cluster.url
    finally:
        cluster.remove()


def configure_django(url: str) -> None:
    """Settings as in production (DEBUG off, statement timeouts), but in this process."""
    os.environ.update(
        DATABASE_URL=url,
        DB_POOL_SIZE="0",
        ALLOWED_HOSTS="testserver",
        API_CREATE_RATE="1000000/minute",
        # The connection switches between databases holding the same slugs: a worker's memory of
        # explains (which listens to one database) would answer for the other.
        LIVE_MEMO_BYTES="0",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    os.environ.pop("DEBUG", None)
    warnings.filterwarnings("ignore", "No directory at")  # static files are not collected: no page needs them
    import django

    django.setup()
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


# For the statements that build the data: no time limit, no JIT compilation (seconds for each
# statement), and rows copied in the order they are numbered (a merge join would sort them).
BUILDING = {"statement_timeout": "0", "jit": "off", "enable_mergejoin": "off"}


def sql(statement: str, params: dict | list | None = None) -> list[tuple]:
    """Run one statement with the settings for building data; its rows, if it returns any."""
    from django.db import connection

    with connection.cursor() as cursor:
        for name, value in BUILDING.items():
            cursor.execute(f"SET {name} = {value}")
        cursor.execute(statement, params)
        rows = cursor.fetchall() if cursor.description else []
        for name in BUILDING:
            cursor.execute(f"RESET {name}")
    return rows


# Random-looking slugs of the site's alphabet and length, the same for the same number `g`.
SLUG_FUNCTION = """
CREATE OR REPLACE FUNCTION bench_slug(g bigint) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(substr(md5('bench-' || g), 1, {length}), '0123456789abcdef', '{letters}')
$$"""


def prepare() -> int:
    """Migrate an empty database, save the seeds, and return how many there are."""
    from django.core.management import call_command

    from pastebin.slugs import ALPHABET, LENGTH

    call_command("migrate", verbosity=0)
    if sql("SELECT 1 FROM pastebin_explain LIMIT 1"):
        sys.exit("The database holds explains already: the benchmark fills an empty one (or its own cluster).")
    sql("DROP TABLE IF EXISTS bench_words, bench_seeds, bench_state")
    sql("CREATE TABLE bench_words (n int PRIMARY KEY, word text NOT NULL)")
    sql("INSERT INTO bench_words SELECT n, w FROM unnest(%s::text[]) WITH ORDINALITY AS t(w, n)", [vocabulary()])
    sql("CREATE TABLE bench_state (next_g bigint NOT NULL)")
    sql("INSERT INTO bench_state VALUES (1)")
    sql(SLUG_FUNCTION.format(length=LENGTH, letters=ALPHABET[:16]))
    sql(SEEDS_TABLE)
    save_seeds()
    return sql("SELECT count(*) FROM bench_seeds")[0][0]


# What the copies of a seed share: its columns, with the analysis marked stale. Stored in a table
# (compressed once), so that copying a row does not compress its analysis again.
SEEDS_TABLE = """
CREATE TABLE bench_seeds (
    n int PRIMARY KEY, slug text NOT NULL, tables text NOT NULL, raw_explain text NOT NULL, query text NOT NULL,
    schema text NOT NULL, analysis jsonb NOT NULL, parser_version text NOT NULL, delete_token_hash text NOT NULL
)"""
SEED_COPIES = """
INSERT INTO bench_seeds
SELECT seed.n, e.slug, seed.tables, e.raw_explain, e.query, e.schema, e.analysis || '{"bench_stale": true}', e.parser_version,
       e.delete_token_hash
FROM unnest(%s::int[], %s::text[], %s::text[]) AS seed(n, slug, tables) JOIN pastebin_explain AS e USING (slug)"""


def save_seeds() -> None:
    """The real-world pastes the analyzer reads, saved as the site saves them."""
    from pastebin.saving import SaveError, save_explain

    seeds = []
    for path in sorted((ROOT / "tests/fixtures/real").rglob("*.txt")):
        try:
            saved = save_explain(path.read_text(encoding="utf-8"), expires="never")
        except SaveError:
            continue
        seeds.append((len(seeds), saved.explain.slug, saved.explain.search_text))
    sql(SEED_COPIES, [list(column) for column in zip(*seeds, strict=True)])


FILL = """
WITH words AS (SELECT array_agg(word ORDER BY n) AS list, count(*) AS size FROM bench_words),
rows AS (
  SELECT g, g %% %(seeds)s AS seed,
         CASE WHEN random() < 0.5 THEN 'public' ELSE 'unlisted' END AS visibility,
         now() - (%(newest)s - g) * interval '10 seconds' AS created_at,
         CASE WHEN random() < 0.3 THEN NULL
              WHEN random() < 0.93 THEN now() + random() * interval '365 days'
              ELSE now() - random() * interval '30 days' END AS expires_at
  FROM generate_series(%(first)s, %(last)s) AS g
),
titled AS (
  SELECT rows.*,
         concat_ws(' ', CASE WHEN visibility = 'unlisted' AND random() < 0.33 THEN 'internal' END,
                   array_to_string(ARRAY(SELECT words.list[floor(exp(random() * ln(words.size)))::int]
                                         FROM generate_series(1, 2 + g %% 3)), ' ')) AS title
  FROM rows, words
)
INSERT INTO pastebin_explain (slug, title, raw_explain, query, schema, analysis, parser_version, search_text, created_at,
                              expires_at, visibility, improves_on_id, delete_token_hash, anonymized, hidden)
SELECT bench_slug(t.g), t.title, seed.raw_explain, seed.query, seed.schema, seed.analysis, seed.parser_version,
       concat_ws(E'\\n', nullif(t.title, ''), nullif(seed.query, ''), nullif(seed.tables, '')),
       t.created_at, t.expires_at, t.visibility, CASE WHEN t.g %% 50 = 0 AND t.g > %(first)s THEN bench_slug(t.g - 1) END,
       seed.delete_token_hash, false, t.g %% 1000 = 7
FROM titled AS t JOIN bench_seeds AS seed ON seed.n = t.seed
"""

RELATED = [
    """INSERT INTO pastebin_abusereport (reason, contact, created_at, resolved, explain_id)
       SELECT 'spam', '', now(), false, bench_slug(g) FROM generate_series(%(first)s, %(last)s) AS g
       WHERE g %% 250 = 0""",
    """INSERT INTO pastebin_misreadreport (text, comment, anonymized, parser_version, read_format, read_rows,
                                          read_truncated, created_at, status, explain_id)
       SELECT 'paste', '', false, '1', 'table', 1, false, now(), 'new', bench_slug(g)
       FROM generate_series(%(first)s, %(last)s) AS g WHERE g %% 500 = 1""",
    """INSERT INTO pastebin_idempotencyrecord (key_hash, request_hash, created_at, masked_delete_token, explain_id)
       SELECT md5('key-' || g) || md5('hash-' || g), md5('request-' || g) || md5('r-' || g),
              now() - random() * interval '48 hours', '00', bench_slug(g)
       FROM generate_series(%(first)s, %(last)s) AS g WHERE g %% 10 = 3""",
]


def fill(total: int, newest: int, seeds: int) -> None:
    """Add copies of the seeds until the table holds `total` explains, in chunks of their own."""
    count = sql("SELECT count(*) FROM pastebin_explain")[0][0]
    started = time.perf_counter()
    while count < total:
        first = sql("SELECT next_g FROM bench_state")[0][0]
        last = first + min(CHUNK, total - count) - 1
        params = {"first": first, "last": last, "newest": newest, "seeds": seeds}
        sql(FILL, params)
        for statement in RELATED:
            sql(statement, params)
        sql("UPDATE bench_state SET next_g = %s", [last + 1])
        count += last - first + 1
        print(f"  {count:,} explains ({time.perf_counter() - started:.0f} s)", flush=True)
    sql("VACUUM ANALYZE")


LIVE_SAMPLE = """
SELECT DISTINCT e.slug FROM generate_series(1, %(tries)s) AS i
CROSS JOIN LATERAL (SELECT bench_slug(1 + floor(random() * %(rows)s)::bigint) AS slug WHERE i > 0) AS picked
JOIN pastebin_explain AS e ON e.slug = picked.slug
WHERE NOT e.hidden AND (e.expires_at IS NULL OR e.expires_at > now())
"""


def live_slugs(count: int) -> list[str]:
    """`count` live generated explains picked at random."""
    rows = sql("SELECT next_g - 1 FROM bench_state")[0][0]
    slugs = [slug for (slug,) in sql(LIVE_SAMPLE, {"tries": count * 3, "rows": rows})]
    return random.sample(slugs, count)


WORDS = vocabulary()
SEARCHES = {
    "search: one common word": "slow",  # in about a quarter of all titles
    "search: two words": "slow query",
    "search: three common words": "slow query report",
    "search: either of two words": "slow or query",
    "search: all but one word": "-slow",
    "search: a table name": "employees",
    "search: a title word and a table name": "orders customer",  # about as many matches as the index reads first
    "search: a word in 0.3%": WORDS[100],
    "search: a rare word": WORDS[1999],  # in about 0.02% of titles
    "search: a word's start": "check",  # words match whole: "checkout" does not
    "search: no hits, two words": "internal slow",  # "internal" is in unlisted titles only
    "search: no hits, one word but not another": "internal -slow",
    "search: no hits, two rare words": f"{WORDS[1999]} {WORDS[2500]}",
    "search: no hits, unknown word": "xylophone",
}


def endpoints(repeat: int) -> dict[str, Callable[[], str | tuple[str, str]]]:
    """Each endpoint as a function making one request and returning the path it asked for."""
    from tests.pastebin.factories import explain_table

    slugs = iter(live_slugs(5 * (repeat + 1)))  # permalink, raw, API detail, and two per comparison
    paste = explain_table(table="bench_orders")

    def page(template: str, slug_count: int = 1) -> Callable[[], str]:
        return lambda: template.format(*(next(slugs) for _ in range(slug_count)))

    return {
        "home": lambda: "/",
        "permalink": page("/e/{}/"),
        "raw": page("/e/{}/raw/"),
        "recent": lambda: "/recent/",
        **{label: (lambda text=text: f"/search/?q={quote_plus(text)}") for label, text in SEARCHES.items()},
        "search: one common word, second page": lambda: second_page(SEARCHES["search: one common word"]),
        "API list": lambda: "/api/v1/explains/",
        "API detail": page("/api/v1/explains/{}/"),
        "API create": lambda: ("POST", paste),
        "compare": page("/compare/{}/{}/", 2),
    }


def second_page(text: str) -> str:
    """The path of the second page of the search for `text` (its link on the first)."""
    from django.test import Client

    first = Client().get(f"/search/?q={quote_plus(text)}").content.decode()
    return "/search/" + re.search(r'href="(\?q=[^"]+)"[^>]*>Older matches', first).group(1).replace("&amp;", "&")


def request(client, target: str | tuple[str, str]) -> int:
    """Make the request; for a search, how many explains its page lists."""
    if isinstance(target, tuple):
        response = client.post(
            "/api/v1/explains/", target[1], content_type="text/plain", HTTP_ACCEPT="application/json"
        )
        expected = 201
    else:
        response = client.get(target)
        expected = 200
    if response.status_code != expected:
        raise RuntimeError(f"{target}: {response.status_code} {response.content[:300]!r}")
    return response.content.count(b'class="explain-item"')


# A connection of its own to each database timed, kept from round to round as a server's pool
# keeps its connections: a new one would start each round on a backend with nothing cached, which
# costs the first statements of a kind (the statistics, a search function) more than they cost.
CONNECTIONS: dict[str, object] = {}


def use_database(name: str) -> None:
    """Make the connection to database `name` the default one, and the database of the connections
    other threads open (`purge_expired` deletes in threads of its own), with an empty cache."""
    from django.core.cache import cache
    from django.db import connections

    if name not in CONNECTIONS:
        current = connections["default"]
        CONNECTIONS[name] = type(current)({**current.settings_dict, "NAME": name}, "default")
    connections["default"] = CONNECTIONS[name]
    connections.settings["default"]["NAME"] = name
    cache.clear()


def close_connections() -> None:
    """Close the connections `use_database` opened (a database is dropped only with none)."""
    for opened in CONNECTIONS.values():
        opened.close()


def copy_database(name: str) -> str:
    """A copy of the connection's database, named `name`, made while nothing is connected to it;
    the name of the database copied."""
    from django.db import connection

    source = connection.settings_dict["NAME"]
    connection.close()
    administer(f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}" TEMPLATE "{source}"')
    return source


def administer(*statements: str) -> None:
    """Run `statements` connected to the server's `template1` database (outside a transaction)."""
    import psycopg
    from django.db import connection

    params = connection.get_connection_params()
    wanted = {"user", "password", "host", "port", "sslmode", "sslrootcert"}
    with psycopg.connect(
        **{k: v for k, v in params.items() if k in wanted}, dbname="template1", autocommit=True
    ) as admin:
        for statement in statements:
            admin.execute(statement)


def time_endpoints(databases: list[str], repeat: int) -> list[tuple[dict[str, float], dict[str, int]]]:
    """For each database: the median milliseconds per endpoint over `repeat` rounds, each round
    asking each endpoint once of every database in turn (after one warm-up request each); and how
    many explains each search listed."""
    from django.test import Client

    client = Client()
    targets, times, listed = [], [], []
    for name in databases:
        use_database(name)
        targets.append(endpoints(repeat))
        listed.append({label: request(client, target()) for label, target in targets[-1].items()})
        times.append({label: [] for label in [*targets[-1], *(f"{label}{MATCHING_ALONE}" for label in SEARCHES)]})
    for _ in range(repeat):
        for name, own, spent in zip(databases, targets, times, strict=True):
            use_database(name)
            for label, target in own.items():
                path = target()
                started = time.perf_counter()
                request(client, path)
                spent[label].append(time.perf_counter() - started)
            for label, seconds in time_matching().items():
                spent[label].append(seconds)
    medians = [{label: statistics.median(values) * 1000 for label, values in spent.items()} for spent in times]
    return list(zip(medians, listed, strict=True))


MATCHING_ALONE = ", matching alone"


def time_matching() -> dict[str, float]:
    """Seconds of finding each search's matches alone (`newest_matches`: the newest 21, those of a
    page and one more to tell whether there is another, read as lists show them), without the
    page that lists them."""
    from pastebin.search import newest_matches
    from pastebin.views import PAGE_SIZE

    seconds = {}
    for label, text in SEARCHES.items():
        started = time.perf_counter()
        newest_matches(text, PAGE_SIZE + 1, datetime.now(UTC))
        seconds[f"{label}{MATCHING_ALONE}"] = time.perf_counter() - started
    return seconds


def run_command(*args: str) -> tuple[str, float]:
    """Run a management command; its output and wall-clock seconds."""
    from django.core.management import call_command

    out = StringIO()
    started = time.perf_counter()
    call_command(*args, stdout=out, stderr=out)
    return out.getvalue(), time.perf_counter() - started


def maintenance(jobs: int) -> dict[str, float]:
    """Rows per second of `purge_expired` and `reanalyze --all` (also without the analyzer's CPU time)."""
    output, seconds = run_command("purge_expired")
    purged = int(re.search(r"Deleted (\d+) expired explain", output).group(1))
    output, seconds_all = run_command("reanalyze", "--all", f"--jobs={jobs}")
    found = re.search(r"Re-analyzed (\d+) explain.*analysis: ([\d.]+) s of CPU", output, re.S)
    if found is None:
        raise RuntimeError(output)
    analyzed, analysis_cpu = int(found.group(1)), float(found.group(2))
    outside = max(seconds_all - analysis_cpu / jobs, 1e-9)
    sql("VACUUM ANALYZE")
    return {
        "purge_expired": purged / seconds,
        "reanalyze --all": analyzed / seconds_all,
        "reanalyze --all, analyzer CPU taken out": analyzed / outside,
    }


def load() -> str:
    return "{:.1f}, {:.1f}, {:.1f}".format(*os.getloadavg())


def measure(rows: int, seeds: int, repeat: int, jobs: int) -> list[tuple[dict[str, float], dict[str, int]]]:
    """The figures at 1,000 and at `rows` explains, and how many explains each search listed."""
    print(f"Filling to {SMALL:,} explains", flush=True)
    fill(SMALL, rows, seeds)
    large = copy_database(SMALL_DATABASE)
    print(f"Filling to {rows:,} explains", flush=True)
    fill(rows, rows, seeds)
    databases = [SMALL_DATABASE, large]
    print(f"Timing at {SMALL:,} and {rows:,} explains, side by side (load averages {load()})", flush=True)
    results = time_endpoints(databases, repeat)
    print(f"  done (load averages {load()})", flush=True)
    if not jobs:
        return results
    for name, (figures, _) in zip(databases, results, strict=True):
        use_database(name)
        print(f"Purging and re-analyzing in {name} (load averages {load()})", flush=True)
        figures.update(maintenance(jobs))
    print(f"  done (load averages {load()})", flush=True)
    return results


def measure_maintenance(rows: int, seeds: int, jobs: int) -> None:
    """Fill to `rows` explains and print the rates of purge and reanalysis alone."""
    print(f"Filling to {rows:,} explains", flush=True)
    fill(rows, rows, seeds)
    print(f"Purging and re-analyzing (load averages {load()})", flush=True)
    for label, rate in maintenance(jobs).items():
        print(f"{label:<40} {rate:>10,.1f} rows/s")
    print(f"  done (load averages {load()})", flush=True)


SMALL_DATABASE = "bench_small"


def drop_copy() -> None:
    """Drop the copy at 1,000 explains (from a database the benchmark was given)."""
    from django.db import connection

    connection.close()
    close_connections()
    administer(f'DROP DATABASE IF EXISTS "{SMALL_DATABASE}"')


RATES = ("purge_expired", "reanalyze")


def print_table(
    small: tuple[dict[str, float], dict[str, int]], large: tuple[dict[str, float], dict[str, int]], rows: int
) -> None:
    (before, listed_before), (after, listed_after) = small, large
    print(f"\n{'':<64} {f'at {SMALL:,}':>14} {f'at {rows:,}':>16} {'ratio':>7}")
    for label, value in before.items():
        unit = "rows/s" if label.startswith(RATES) else "ms"
        listing = label.startswith(("search", "recent")) and label in listed_before
        shown = f" ({listed_before[label]}/{listed_after[label]})" if listing else ""
        ratio = after[label] / value if value else float("nan")
        print(f"{label + shown:<64} {value:>10,.1f} {unit:<6} {after[label]:>10,.1f} {unit:<6} {ratio:>6.2f}x")
    pages = {k: v for k, v in after.items() if not k.startswith(RATES) and not k.endswith(MATCHING_ALONE)}
    worst = max((v, k) for k, v in pages.items() if k.startswith("search"))
    slowest = max((after[k] / before[k], k) for k in pages)
    print(f"\nworst search at {rows:,}: {worst[0]:.1f} ms ({worst[1]}); largest time ratio of an endpoint: ", end="")
    print(f"{slowest[0]:.2f}x ({slowest[1]}); the rows '{MATCHING_ALONE}' time a part of a search page, not an endpoint.")
    print("(n/m): the explains a page listed at each size. Targets: every time within 1.5x of its time at")
    print("1,000; the worst search under 100 ms; purge_expired >= 20,000 rows/s; reanalyze --all >= 2,000 rows/s")
    print("(for rates, a ratio above 1 is faster).")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="the large size (default 1,000,000)")
    parser.add_argument(
        "--database-url", help="a PostgreSQL database the benchmark may fill (default: its own cluster)"
    )
    parser.add_argument("--repeat", type=int, default=20, help="requests per endpoint (default 20)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="reanalyze processes (default: cores; 0: no maintenance)"
    )
    parser.add_argument(
        "--maintenance-only", action="store_true", help="fill to --rows, then time purge and reanalysis alone"
    )
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        url = args.database_url or stack.enter_context(throwaway_database())
        configure_django(url)
        seeds = prepare()
        if args.maintenance_only:
            measure_maintenance(args.rows, seeds, args.jobs)
            return
        stack.callback(drop_copy)
        small, large = measure(args.rows, seeds, args.repeat, args.jobs)
        print_table(small, large, args.rows)


if __name__ == "__main__":
    main()
