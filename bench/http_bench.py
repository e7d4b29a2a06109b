"""HTTP benchmark: `make bench-http` (or `python bench/http_bench.py [--seconds S] [--rounds R]`).

Starts the site with `make serve` (on a throwaway PostgreSQL cluster of its own when PostgreSQL's
binaries are installed, else on a temporary SQLite file; or on `--database-url`), and a bare
Django "hello world" (bench/hello.py) served the same way (the same gunicorn command, worker class
and worker count). Then `wrk` (Debian package) measures, interleaved round by round so both see
the same machine:

  - the hello world,
  - the permalink page of a saved 20-row explain (bench/pastes.py),
  - its raw view,
  - the analyze API (POST /api/v1/analyze, a 10-row explain), the same paste on every request
    (after the first, answered from the API's recent answers) and a new one each time (the same
    explain followed by a client status line whose time changes),
  - the save API (POST /api/v1/explains/, a 10-row explain),

and prints each as requests per second (median of the rounds) and as a ratio to the hello world,
next to the target ratio.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.pastes import explain_table  # noqa: E402
from tests.reliability.servers import Cluster, Site, free_port, postgres_bin  # noqa: E402

TARGETS = {"permalink": 0.35, "raw view": 0.5, "analyze API": 0.25, "save API": 0.08}
# Each request of a connection the same explain with another client status line after it
# ("10 rows in set (0.01 sec)", then 0.02 s, …: 100,000 of them, read at the same cost).
DISTINCT_SCRIPT = """
{post}
local count = 0
request = function()
  count = count % 100000 + 1
  local status = string.format("10 rows in set (%d.%02d sec)\\n", math.floor(count / 100), count % 100)
  return wrk.format(nil, nil, nil, wrk.body .. status)
end
"""
POST_SCRIPT = """wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
wrk.body = io.open("{body}"):read("*a")
"""


class Hello:
    """bench/hello.py under the same gunicorn command as `make serve` (its access log included)."""

    def __init__(self, workers: int) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [
            str(ROOT / ".venv/bin/gunicorn"), "bench.hello:application", "--worker-class", "config.serving.Worker",
            "--bind", f"127.0.0.1:{self.port}", "--workers", str(workers), "--keep-alive", "5",
            "--access-logfile", "-",
        ]  # fmt: skip
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        start_new_session=True)  # fmt: skip
        for _ in range(200):
            try:
                with urllib.request.urlopen(self.url + "/", timeout=1):
                    return
            except OSError:
                subprocess.run(["sleep", "0.1"], check=True)
        raise RuntimeError("the hello world did not start")

    def stop(self) -> None:
        os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=20)


def wrk(url: str, seconds: float, connections: int, script: Path | None = None) -> tuple[float, int]:
    """Requests per second and the count of answers that were not 2xx or 3xx."""
    command = ["wrk", "-t", "2", "-c", str(connections), "-d", f"{seconds:g}s", "--latency", url]
    if script is not None:
        command[1:1] = ["-s", str(script)]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    failed = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    return rate, int(failed.group(1)) if failed else 0


def post(url: str, body: bytes) -> dict:
    request = urllib.request.Request(url, body, {"Content-Type": "text/plain"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


def prepare(site_url: str, folder: Path) -> dict[str, tuple[str, Path | None]]:
    """Save the 20-row explain and write the POST scripts; the URL (and script) of every target."""
    permalink = post(f"{site_url}/api/v1/explains/", explain_table(20).encode())
    ten_rows = folder / "ten_rows.txt"
    ten_rows.write_text(explain_table(10))
    script = folder / "post.lua"
    script.write_text(POST_SCRIPT.format(body=ten_rows))
    distinct = folder / "post_distinct.lua"
    distinct.write_text(DISTINCT_SCRIPT.format(post=POST_SCRIPT.format(body=ten_rows)))
    return {
        "permalink": (permalink["url"], None),
        "raw view": (permalink["raw_url"], None),
        "analyze API": (f"{site_url}/api/v1/analyze", script),
        "analyze, new pastes": (f"{site_url}/api/v1/analyze", distinct),
        "save API": (f"{site_url}/api/v1/explains/", script),
    }


def measure(hello_url: str, targets: dict[str, tuple[str, Path | None]], args: argparse.Namespace) -> dict[str, list[float]]:
    rates: dict[str, list[float]] = {name: [] for name in ["hello world", *targets]}
    for round_number in range(args.rounds):
        for name, (url, script) in [("hello world", (hello_url + "/", None)), *targets.items()]:
            rate, failed = wrk(url, args.seconds, args.connections, script)
            if failed:
                print(f"  warning: {name}: {failed} answers were not 2xx/3xx", file=sys.stderr)
            rates[name].append(rate)
        print(f"round {round_number + 1}/{args.rounds} done", file=sys.stderr)
    return rates


def report(rates: dict[str, list[float]]) -> None:
    hello = statistics.median(rates["hello world"])
    print(f"{'endpoint':<20} {'req/s':>9} {'ratio':>7} {'target':>7}")
    for name, values in rates.items():
        rate = statistics.median(values)
        target = TARGETS.get(name)
        verdict = "" if target is None else ("ok" if rate / hello >= target else "UNDER")
        shown = f">={target:.2f}" if target else ""
        print(f"{name:<20} {rate:>9.0f} {rate / hello:>6.2f}x {shown:>7} {verdict}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5, help="length of each wrk run (default 5)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections (default 8)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of both servers (default 2)")
    parser.add_argument("--database-url", help="use this database instead of a throwaway one")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("bench/http_bench.py needs wrk: apt-get install wrk", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="bench-http-") as folder:
        cluster = None
        database_url = args.database_url
        if database_url is None and postgres_bin() is not None:
            cluster = Cluster(postgres_bin())  # type: ignore[arg-type]
            cluster.start()
            database_url = cluster.url
        database_url = database_url or f"sqlite:///{folder}/bench.sqlite3"
        site = Site(database_url, workers=args.workers)
        hello = Hello(args.workers)
        try:
            print(f"database: {database_url.split('@')[-1]}; {args.workers} workers each", file=sys.stderr)
            rates = measure(hello.url, prepare(site.url, Path(folder)), args)
        finally:
            hello.stop()
            site.stop()
            if cluster is not None:
                cluster.remove()
    report(rates)
    return 0


if __name__ == "__main__":
    sys.exit(main())
