"""`manage.py reanalyze`: analyze stored explains again with the current parser and annotator."""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Iterator
from multiprocessing.pool import AsyncResult

from django.core.management.base import BaseCommand
from django.db import connections

import analyzer
from analyzer.wording import plural
from pastebin.maintenance import Outcome, Readings, reanalyze, slug_batches
from pastebin.models import Explain

BATCH = 500
JOBS = os.cpu_count() or 1


class Command(BaseCommand):
    help = (
        "Re-run the analysis of stored explains made by another parser version (or all, with --all), "
        "storing only what changed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--all", action="store_true", help="Also those already analyzed by this version.")
        parser.add_argument(
            "--jobs", type=int, default=JOBS, help=f"Processes analyzing in parallel (default {JOBS}, the cores)."
        )
        parser.add_argument("--batch-size", type=int, default=BATCH, help=f"Explains per batch (default {BATCH}).")
        parser.add_argument("slugs", nargs="*", help="Only these explains.")

    def handle(
        self, *args, all: bool = False, jobs: int = JOBS, batch_size: int = BATCH, slugs=None, **options
    ) -> None:
        explains = Explain.objects.all()
        if slugs:
            explains = explains.filter(slug__in=slugs)
        if not all:
            explains = explains.exclude(parser_version=analyzer.PARSER_VERSION)
        total = Outcome()
        for outcome in self.outcomes(slug_batches(explains, batch_size), jobs):
            for failure in outcome.failures:
                self.stderr.write(failure)
            total.add(outcome)
        self.stdout.write(
            f"Re-analyzed {plural(total.analyzed, 'explain')} with parser version {analyzer.PARSER_VERSION}: "
            f"{total.changed} changed, {len(total.failures)} failed; analysis: {total.analysis_seconds:.1f} s of CPU."
        )

    @staticmethod
    def outcomes(batches: Iterator[list[str]], jobs: int) -> Iterator[Outcome]:
        """Each batch's outcome, from this process or from `jobs` forked ones, which open database
        connections of their own (this process's are closed first) and keep readings of their own.
        This process reads the batches and keeps each process two ahead."""
        if jobs <= 1:
            readings = Readings()
            yield from (reanalyze(batch, readings) for batch in batches)
            return
        for connection in connections.all(initialized_only=True):
            connection.close()
            if hasattr(connection, "close_pool"):  # PostgreSQL: a pool's sockets must not be shared either
                connection.close_pool()
        pending: deque[AsyncResult] = deque()
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_own_connection) as pool:
            for batch in batches:
                pending.append(pool.apply_async(_reanalyze, (batch,)))
                if len(pending) >= 2 * jobs:
                    yield pending.popleft().get()
            while pending:
                yield pending.popleft().get()


_readings = Readings()


def _reanalyze(batch: list[str]) -> Outcome:
    """In a forked process: `reanalyze`, with the readings this process keeps."""
    return reanalyze(batch, _readings)


def _own_connection() -> None:
    """In a forked process: a plain connection of its own, opened at first use, instead of a
    connection pool (its threads and sockets belong to the parent; a pool is no use to a worker
    that reads and writes one batch at a time)."""
    for connection in connections.all():
        connection.settings_dict["OPTIONS"].pop("pool", None)
        connection.connection = None
    type(connections["default"]).__dict__.get("_connection_pools", {}).clear()
