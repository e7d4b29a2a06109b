"""The advice tests' scenarios (listed in scenarios.toml): tables filled with generated data, and
one query on them each.

Data comes from MariaDB's sequence engine (`seq_1_to_N`) in one INSERT … SELECT per table. Values
are spread by CRC32 of the row number times a prime of their own, so that no two columns move
together (a composite index then really narrows more than either of its columns): about 10
orders per customer, 1% of orders `refunded`, 8 channels and 16 regions evenly, order dates over
2020–2023, 1% of customers in Iceland, half in the US, events shared by five users.

A scenario is one of three kinds:

- `improve`: nothing serves the query well; advice must be given, and applied it must make the
  rows examined (tests/advice/measure.py) drop at least tenfold. `reference` holds indexes that
  do, so the scenario itself is proved winnable whatever the engine says.
- `served`: the indexes the query needs exist (or the table is tiny); advice must be `[]`.
- `hopeless`: no index can help (a function over the column, a leading wildcard, an OR with an
  unselective side); advice must be `[]`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

IMPROVE, SERVED, HOPELESS = "improve", "served", "hopeless"


@dataclass(frozen=True)
class Scenario:
    name: str
    kind: str
    tables: tuple[str, ...]  # SQL creating and filling the tables, in order
    query: str
    reference: tuple[str, ...] = ()  # for `improve`: ALTER TABLE statements that win tenfold
    schema_as: str = "create"
    about: str = ""
    known_gap: str = ""  # what the engine still gets wrong: the advice test is a strict xfail

    @property
    def database(self) -> str:
        return f"advice_{self.name}"


# A prime per stream of values. CRC32 is linear: CRC32 of 'h' + n and of 'r' + n differ by a
# constant, their low bits move together; of n times two primes, they do not. (MD5 would be as
# good and ten times slower to fill a table with.)
_STREAMS = {"a": 7919, "c": 104729, "d": 1299709, "f": 15485863, "h": 32452843, "j": 49979687, "k": 67867967,
            "l": 86028121, "o": 104395301, "p": 122949823, "r": 141650939, "s": 160481183, "t": 179424673,
            "u": 198491317}


def _spread(stream: str, modulo: int) -> str:
    """SQL for a value in 0..modulo-1 spread by row number, independent of the other streams'."""
    return f"CRC32(seq * {_STREAMS[stream]}) % {modulo}"


def _table(name: str, columns: str, values: str, rows: int, keys: tuple[str, ...]) -> tuple[str, ...]:
    """Create a table (its `id` the primary key, then `columns` and `keys`) and fill it with `rows`
    rows of `values` (SQL over `seq`, the row number from 1)."""
    definition = ",\n  ".join(["id INT NOT NULL PRIMARY KEY", *columns.strip().splitlines(), *keys])
    return (
        f"CREATE TABLE {name} (\n  {definition}\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4",
        f"INSERT INTO {name} SELECT seq, {values.strip()}\nFROM seq_1_to_{rows}",
    )


def orders(*keys: str, rows: int = 30_000, customers: int = 3_000) -> tuple[str, ...]:
    status = _spread("s", 100)
    return _table("orders", """
customer_id INT NOT NULL
status VARCHAR(16) NOT NULL
channel VARCHAR(8) NOT NULL
region CHAR(3) NOT NULL
created DATE NOT NULL
amount DECIMAL(10,2) NOT NULL
note VARCHAR(100)""", f"""
  1 + {_spread("c", customers)},
  CASE WHEN {status} = 0 THEN 'refunded' WHEN {status} < 10 THEN 'cancelled' WHEN {status} < 30 THEN 'open'
       ELSE 'closed' END,
  ELT(1 + {_spread("h", 8)}, 'web', 'app', 'phone', 'shop', 'partner', 'mail', 'kiosk', 'api'),
  CONCAT('r', LPAD(1 + {_spread("r", 16)}, 2, '0')),
  DATE'2020-01-01' + INTERVAL {_spread("d", 1461)} DAY,
  {_spread("a", 100_000)} / 100,
  CONCAT('order ', seq)""", rows, keys)


def customers(*keys: str, rows: int = 3_000) -> tuple[str, ...]:
    return _table("customers", """
name VARCHAR(100) NOT NULL
email VARCHAR(190) NOT NULL
country CHAR(2) NOT NULL
since DATE NOT NULL""", f"""
  CONCAT('Customer ', seq),
  CONCAT('user', seq, '@', ELT(1 + seq % 3, 'example.com', 'example.org', 'mail.test')),
  CASE WHEN {_spread("k", 100)} = 0 THEN 'IS' WHEN {_spread("k", 100)} < 51 THEN 'US'
       ELSE ELT(1 + {_spread("j", 7)}, 'DE', 'FR', 'GB', 'JP', 'BR', 'IN', 'CA') END,
  DATE'2015-01-01' + INTERVAL {_spread("d", 3000)} DAY""", rows, keys)


