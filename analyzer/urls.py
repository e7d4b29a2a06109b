from django.urls import re_path

from analyzer import api

app_name = "analyzer"

urlpatterns = [
    re_path(r"^api/v1/analyze/?$", api.AnalyzeView.as_view(), name="api-analyze"),
]
