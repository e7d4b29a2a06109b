"""Shared test set-up.

Tests marked `postgres`, `redis`, `mariadb` or `browser` skip with a printed reason when
PostgreSQL, Redis, a MariaDB server or Chromium is missing, unless REQUIRE_POSTGRES=1 /
REQUIRE_REDIS=1 / REQUIRE_MARIADB=1 / REQUIRE_BROWSER=1 (set by .ci/run): then they fail, so CI
never skips them silently. A test during which the analyzer logs an
internal error fails, unless it is marked `internal_error` (tests/internal_errors.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.advice.server import unavailable

pytest_plugins = ["pytester", "tests.internal_errors"]

FIXTURES = Path(__file__).parent / "fixtures"
CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))


def _on_postgres() -> bool:
    from django.conf import settings

    return "postgresql" in settings.DATABASES["default"]["ENGINE"]


def _servers_available() -> bool:
    from tests.reliability.servers import postgres_bin

    return postgres_bin() is not None and shutil.which("make") is not None


REQUIREMENTS = {
    "postgres": (_on_postgres, "needs PostgreSQL: set DATABASE_URL=postgres://… to run it", "REQUIRE_POSTGRES"),
    "reliability": (
        _servers_available,
        "needs PostgreSQL's server binaries (initdb, pg_ctl: apt-get install postgresql) and make",
        "REQUIRE_POSTGRES",
    ),
    "redis": (
        lambda: bool(os.environ.get("REDIS_URL")),
        "needs Redis: set REDIS_URL=redis://127.0.0.1:PORT/0 (a throwaway redis-server) to run it",
        "REQUIRE_REDIS",
    ),
    # The reason names what is wrong: MARIADB_URL unset, the server not answering, PyMySQL missing.
    "mariadb": (lambda: unavailable() is None, unavailable, "REQUIRE_MARIADB"),
    "browser": (CHROMIUM.exists, f"needs Chromium at {CHROMIUM} (apt-get install chromium)", "REQUIRE_BROWSER"),
}


def pytest_runtest_setup(item):
    for marker, (available, reason, env) in REQUIREMENTS.items():
        if marker in item.keywords and not available():
            why = reason() if callable(reason) else reason
            if os.environ.get(env, "") not in ("", "0"):
                pytest.fail(f"{why}; {env}=1 makes this test mandatory")
            pytest.skip(why)


@pytest.fixture(autouse=True)
def _plain_static_storage(settings):
    """Tests run without collectstatic, so use the plain storage instead of the manifest one."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _no_live_memo(settings):
    """Nothing is remembered of saved explains between requests (pastebin/live.py): a test's
    changes are rolled back, never committed, so PostgreSQL never announces them. The tests of
    the memory itself turn it on, in transactions that commit."""
    from pastebin.live import memo

    settings.LIVE_MEMO_BYTES = 0
    memo.forget(None)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Every test starts with an empty default cache (cached permalink sections, among others) and
    no kept answers of the analyze API."""
    from django.core.cache import cache

    from analyzer.web.answers import answers

    cache.clear()
    answers.clear()