def order_items(*keys: str, rows: int = 40_000, orders: int = 30_000, products: int = 2_000) -> tuple[str, ...]:
    return _table("order_items", """
order_id INT NOT NULL
product_id INT NOT NULL
qty SMALLINT NOT NULL
price DECIMAL(10,2) NOT NULL""", f"""
  1 + {_spread("o", orders)}, 1 + {_spread("p", products)}, 1 + seq % 5, {_spread("a", 10_000)} / 100""", rows, keys)


def products(*keys: str, rows: int = 2_000) -> tuple[str, ...]:
    return _table("products", """
sku VARCHAR(20) NOT NULL
category_id INT NOT NULL
name VARCHAR(100) NOT NULL""", "CONCAT('SKU-', LPAD(seq, 6, '0')), 1 + seq % 40, CONCAT('Product ', seq)", rows, keys)


def events(*keys: str, rows: int = 30_000) -> tuple[str, ...]:
    """Five users share the events evenly: a user's filter alone narrows only fivefold."""
    return _table("events", """
user_id INT NOT NULL
kind VARCHAR(20) NOT NULL
created DATETIME NOT NULL
title VARCHAR(100) NOT NULL""", f"""
  1 + {_spread("u", 5)},
  ELT(1 + {_spread("k", 4)}, 'login', 'view', 'click', 'logout'),
  TIMESTAMP'2024-01-01 00:00:00' + INTERVAL {_spread("t", 31_536_000)} SECOND,
  CONCAT('event ', seq)""", rows, keys)


def docs(*keys: str, rows: int = 20_000) -> tuple[str, ...]:
    return _table("docs", """
title TEXT NOT NULL
body TEXT NOT NULL""", "CONCAT('Report ', seq), REPEAT(CONCAT('paragraph ', seq, ' '), 5)", rows, keys)


def people(*keys: str, rows: int = 30_000) -> tuple[str, ...]:
    """Two wide utf8mb4 columns of 8 values each: 1,600 bytes a column, 3,200 together (over 3,072)."""
    return _table("people", """
first_name VARCHAR(400) NOT NULL
last_name VARCHAR(400) NOT NULL
city VARCHAR(100) NOT NULL""", f"""
  CONCAT('First', {_spread("f", 8)}), CONCAT('Last', {_spread("l", 8)}), CONCAT('City ', {_spread("c", 50)})""",
        rows, keys)


def pages(*keys: str, rows: int = 20_000) -> tuple[str, ...]:
    """A utf8mb4 VARCHAR(1000): 4,000 bytes, over the 3,072 an index key may hold."""
    return _table("pages", """
url VARCHAR(1000) NOT NULL
hits INT NOT NULL""", "CONCAT('https://example.com/articles/', seq, '/some-long-slug'), seq % 1000", rows, keys)


def countries(*keys: str) -> tuple[str, ...]:
    return _table("countries", """
code CHAR(2) NOT NULL
name VARCHAR(60) NOT NULL""", "CHAR(64 + seq, 64 + seq), CONCAT('Country ', seq)", 20, keys)


BUILDERS = {
    builder.__name__: builder for builder in (orders, customers, order_items, products, events, docs, people, pages, countries)
}


def _tables(specs: list[str]) -> tuple[str, ...]:
    """The SQL of tables given as "builder" or "builder: KEY a (x); KEY b (y)" (scenarios.toml)."""
    statements: list[str] = []
    for spec in specs:
        builder, _, keys = spec.partition(":")
        statements += BUILDERS[builder.strip()](*(key.strip() for key in keys.split(";") if key.strip()))
    return tuple(statements)


LIST = Path(__file__).with_name("scenarios.toml")


def load(path: Path = LIST) -> tuple[Scenario, ...]:
    scenarios = tuple(
        Scenario(
            entry["name"], entry["kind"], _tables(entry["tables"]), entry["query"],
            tuple(entry.get("reference", ())), entry.get("schema_as", "create"), entry.get("about", ""),
            entry.get("known_gap", ""),
        )
        for entry in tomllib.loads(path.read_text())["scenario"]
    )
    for scenario in scenarios:
        assert scenario.kind in (IMPROVE, SERVED, HOPELESS), scenario
        assert (scenario.kind == IMPROVE) == bool(scenario.reference), f"{scenario.name}: reference is for improve only"
    return scenarios


SCENARIOS = load()
