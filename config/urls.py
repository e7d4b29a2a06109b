from django.contrib import admin
from django.urls import include, path

from config.favicon import favicon

urlpatterns = [
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon, name="favicon"),
    path("", include("analyzer.web.urls")),
    path("", include("pastebin.urls")),
    path("", include("notes.urls")),
]
