"""Schema-driven fuzzing with schemathesis: every operation of /api/v1/schema/, called in process
over WSGI with generated parameters and bodies, never answers with a 5xx.

(schemathesis' own pytest plugin does not run under this pytest, so the test drives its
hypothesis strategies itself.)"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import not_a_server_error

EXAMPLES_PER_OPERATION = 40


@pytest.fixture
def keep_test_connection():
    """Django's test client keeps the test transaction's connection across requests; a bare WSGI
    handler would close it after a request that hit a database error (as NUL bytes do on
    PostgreSQL), breaking every later request of the test."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.mark.django_db
@pytest.mark.usefixtures("keep_test_connection")
def test_no_operation_answers_with_a_server_error(settings):
    settings.API_CREATE_RATE = "100000/minute"
    schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application())
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 5
    for operation in operations:

        @given(case=operation.as_strategy())
        @hypothesis_settings(
            max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck)
        )
        def call(case):
            case.call_and_validate(checks=[not_a_server_error])

        call()
