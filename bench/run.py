"""Parser + annotator benchmark: `make bench` (or `python bench/run.py`).

Prints the median time to analyze a 10-row explain, a 1 MiB mangled paste (hard-wrapped
at 80 columns, mail-quoted, CRLF), and the same mangled paste at 1x, 4x and 16x size to
show how the time grows. Targets: under 1 ms, under 250 ms, near-linear growth.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyzer import analyze  # noqa: E402
from analyzer.model import Plan  # noqa: E402
from analyzer.render.text import format_table  # noqa: E402

COLUMNS = ["id", "select_type", "table", "type", "possible_keys", "key", "key_len", "ref", "rows", "Extra"]
TYPES = ["ALL", "ref", "eq_ref", "range", "index", "const"]
EXTRAS = ["Using where", "Using index", "Using where; Using temporary; Using filesort", "", "Using index condition"]


def explain_table(n_rows: int) -> str:
    """A clean client table of `n_rows` rows, as the mariadb client prints it."""
    rows = []
    for i in range(n_rows):
        rows.append(
            {
                "id": str(1 + i // 7),
                "select_type": "SIMPLE" if i % 7 == 0 else "DEPENDENT SUBQUERY",
                "table": f"table_{i}",
                "type": TYPES[i % len(TYPES)],
                "possible_keys": None if i % 5 == 0 else f"idx_a_{i},idx_b_{i}",
                "key": None if i % 5 == 0 else f"idx_a_{i}",
                "key_len": None if i % 5 == 0 else "4",
                "ref": None if i % 3 else f"db.table_{i - 1}.id",
                "rows": str(10 + i * 37),
                "Extra": EXTRAS[i % len(EXTRAS)],
            }
        )
    plan = Plan(format="table", columns=COLUMNS, rows=rows)
    return format_table(plan) + "\n"


def mangle(text: str, width: int = 80) -> str:
    """Hard-wrap every line at `width` like a terminal, quote it like a mail client, use CRLF."""
    out = []
    for line in text.splitlines():
        chunks = [line[i : i + width] for i in range(0, len(line), width)] or [""]
        out.extend("> " + chunk for chunk in chunks)
    return "\r\n".join(out) + "\r\n"


def median_ms(text: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        analyze(text, max_bytes=64 * 1024 * 1024)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def mangled_paste(target_bytes: int) -> str:
    """The largest mangled paste of whole rows that stays within `target_bytes` (UTF-8)."""
    per_row = len(mangle(explain_table(100))) / 100
    n_rows = max(1, int(target_bytes / per_row))
    while True:
        text = mangle(explain_table(n_rows))
        size = len(text.encode())
        if size <= target_bytes or n_rows == 1:
            return text
        n_rows = max(1, int(n_rows * target_bytes / size * 0.995))


def main() -> None:
    small = explain_table(10)
    print(f"10-row explain ({len(small)} bytes): median {median_ms(small, 2000):.3f} ms over 2000 runs (target < 1 ms)")

    mib = mangled_paste(1024 * 1024)
    print(
        f"1 MiB mangled paste ({len(mib.encode())} bytes): median {median_ms(mib, 7):.1f} ms over 7 runs (target < 250 ms)"
    )

    previous = None
    for factor in (1, 4, 16):
        text = mangled_paste(64 * 1024 * factor)
        ms = median_ms(text, 7)
        growth = f", x{ms / previous:.1f} time for x{factor} size" if previous else ""
        if previous is None:
            previous = ms
        print(f"growth {factor:>2}x ({len(text.encode()):>8} bytes): median {ms:.1f} ms{growth}")


if __name__ == "__main__":
    main()
