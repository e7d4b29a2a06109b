"""The time budget of `parse()` (`analyzer.deadline`) and what becomes of a reader's crash."""

from __future__ import annotations

import logging
import time

import pytest

from analyzer import DEFAULT_DEADLINE_MS, ParseError, analyze, parse
from analyzer.deadline import check_deadline, deadline
from analyzer.readers import dispatch

TABLE = """\
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
| id | select_type | table | type | possible_keys | key  | key_len | ref  | rows | Extra |
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
|  1 | SIMPLE      | t     | ALL  | NULL          | NULL | NULL    | NULL |   10 | NULL  |
+----+-------------+-------+------+---------------+------+---------+------+------+-------+
"""
JSON = '{"query_block": {"select_id": 1, "table": {"table_name": "t", "access_type": "ALL"}}}'


def _spin(seconds: float) -> None:
    """Use `seconds` of CPU time."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


def test_outside_a_deadline_a_check_does_nothing():
    _spin(0.01)
    check_deadline()


def test_a_spent_budget_raises_too_complex():
    with deadline(20), pytest.raises(ParseError) as info:
        _spin(0.05)
        check_deadline()
    assert info.value.too_complex and not info.value.too_large
    assert info.value.message == "This paste is too complex to read within 20 ms."


def test_the_budget_counts_cpu_time_not_waiting():
    with deadline(20):
        time.sleep(0.05)
        check_deadline()


def test_the_budget_ends_with_its_block():
    with deadline(20):
        _spin(0.01)
    _spin(0.03)
    check_deadline()


@pytest.mark.parametrize("inner", [None, 1000])
def test_a_block_inside_another_cannot_lengthen_its_budget(inner):
    with deadline(20), deadline(inner), pytest.raises(ParseError):
        _spin(0.05)
        check_deadline()


def test_a_block_inside_another_can_shorten_its_budget():
    with deadline(1000), deadline(20), pytest.raises(ParseError) as info:
        _spin(0.05)
        check_deadline()
    assert info.value.message == "This paste is too complex to read within 20 ms."


@pytest.mark.parametrize("paste", [TABLE, JSON])
def test_parse_refuses_a_paste_it_cannot_read_in_time(paste):
    with pytest.raises(ParseError) as info:
        parse(paste, deadline_ms=0)
    assert info.value.too_complex
    assert info.value.message == "This paste is too complex to read within 0 ms."
    assert parse(paste, deadline_ms=None).format in ("table", "json")


def test_analyze_passes_its_deadline_on():
    with pytest.raises(ParseError) as info:
        analyze(TABLE, deadline_ms=0)
    assert info.value.too_complex
    assert analyze(TABLE).plan.format == "table"
    assert DEFAULT_DEADLINE_MS >= 1000


@pytest.mark.internal_error
@pytest.mark.parametrize("crash", [RuntimeError("a bug"), RecursionError("maximum recursion depth exceeded")])
def test_a_reader_crash_is_refused_and_logged(monkeypatch, caplog, crash):
    def crashing(lines, *args):
        raise crash

    monkeypatch.setattr(dispatch, "result_sets", crashing)
    with caplog.at_level(logging.ERROR, logger="analyzer"), pytest.raises(ParseError) as info:
        parse(TABLE)
    assert info.value.message.startswith(f"This paste could not be read ({type(crash).__name__})")
    assert not info.value.too_complex
    [record] = caplog.records
    assert record.name == "analyzer" and record.exc_info and record.exc_info[1] is crash


@pytest.mark.internal_error  # the inner tests log under the same logger, in this process
def test_a_logged_internal_error_fails_the_test(pytester):
    pytester.makeconftest('pytest_plugins = ["tests.internal_errors"]')
    pytester.makepyfile(
        """
        import logging
        import pytest

        def test_unexpected():
            logging.getLogger("analyzer").error("Internal error reading a paste")

        @pytest.mark.internal_error
        def test_expected():
            logging.getLogger("analyzer").error("Internal error reading a paste")

        def test_quiet():
            logging.getLogger("analyzer").warning("only a warning")
        """
    )
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:django", "-W", "ignore")
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*test_unexpected*", "*The analyzer logged an internal error*"])
