"""A pytest plugin (loaded by tests/conftest.py): a test fails when the analyzer logs an error
during it (`parse()` logs a reader's crash with its traceback, then refuses the paste as
unreadable), unless the test is marked `internal_error`, which says it expects one."""

from __future__ import annotations

import logging

import pytest


class _Recorder(logging.Handler):
    """Keeps the error records logged while a test runs."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    recorder = _Recorder()
    logger = logging.getLogger("analyzer")
    logger.addHandler(recorder)
    try:
        result = yield
    finally:
        logger.removeHandler(recorder)
    if recorder.records and item.get_closest_marker("internal_error") is None:
        formatter = logging.Formatter()
        logged = "\n".join(formatter.format(record) for record in recorder.records)
        pytest.fail(f"The analyzer logged an internal error:\n{logged}", pytrace=False)
    return result
