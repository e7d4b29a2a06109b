"""Real servers for the reliability tests: a throwaway PostgreSQL cluster the tests can restart,
crash and freeze, and the site as `make serve` runs it, on free loopback ports."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def postgres_bin() -> Path | None:
    """The newest installed PostgreSQL's binaries folder, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb")) or ([shutil.which("initdb")] if shutil.which("initdb") else [])
    return Path(found[-1]).parent if found else None


class Cluster:
    """A PostgreSQL cluster in a temporary folder, run by the `postgres` user when the tests run as
    root (the server refuses root), with fsync off: the tests crash it, they do not test disks."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.home = Path(tempfile.mkdtemp(prefix="reliability-pg-"))
        self.port = free_port()
        self.data = self.home / "data"
        if os.geteuid() == 0:
            shutil.chown(self.home, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "--no-sync")

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, tool: str, *args: str) -> None:
        command = [str(self.bin / tool), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def start(self, **settings: str) -> None:
        """Start the server; `settings` are more `-c name=value` server settings."""
        extra = "".join(f" -c {name}={value}" for name, value in settings.items())
        options = f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.home} -c fsync=off -c max_connections=100{extra}"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.home / "server.log"), "-w", "-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        """`fast` is a clean shutdown, `immediate` a crash (recovery runs at the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def processes(self) -> list[int]:
        """The postmaster and every backend of this cluster."""
        postmaster = int((self.data / "postmaster.pid").read_text().split()[0])
        children = subprocess.run(["pgrep", "-P", str(postmaster)], capture_output=True, text=True).stdout.split()
        return [postmaster, *map(int, children)]

    def freeze(self) -> list[int]:
        """Stop every process of the server (SIGSTOP): connections stay open and nothing answers."""
        frozen = self.processes()
        for pid in frozen:
            os.kill(pid, signal.SIGSTOP)
        return frozen

    @staticmethod
    def thaw(frozen: list[int]) -> None:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.home, ignore_errors=True)


class Site:
    """`make serve` on a free port against `database_url`, stopped with its whole process group."""

    def __init__(self, database_url: str, workers: int = 2, **environment: str) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        handle, name = tempfile.mkstemp(prefix="reliability-serve-", suffix=".log")
        self.log = Path(name)
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "LOCAL_TRIAL": "1",
            "PORT": str(self.port),
            "WEB_CONCURRENCY": str(workers),
            "API_CREATE_RATE": "100000/minute",
            **environment,
        }
        env.pop("DJANGO_SETTINGS_MODULE", None)
        self.process = subprocess.Popen(
            ["make", "--no-print-directory", "serve"],
            cwd=ROOT,
            env=env,
            stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        os.close(handle)
        self._wait_ready()

    def _wait_ready(self, seconds: float = 90) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"make serve exited with {self.process.returncode}: {self.output()[-2000:]}")
            try:
                with urllib.request.urlopen(self.url + "/", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"make serve did not answer within {seconds} s: {self.output()[-2000:]}")

    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.log.unlink(missing_ok=True)
