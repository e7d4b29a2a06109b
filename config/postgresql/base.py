"""Django's PostgreSQL backend, whose connection pool checks connections as config/connections.py says."""

from __future__ import annotations

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

from config.connections import check_connection


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> ConnectionPool | None:
        pool = super().pool
        if pool is not None and self.settings_dict["CONN_HEALTH_CHECKS"]:
            # Django gives the pool psycopg's round-trip check; psycopg_pool keeps it in `_check`.
            pool._check = check_connection
        return pool
