"""The analyze API's answer, described for the OpenAPI schema (`/api/v1/schema/`). These serializers
document `Analysis.to_dict()`; the view returns that dict as it is."""

from __future__ import annotations

from rest_framework import serializers

from analyzer.model import FORMATS, JOIN_ALGORITHMS, OPERATIONS, SEVERITIES


class AnnotationOutput(serializers.Serializer):
    row = serializers.IntegerField()
    column = serializers.CharField()
    term = serializers.CharField()
    severity = serializers.ChoiceField(choices=list(SEVERITIES))
    title = serializers.CharField()
    explanation = serializers.CharField()
    url = serializers.URLField()
    slug = serializers.CharField()


class FindingOutput(serializers.Serializer):
    severity = serializers.ChoiceField(choices=list(SEVERITIES))
    message = serializers.CharField()
    rows = serializers.ListField(child=serializers.IntegerField())
    kind = serializers.CharField()


def _number(help_text: str) -> serializers.FloatField:
    return serializers.FloatField(allow_null=True, help_text=help_text)


class PlanNodeOutput(serializers.Serializer):
    """One node of the plan model; `children` are nodes of the same shape."""

    operation = serializers.ChoiceField(choices=list(OPERATIONS))
    label = serializers.CharField(help_text="The operation as printed (tree output) or a short description.")
    join_algorithm = serializers.ChoiceField(choices=list(JOIN_ALGORITHMS), allow_null=True)
    select_id = serializers.IntegerField(allow_null=True)
    select_type = serializers.CharField(allow_null=True)
    table = serializers.CharField(allow_null=True)
    access_type = serializers.CharField(allow_null=True)
    key = serializers.CharField(allow_null=True)
    key_length = serializers.IntegerField(allow_null=True)
    ref = serializers.ListField(child=serializers.CharField())
    possible_keys = serializers.ListField(child=serializers.CharField())
    rows_estimated = _number("The optimizer's estimate of rows (per loop).")
    filtered = _number("Estimated percentage of rows kept by the table's condition.")
    cost = _number("The optimizer's cost (MySQL: up to and including this step).")
    rows_actual = _number("Rows actually returned per loop (EXPLAIN ANALYZE, MariaDB r_rows).")
    loops = serializers.IntegerField(allow_null=True, help_text="How often the step ran; 0 = never executed.")
    time_first_ms = _number("Milliseconds to the first row, per loop (MySQL EXPLAIN ANALYZE).")
    time_last_ms = _number("Milliseconds to the last row, per loop (MySQL EXPLAIN ANALYZE).")
    r_rows = _number("MariaDB ANALYZE: rows read per loop.")
    r_filtered = _number("MariaDB ANALYZE: percentage of rows kept by the condition.")
    r_loops = serializers.IntegerField(allow_null=True, help_text="MariaDB ANALYZE: loops.")
    r_total_time_ms = _number("MariaDB ANALYZE: total time of the step.")
    r_table_time_ms = _number("MariaDB ANALYZE: time spent reading the table.")
    r_other_time_ms = _number("MariaDB ANALYZE: time spent on the rest, such as checking the condition.")
    condition = serializers.CharField(allow_null=True)
    extra = serializers.ListField(child=serializers.CharField(), help_text="The Extra items, one by one.")
    row = serializers.IntegerField(allow_null=True, help_text="Index in `rows` of the printed row this node is.")
    children = serializers.ListField(child=serializers.DictField(), help_text="Nodes of this same shape.")


class AnalysisOutput(serializers.Serializer):
    format = serializers.ChoiceField(choices=list(FORMATS))
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.DictField(allow_null=True), help_text="Cells exactly as printed.")
    plan = serializers.JSONField(
        allow_null=True,
        help_text="JSON and tree input: the nested plan as pasted (null for JSON holding tabular EXPLAIN rows).",
    )
    tables = serializers.ListField(child=serializers.CharField())
    query = serializers.CharField(allow_null=True)
    warnings = serializers.ListField(child=serializers.CharField())
    truncated = serializers.BooleanField(help_text="The paste visibly lacks part of the plan (cut lines, missing rows).")
    uncertain = serializers.BooleanField(
        help_text="The paste looks complete, but how its cells fall into columns or rows is a guess; the notices say where."
    )
    affected_rows = serializers.ListField(child=serializers.IntegerField())
    annotations = AnnotationOutput(many=True)
    findings = FindingOutput(many=True)
    notices = serializers.ListField(child=serializers.CharField())
    tree = PlanNodeOutput(help_text="The plan model: a `query` node over the plan's top steps.")
