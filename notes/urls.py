from django.urls import path, re_path

from notes import api, feeds, views
from notes.models import Note

app_name = "notes"

urlpatterns = [
    path("notes/", views.note_list, name="list"),
    path("notes/releases/", views.note_list, {"kind": Note.Kind.RELEASE}, name="releases"),
    path("notes/benchmarks/", views.note_list, {"kind": Note.Kind.BENCHMARK}, name="benchmarks"),
    path("notes/feed/", feeds.NotesFeed(), name="feed"),
    path("notes/<slug:slug>/", views.note_detail, name="detail"),
    path("notes/<slug:slug>/tables/<int:number>.csv", views.table_csv, name="table-csv"),
    re_path(r"^api/v1/notes/?$", api.NoteListView.as_view(), name="api-list"),
    re_path(r"^api/v1/notes/(?P<slug>[-a-zA-Z0-9_]+)/?$", api.NoteDetailView.as_view(), name="api-detail"),
]
