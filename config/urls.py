from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("", include("analyzer.web.urls")),
    path("", include("pastebin.urls")),
    path("", include("notes.urls")),
]
