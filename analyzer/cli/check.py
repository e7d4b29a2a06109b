"""`python -m analyzer check [--fail-on warning|bad] [--json] FILE…`: findings as an exit status.

Exit status: 0 when no finding of any file reaches the threshold (default `bad`), 1 when one does,
2 when a file cannot be read (missing, or holding no EXPLAIN the analyzer can read), whatever the
others hold. With `--json`, one JSON object per file and line.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from analyzer.cli import read_text

RANK = {"bad": 0, "warning": 1, "info": 2, "good": 3}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m analyzer check",
        description="Check EXPLAIN pastes for plan problems; the exit status says whether any reaches --fail-on.",
        epilog="Exit status: 0 none reaches the threshold, 1 one does, 2 a file cannot be read.",
    )
    parser.add_argument("files", nargs="+", help="files holding a pasted EXPLAIN (- for standard input)")
    parser.add_argument("--fail-on", choices=("warning", "bad"), default="bad", help="lowest severity that fails")
    parser.add_argument("--json", action="store_true", help="one JSON object per file and line")
    parser.add_argument("--query", help="the SQL statement the explains are for")
    parser.add_argument("--schema", metavar="FILE", help="SHOW CREATE TABLE output, for index advice")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    schema = read_text(args.schema) if args.schema else None
    threshold = RANK[args.fail_on]
    unreadable = failed = False
    for path in args.files:
        result = check_file(path, args.query, schema, threshold)
        unreadable = unreadable or result["status"] == "error"
        failed = failed or result["status"] == "fail"
        print(json.dumps(result, ensure_ascii=False) if args.json else _summary(result))
    return 2 if unreadable else 1 if failed else 0


def check_file(path: str, query: str | None, schema: str | None, threshold: int) -> dict[str, Any]:
    """One file's verdict: `ok`, `fail` (a finding reaches the threshold) or `error` (not readable)."""
    from analyzer.model import ParseError
    from analyzer.pipeline import analyze

    label = "<stdin>" if path == "-" else path
    try:
        analysis = analyze(read_text(path), query=query, schema=schema)
    except OSError as exc:
        return {"file": label, "status": "error", "error": exc.strerror or str(exc)}
    except ParseError as exc:
        return {"file": label, "status": "error", "error": exc.message}
    findings = [f.__dict__.copy() for f in analysis.findings]
    failing = [f for f in findings if RANK.get(f["severity"], 9) <= threshold]
    return {
        "file": label,
        "status": "fail" if failing else "ok",
        "counts": {s: sum(1 for f in findings if f["severity"] == s) for s in RANK},
        "failing": failing,
        "findings": findings,
        "advice": [item.to_dict() for item in analysis.advice],
    }


def _summary(result: dict[str, Any]) -> str:
    if result["status"] == "error":
        return f"{result['file']}: cannot be read: {result['error']}"
    counts = ", ".join(f"{n} {s}" for s, n in result["counts"].items() if n and s in ("bad", "warning"))
    lines = [f"{result['file']}: {result['status']}" + (f" ({counts})" if counts else "")]
    lines += [f"  [{f['severity']}] {f['message']}" for f in result["failing"]]
    lines += [f"  advice: {a['statement']};" for a in result["advice"]]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
