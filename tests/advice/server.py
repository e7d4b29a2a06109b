"""The MariaDB server the advice tests run on: the one MARIADB_URL names, never a default.

MARIADB_URL is `mysql://USER[:PASSWORD]@HOST:PORT/` (`mariadb://` works too); `.ci/run` starts a
throwaway server and sets it. The tests create and drop databases named `advice_…` on it, nothing
else, but point it at a throwaway server all the same (README, "Index advice on a real MariaDB").
"""

from __future__ import annotations

import functools
import os
from typing import Any
from urllib.parse import unquote, urlsplit

URL_VARIABLE = "MARIADB_URL"


def settings(url: str) -> dict[str, Any]:
    """PyMySQL's connection arguments for a `mysql://` URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("mysql", "mariadb"):
        raise ValueError(f"{URL_VARIABLE} must be mysql://user@host:port/, not {url!r}")
    return {
        "host": parts.hostname or "127.0.0.1",
        "port": parts.port or 3306,
        "user": unquote(parts.username or "root"),
        "password": unquote(parts.password or ""),
    }


def connect(database: str | None = None, **more: Any) -> Any:
    """A new autocommit connection to the server of MARIADB_URL (raises KeyError without it)."""
    import pymysql

    return pymysql.connect(
        **settings(os.environ[URL_VARIABLE]),
        database=database,
        autocommit=True,
        charset="utf8mb4",
        connect_timeout=5,
        **more,
    )


@functools.cache
def unavailable() -> str | None:
    """Why the advice tests cannot run here, or None when the server answers."""
    url = os.environ.get(URL_VARIABLE, "")
    if not url:
        return f"needs a MariaDB server: set {URL_VARIABLE}=mysql://root@127.0.0.1:PORT/ (a throwaway mariadbd)"
    try:
        import pymysql  # noqa: F401
    except ImportError:
        return "needs PyMySQL (pip install -r requirements.txt)"
    try:
        with connect() as connection, connection.cursor() as cursor:
            cursor.execute("SELECT VERSION()")
            version = cursor.fetchone()[0]
    except Exception as error:  # any failure to connect is a reason to skip
        return f"the MariaDB server at {URL_VARIABLE} does not answer: {error}"
    if "mariadb" not in version.lower():
        return f"needs MariaDB (its sequence engine builds the data), {URL_VARIABLE} is {version}"
    return None
