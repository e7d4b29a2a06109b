"""Settings for Explain Analyzer, all read from the environment.

Safe development defaults: SQLite in the project folder, DEBUG off unless asked for,
and a development SECRET_KEY that `make serve` and the `config` system check refuse in
production. See `.env.example` for every variable.
"""

from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF

from analyzer.deadline import DEFAULT_DEADLINE_MS

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEV_SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEV_SECRET_KEY
DEBUG = env_bool("DEBUG")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "template_partials",
    "csp",
    "config",
    "analyzer.web",
    "pastebin",
    "notes",
]

MIDDLEWARE = [
    "config.connections.read_only_checks",
    "django.middleware.security.SecurityMiddleware",
    "config.unavailable.DatabaseUnavailableMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "config.compression.SafeGZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "config.middleware.LazyMessages",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.middleware.ContentSecurityPolicy",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# A sick database must cost a request seconds, not minutes: connections are checked before reuse,
# and PostgreSQL gets a connect timeout, a statement timeout and a TCP timeout for a vanished host.
DB_CONNECT_TIMEOUT = env_int("DB_CONNECT_TIMEOUT", 5)  # seconds
DB_STATEMENT_TIMEOUT_MS = env_int("DB_STATEMENT_TIMEOUT_MS", 10_000)
DB_SEARCH_TIMEOUT_MS = env_int("DB_SEARCH_TIMEOUT_MS", 3_000)  # one search statement
# PostgreSQL connections come from a pool of at most DB_POOL_SIZE per worker process, fewer than its
# threads (0: no pool, a persistent connection per thread).
DB_POOL_SIZE = env_int("DB_POOL_SIZE", 10)
DB_POOL_TIMEOUT = env_int("DB_POOL_TIMEOUT", 5)  # seconds to wait for a free pooled connection
# Under `make serve`, the threads of each worker process that run requests (a request waiting on
# the database holds one; more threads than pooled connections keep pages that need no database
# answering while the database hangs).
WEB_THREADS = env_int("WEB_THREADS", 32)
# Under `make serve`, a request with no answer after this many seconds is answered 503 (a frozen
# database cannot hold a client longer).
REQUEST_TIMEOUT = env_int("REQUEST_TIMEOUT", 30)


def database(url: str) -> dict:
    """Django's DATABASES entry for `url`, with the timeouts and the pool above on PostgreSQL."""
    entry = dj_database_url.parse(url, conn_max_age=env_int("CONN_MAX_AGE", 60), conn_health_checks=True)
    if entry["ENGINE"] != "django.db.backends.postgresql":
        return entry
    options = entry.setdefault("OPTIONS", {})
    options.setdefault("connect_timeout", DB_CONNECT_TIMEOUT)
    options.setdefault("tcp_user_timeout", (DB_STATEMENT_TIMEOUT_MS + DB_CONNECT_TIMEOUT * 1000))
    # No JIT compilation: the site's statements are short, and one whose plan the planner thought
    # costly (a search's estimate of "-word" at a million explains) paid 40 ms to load the compiler.
    server_settings = f"-c statement_timeout={DB_STATEMENT_TIMEOUT_MS} -c jit=off"
    options["options"] = f"{options.get('options', '')} {server_settings}".strip()
    # Lets config/prepared.py prepare the statements of hot reads (Django's client-side binding
    # cursors never prepare one, whatever this says).
    options.setdefault("prepare_threshold", 5)
    if DB_POOL_SIZE > 0:
        # Django's backend, whose pool checks each connection it hands out with a round trip for
        # requests that may write, by its socket for reads (config/connections.py).
        entry["ENGINE"] = "config.postgresql"
        entry["CONN_MAX_AGE"] = 0  # the pool keeps the connections instead
        options["pool"] = {
            "min_size": min(2, DB_POOL_SIZE),
            "max_size": DB_POOL_SIZE,
            "timeout": DB_POOL_TIMEOUT,
            # Retry a refused connection for a second, then start again at the next request: the
            # pool reconnects about a second after the database comes back, well within the time
            # a request waits for a connection.
            "reconnect_timeout": 1,
        }
    return entry


DATABASES = {"default": database(os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# Largest paste accepted anywhere (web form, API, CLI), in bytes.
EXPLAIN_MAX_BYTES = env_int("EXPLAIN_MAX_BYTES", 1024 * 1024)
# CPU time the analyzer may spend reading one paste, in milliseconds: a paste that needs more is
# refused as too complex (HTTP 422) instead of holding a worker.
EXPLAIN_DEADLINE_MS = env_int("EXPLAIN_DEADLINE_MS", DEFAULT_DEADLINE_MS)
# Django's own request body cap: browsers URL-encode the form, which can triple every byte of the
# paste and of the query (each up to EXPLAIN_MAX_BYTES), plus room for the other fields.
# Table definitions sent for index advice (`schema`: SHOW CREATE TABLE output) are capped separately.
SCHEMA_MAX_BYTES = env_int("SCHEMA_MAX_BYTES", 256 * 1024)
# The analyze API's recent answers kept per worker process, in bytes (analyzer/web/answers.py; 0: none).
ANALYZE_CACHE_BYTES = env_int("ANALYZE_CACHE_BYTES", 16 * 1024 * 1024)
# The rows of live explains each worker process remembers between reads, in bytes, on PostgreSQL
# (pastebin/live.py: they are forgotten when PostgreSQL announces a change; 0: every request reads).
LIVE_MEMO_BYTES = env_int("LIVE_MEMO_BYTES", 16 * 1024 * 1024)
DATA_UPLOAD_MAX_MEMORY_SIZE = 3 * 2 * EXPLAIN_MAX_BYTES + 3 * SCHEMA_MAX_BYTES + 256 * 1024

# Rates per client IP, in DRF's syntax (N/second|minute|hour|day): saving explains (API and home
# form share it), filing abuse reports and sending "This was read wrong" reports.
API_CREATE_RATE = os.environ.get("API_CREATE_RATE", "").strip() or "30/minute"
REPORT_RATE = os.environ.get("REPORT_RATE", "").strip() or "10/hour"
MISREAD_REPORT_RATE = os.environ.get("MISREAD_REPORT_RATE", "").strip() or "10/hour"
MANAGE_RATE = os.environ.get("MANAGE_RATE", "").strip() or "30/minute"


def caches(url: str) -> dict:
    """Django's CACHES for CACHE_URL: `locmem://` (the default: each worker process keeps its own,
    nothing to install) or `redis://[:password@]host:port/db` (`rediss://` for TLS), one cache that
    every worker on every app server shares. The rate limits' state must be shared by all workers:
    in Redis with a Redis cache, else in the database (a table the pastebin migrations create)."""
    scheme = url.split("://", 1)[0].lower()
    if scheme in ("redis", "rediss"):
        redis = {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": url,
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
        return {"default": {**redis, "KEY_PREFIX": "cache"}, "throttle": {**redis, "KEY_PREFIX": "throttle"}}
    if scheme != "locmem":
        raise ValueError(f"CACHE_URL: unknown cache {scheme!r}; use locmem:// or redis://host:port/db")
    return {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "OPTIONS": {"MAX_ENTRIES": 2000}},
        "throttle": {"BACKEND": "config.throttle_cache.ThrottleDatabaseCache", "LOCATION": "pastebin_throttle_cache"},
    }


CACHES = caches(os.environ.get("CACHE_URL", "").strip() or "locmem://")

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", not DEBUG and SECRET_KEY != DEV_SECRET_KEY)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
CSRF_COOKIE_HTTPONLY = True  # htmx gets the token from the page (hx-headers), never from the cookie
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if env_bool("BEHIND_TLS_PROXY"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# HTTPS only, for a site served over TLS (see the README's deployment section): plain HTTP is
# redirected, and browsers are told to use HTTPS for this many seconds.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT")
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS")
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD")

CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["analyzer.web.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Explain Analyzer API",
    "DESCRIPTION": "Analyze and share MySQL/MariaDB EXPLAIN output.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"skip_503": {"()": "config.log_filters.SkipServiceUnavailable"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "loggers": {"django.request": {"filters": ["skip_503"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
