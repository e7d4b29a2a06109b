"""A time budget for reading one paste, so that no paste holds a worker for long.

`analyze()` and `parse()` run the repairs, the readers and the annotations under `deadline(ms)`;
the loops that can run long (over lines, repair passes, pieces of a wrapped line, candidate
starts of a table, rows) call `check_deadline()`, which raises a `ParseError` with `too_complex`
set once the budget is spent. The budget counts the CPU time of
the thread, so a busy machine does not make a paste fail; as reading that clock costs a system
call, a check reads the cheap wall clock and only asks for the CPU time once the wall clock says
the budget could be spent (CPU time never runs ahead of wall time).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from analyzer.model import ParseError

# Three times what reading a paste of the size limit (1 MiB) should take on a small server: a
# busy machine, whose CPU time stretches as its cores are shared, does not refuse a big real paste.
DEFAULT_DEADLINE_MS = 3000


class _Budget:
    """The budget of the analysis running in this context: `ms`, when its CPU time runs out
    (`end`), and the wall-clock time before which it surely has not (`next_look`)."""

    __slots__ = ("end", "ms", "next_look")

    def __init__(self, ms: int) -> None:
        self.ms = ms
        self.end = time.thread_time() + ms / 1000
        self.next_look = time.perf_counter() + ms / 1000


_BUDGET: ContextVar[_Budget | None] = ContextVar("analyzer_budget", default=None)


@contextmanager
def deadline(ms: int | None) -> Iterator[None]:
    """Run the block under a budget of `ms` milliseconds of CPU time (None: no budget of its own).
    Inside another block, the budget that runs out first holds: a block can only shorten it."""
    outer = _BUDGET.get()
    budget = None if ms is None else _Budget(ms)
    if outer is not None and (budget is None or outer.end <= budget.end):
        budget = outer
    token = _BUDGET.set(budget)
    try:
        yield
    finally:
        _BUDGET.reset(token)


def check_deadline() -> None:
    """Raise `ParseError(too_complex=True)` when the analysis running in this context has spent its budget."""
    budget = _BUDGET.get()
    if budget is None or time.perf_counter() < budget.next_look:
        return
    left = budget.end - time.thread_time()
    if left <= 0:
        raise ParseError(f"This paste is too complex to read within {budget.ms} ms.", too_complex=True)
    budget.next_look = time.perf_counter() + left
