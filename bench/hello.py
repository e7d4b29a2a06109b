"""A bare Django "hello world" for bench/http_bench.py: one view, no middleware, no database,
served the way `make serve` serves the site (config/asgi.py: the request guard, then Django's
WSGI handler in a pool of threads)."""

from a2wsgi import WSGIMiddleware
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import path

settings.configure(DEBUG=False, SECRET_KEY="hello-world-benchmark", ROOT_URLCONF=__name__, ALLOWED_HOSTS=["*"], MIDDLEWARE=[])


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("Hello, world!\n", content_type="text/plain")


urlpatterns = [path("", hello)]

from django.core.wsgi import get_wsgi_application  # noqa: E402

from config.request_guard import RequestGuard  # noqa: E402

application = RequestGuard(WSGIMiddleware(get_wsgi_application(), workers=32), max_body_bytes=1 << 20, answer_within=30)
