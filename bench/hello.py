"""A bare Django "hello world" for bench/http_bench.py: one view, no middleware, no database."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import path

settings.configure(DEBUG=False, SECRET_KEY="hello-world-benchmark", ROOT_URLCONF=__name__, ALLOWED_HOSTS=["*"], MIDDLEWARE=[])


def hello(request: HttpRequest) -> HttpResponse:
    return HttpResponse("Hello, world!\n", content_type="text/plain")


urlpatterns = [path("", hello)]

from django.core.asgi import get_asgi_application  # noqa: E402

application = get_asgi_application()
