"""ASGI entry point, used by `make serve` (gunicorn running uvicorn workers, see config/serving.py)."""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

from config.request_guard import RequestGuard

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = RequestGuard(
    get_asgi_application(),
    max_body_bytes=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
    answer_within=settings.REQUEST_TIMEOUT,
)
