"""Pastes the benchmarks share, built in code so every run measures the same text."""

from __future__ import annotations

ROWS = 20
EXTRAS = [
    "Using where",
    "Using index",
    "Using where; Using index",
    "Using index condition",
    "Using where; Using join buffer (flat, BNL join)",
    "Using temporary; Using filesort",
    "",
]
TYPES = ["ALL", "ref", "eq_ref", "range", "index", "const", "ref"]


def explain_table(rows: int = ROWS) -> str:
    """A mysql-client box with `rows` rows: a PRIMARY join, a derived table, a union and subqueries."""
    columns = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
    body = []
    for n in range(rows):
        select_id, select_type = (1, "PRIMARY") if n < rows // 2 else (2 + (n - rows // 2) // 3, "DEPENDENT SUBQUERY")
        table = "<derived2>" if n == 1 else f"t{n}"
        key = None if TYPES[n % 7] == "ALL" else f"idx_t{n}_a"
        body.append(
            [
                str(select_id),
                select_type,
                table,
                TYPES[n % 7],
                f"idx_t{n}_a,idx_t{n}_b,idx_t{n}_created_at,PRIMARY" if n % 2 else f"idx_t{n}_a",
                key or "NULL",
                "NULL" if key is None else "8",
                "NULL" if key is None else f"shop.t{max(n - 1, 0)}.id",
                str(10 ** (n % 6) + n),
                EXTRAS[n % len(EXTRAS)],
            ]
        )
    widths = [max(len(c), *(len(r[i]) for r in body)) for i, c in enumerate(columns)]
    border = "+" + "+".join("-" * (w + 2) for w in widths) + "+"

    def line(cells: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    return "\n".join([border, line(columns), border, *(line(r) for r in body), border]) + "\n"
