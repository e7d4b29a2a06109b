"""Command-line benchmark: `python bench/cli_bench.py [--rounds N]` (part of `make bench`).

Times `python -m analyzer FILE` against Percona Toolkit's `pt-visual-explain FILE` (Perl; Debian
package `percona-toolkit`) on the same paste: 20 rows of a real `mariadb` client table (the first
20 rows of the 40-row UNION in tests/fixtures/qa/cases/union40.plain.table.clean.json, inside
its borders). Each round runs both, one after the other, so a busy machine slows both alike; each
figure is a whole process's CPU time (user + system, from `os.wait4`), not wall-clock time, which
on a shared machine also counts the wait for a free core. Prints each one's median and best, and
the ratio of the medians (target: at most 1.00x). Without pt-visual-explain, it says so and times
the analyzer alone.

Both start as they would for a user: the analyzer from its compiled modules (`__pycache__`) and
its cached glossary, written by an untimed first run of each command.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "tests" / "fixtures" / "qa" / "cases" / "union40.plain.table.clean.json"
ROWS = 20
PEER = "pt-visual-explain"
TARGET = 1.0


def paste(rows: int = ROWS) -> str:
    """The first `rows` rows of the 40-row client table, with its header and borders."""
    lines = json.loads(SOURCE.read_text(encoding="utf-8"))["input"].splitlines()
    border, header = lines[0], lines[1]
    body = [line for line in lines[3:] if line.startswith("|")][:rows]
    return "\n".join([border, header, border, *body, border]) + "\n"


def cpu_seconds(command: list[str], env: dict[str, str]) -> float:
    """The CPU time (user + system) the process running `command` used; raises if it fails."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    errors = process.stderr.read().decode(errors="replace") if process.stderr else ""
    if process.stderr:
        process.stderr.close()
    if process.returncode:
        raise SystemExit(f"{' '.join(command)} exited with {process.returncode}: {errors.strip()}")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--rounds", type=int, default=20, help="runs of each command (default 20)")
    rounds = options.parse_args().rounds

    # As a user runs it: compiled modules are written and read (the test runner's environment may forbid it).
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "DJANGO_SETTINGS_MODULE")}
    peer = shutil.which(PEER)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "explain.txt"
        path.write_text(paste(), encoding="utf-8")
        commands = {"python -m analyzer": [sys.executable, "-m", "analyzer", str(path)]}
        if peer:
            commands[PEER] = [peer, str(path)]
        for command in commands.values():
            cpu_seconds(command, env)  # untimed: writes the compiled modules and the glossary's cache
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                times[name].append(cpu_seconds(command, env))

    print(f"Command line on a {ROWS}-row client table, whole-process CPU time (user + system), {rounds} rounds:")
    medians = {}
    for name, seconds in times.items():
        medians[name] = statistics.median(seconds) * 1000
        print(f"  {name:<20} median {medians[name]:6.1f} ms   best {min(seconds) * 1000:6.1f} ms")
    if not peer:
        print(f"  {PEER} not installed (Debian package percona-toolkit): only the analyzer was timed")
        return
    ratio = medians["python -m analyzer"] / medians[PEER]
    verdict = "met" if ratio <= TARGET else "not met"
    print(f"  ratio {ratio:.2f}x of {PEER} (target: at most {TARGET:.2f}x, {verdict})")


if __name__ == "__main__":
    main()
