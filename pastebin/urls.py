from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from pastebin import api, views

app_name = "pastebin"

# Any slug-like text reaches the views, which answer 404 (never existed) or 410 (gone).
SLUG = r"(?P<slug>[A-Za-z0-9_-]{1,64})"

urlpatterns = [
    path("", views.home, name="home"),
    path("analyze/", views.analyze, name="analyze"),
    path("recent/", views.recent, name="recent"),
    path("search/", views.search, name="search"),
    re_path(rf"^e/{SLUG}/$", views.detail, name="detail"),
    re_path(rf"^e/{SLUG}/raw/$", views.raw, name="raw"),
    re_path(rf"^e/{SLUG}/parts/(?P<name>table|vertical|pasted)/$", views.part, name="part"),
    re_path(rf"^e/{SLUG}/profile\.svg$", views.profile_svg, name="profile-svg"),
    re_path(rf"^e/{SLUG}/delete/$", views.delete, name="delete"),
    re_path(rf"^e/{SLUG}/edit/$", views.edit, name="edit"),
    re_path(rf"^e/{SLUG}/report/$", views.report, name="report"),
    re_path(rf"^e/{SLUG}/misread/$", views.misread_saved, name="misread-saved"),
    path("misread/", views.misread, name="misread"),
    path("compare/", views.compare_start, name="compare-start"),
    re_path(
        r"^compare/(?P<slug_a>[A-Za-z0-9_-]{1,64})/(?P<slug_b>[A-Za-z0-9_-]{1,64})/$", views.compare, name="compare"
    ),
    re_path(r"^api/v1/explains/?$", api.ExplainListCreate.as_view(), name="api-list"),
    re_path(rf"^api/v1/explains/{SLUG}/?$", api.ExplainDetail.as_view(), name="api-detail"),
    re_path(r"^api/v1/schema/?$", SpectacularAPIView.as_view(), name="api-schema"),
    re_path(
        r"^api/v1/docs/?$",
        SpectacularSwaggerSplitView.as_view(url_name="pastebin:api-schema", template_name="pastebin/swagger_ui.html"),
        name="api-docs",
    ),
]
