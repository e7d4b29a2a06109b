from django.urls import path, re_path

from analyzer.web import api, views

app_name = "analyzer"

urlpatterns = [
    re_path(r"^api/v1/analyze/?$", api.AnalyzeView.as_view(), name="api-analyze"),
    path("preview/", views.preview, name="preview"),
    path("preview/profile.svg", views.profile_svg, name="profile-svg"),
    path("terms/", views.terms, name="terms"),
]
