"""`GET /api/v1/notes/` and `GET /api/v1/notes/<slug>/`: the notes with their data series."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions, generics, serializers

from notes.models import Note
from notes.rendering import render_markdown


class TableSerializer(serializers.Serializer):
    """A benchmark table as stored, plus the URL of its CSV download."""

    def to_representation(self, instance):
        number, table, note = instance
        request = self.context.get("request")
        url = note.csv_url(number)
        return {"number": number, **table, "csv_url": request.build_absolute_uri(url) if request else url}


class NoteSerializer(serializers.ModelSerializer):
    url = serializers.SerializerMethodField()
    body_html = serializers.SerializerMethodField()
    tables = serializers.SerializerMethodField()

    class Meta:
        model = Note
        fields = [
            "slug", "kind", "title", "date", "date_precision", "summary", "product", "version",
            "url", "links", "facts", "tables", "body", "body_html", "updated",
        ]  # fmt: skip

    def get_url(self, note: Note) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(note.get_absolute_url()) if request else note.get_absolute_url()

    def get_body_html(self, note: Note) -> str:
        return render_markdown(note.body)

    def get_tables(self, note: Note) -> list[dict]:
        items = [(number, table, note) for number, table in enumerate(note.tables, start=1)]
        return TableSerializer(items, many=True, context=self.context).data


@extend_schema(
    parameters=[OpenApiParameter("kind", str, enum=["release", "benchmark"], description="Only notes of this kind.")]
)
class NoteListView(generics.ListAPIView):
    """Every note, newest first; `?kind=release` or `?kind=benchmark` narrows the list."""

    serializer_class = NoteSerializer

    def get_queryset(self):
        notes = Note.objects.newest_first()
        kind = self.request.query_params.get("kind")
        if kind is None:
            return notes
        if kind not in Note.Kind.values:
            raise exceptions.ValidationError(f"kind must be one of: {', '.join(Note.Kind.values)}.")
        return notes.filter(kind=kind)


class NoteDetailView(generics.RetrieveAPIView):
    serializer_class = NoteSerializer
    queryset = Note.objects.all()
    lookup_field = "slug"

    def get_object(self) -> Note:
        note = Note.objects.filter(slug=self.kwargs["slug"]).first()
        if note is None:
            raise exceptions.NotFound("No note has that slug.")
        return note
