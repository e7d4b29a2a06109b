"""Fewer passes of Python's cycle collector while pastes are read.

Reading a big paste makes hundreds of thousands of small containers (lines, cells, rows, plan
nodes, findings) that live until the analysis is done, and no reference cycles. With the default
threshold the collector looks at the young objects every 700 new containers, and every so often
at every object alive: for a plan of 1 MiB that was about a third of the CPU time of its analysis.
While readings run, the threshold of the young generation is raised to `YOUNG_THRESHOLD`; when the
last one running ends, the thresholds it found are put back. The setting is the process's, so the
other threads' collections are rarer meanwhile too; none is turned off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

YOUNG_THRESHOLD = 100_000


class _Readings:
    """How many readings run, and the thresholds found when the first of them started."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.saved: tuple[int, int, int] | None = None


_READINGS = _Readings()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the block with the young generation's threshold raised (see the module docstring)."""
    readings = _READINGS
    with readings.lock:
        if readings.running == 0:
            found = gc.get_threshold()
            # A threshold of 0 turns collection off: whoever set it keeps it.
            if 0 < found[0] < YOUNG_THRESHOLD:
                readings.saved = found
                gc.set_threshold(YOUNG_THRESHOLD, found[1], found[2])
        readings.running += 1
    try:
        yield
    finally:
        with readings.lock:
            readings.running -= 1
            if readings.running == 0 and readings.saved is not None:
                gc.set_threshold(*readings.saved)
                readings.saved = None
