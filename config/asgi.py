"""The application `make serve` runs (gunicorn with uvicorn workers, see config/serving.py).

Django runs as a WSGI application in a pool of threads behind an asyncio server: the request
guard reads every request whole on the event loop first (config/request_guard.py), then one
thread runs the whole request, middleware and view, with no further hops between the loop and
threads (Django's own ASGI handler makes two per middleware). Threads live as long as the worker,
so their database connections do too.
"""

import os

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.core.wsgi import get_wsgi_application

from config.request_guard import RequestGuard

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = RequestGuard(
    WSGIMiddleware(get_wsgi_application(), workers=settings.WEB_THREADS),
    max_body_bytes=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
    answer_within=settings.REQUEST_TIMEOUT,
)
