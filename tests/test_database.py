"""Proves which database the suite ran on, so a CI run meant for PostgreSQL cannot pass on SQLite."""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.mark.postgres
@pytest.mark.django_db
def test_suite_runs_on_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('server_version_num')::int, 'ü€😀'")
        version, text = cursor.fetchone()
    assert version >= 130000
    assert text == "ü€😀"
