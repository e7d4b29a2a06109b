"""The analyze API's answer, described for the OpenAPI schema (`/api/v1/schema/`). These serializers
document `Analysis.to_dict()`; the view returns that dict as it is."""

from __future__ import annotations

from rest_framework import serializers

from analyzer.model import FLAVOURS, FORMATS, JOIN_ALGORITHMS, LINE_ROLES, OPERATIONS, SEVERITIES


class AnnotationOutput(serializers.Serializer):
    row = serializers.IntegerField()
    column = serializers.CharField()
    term = serializers.CharField()
    severity = serializers.ChoiceField(choices=list(SEVERITIES))
    title = serializers.CharField()
    explanation = serializers.CharField()
    url = serializers.URLField(
        help_text="The term's page in the documentation of the server that printed the plan (`server`; the "
        "MySQL manual of its version), or the other server's when its own has none; MySQL's first when unknown."
    )
    slug = serializers.CharField()


def _path(help_text: str, allow_null: bool = False) -> serializers.ListField:
    child = serializers.IntegerField(min_value=0)
    return serializers.ListField(child=child, allow_null=allow_null, help_text=help_text)


class AdviceOutput(serializers.Serializer):
    table = serializers.CharField(help_text="The table the index is for (its name, not its alias).")
    columns = serializers.ListField(child=serializers.CharField(), help_text="The index's columns, in order.")
    statement = serializers.CharField(help_text="A complete `ALTER TABLE … ADD INDEX …` for MariaDB and MySQL.")
    reason = serializers.CharField(help_text="Why, in words: what the plan does now and what the index changes.")
    rows = serializers.ListField(
        child=serializers.IntegerField(), help_text="Indexes in `rows` of the printed rows it helps."
    )
    redundant = serializers.ListField(
        child=serializers.CharField(), help_text="Existing indexes it makes redundant (a left prefix of it)."
    )


class FindingOutput(serializers.Serializer):
    severity = serializers.ChoiceField(choices=list(SEVERITIES))
    message = serializers.CharField()
    rows = serializers.ListField(
        child=serializers.IntegerField(), help_text="Indexes in `rows` of the printed rows it is about."
    )
    kind = serializers.CharField()
    path = _path(
        "The node of `tree` it is about, as child indexes from the root; null when it is about several "
        "nodes or none in particular. Missing in explains saved before parser version 4.",
        allow_null=True,
    )


class ProfileNodeOutput(serializers.Serializer):
    """One timed node of the plan. Times are milliseconds over all the node's loops, not rounded."""

    path = _path("The node in `tree`, as child indexes from the root.")
    label = serializers.CharField(help_text="The operation as printed, as the node's `label`.")
    table = serializers.CharField(allow_null=True)
    loops = serializers.IntegerField(min_value=0, help_text="How often the node ran.")
    total_ms = serializers.FloatField(help_text="Its time with the steps under it (MySQL: time per loop x loops).")
    self_ms = serializers.FloatField(help_text="Its time without the steps under it, never below zero.")
    share = serializers.FloatField(min_value=0, max_value=1, help_text="self_ms over the plan's total_ms.")
    rows_estimated = serializers.FloatField(allow_null=True, help_text="Estimated rows per loop.")
    rows_actual = serializers.FloatField(allow_null=True, help_text="Actual rows per loop.")
    estimate_factor = serializers.FloatField(
        allow_null=True, help_text="rows_actual / rows_estimated; null when either is missing or zero."
    )


class ProfileOutput(serializers.Serializer):
    """Where the time of an EXPLAIN ANALYZE went."""

    total_ms = serializers.FloatField(help_text="The plan's total time in milliseconds.")
    nodes = ProfileNodeOutput(many=True, help_text="One entry per timed node, the most self time first.")


class LineSpanOutput(serializers.Serializer):
    """Lines of the paste and what became of them."""

    first = serializers.IntegerField(min_value=1, help_text="First line (1-based; CRLF counts as one line break).")
    last = serializers.IntegerField(min_value=1, help_text="Last line, included.")
    role = serializers.ChoiceField(
        choices=list(LINE_ROLES),
        help_text="plan: read as the plan; warnings: read as warnings; query: the statement the query was "
        "taken from; ignored: not read.",
    )
    reason = serializers.CharField(help_text="Why, in a few words: 'other text', 'a client prompt', …")


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


class ServerOutput(serializers.Serializer):
    """The server that printed the paste, as far as the paste shows."""

    flavour = serializers.ChoiceField(
        choices=list(FLAVOURS),
        allow_null=True,
        help_text="From a version string in the paste, else the plan's variant or terms only one server "
        "prints, else a MariaDB prompt; null when nothing tells.",
    )
    version = serializers.CharField(
        allow_null=True,
        help_text='"major.minor" ("10.11", "8.0"), only from a version string such as '
        '"Server version: 10.11.6-MariaDB" or "mysql  Ver 8.0.36"; null otherwise.',
    )


class AnalysisOutput(serializers.Serializer):
    format = serializers.ChoiceField(choices=list(FORMATS))
    variant = serializers.CharField(
        allow_null=True,
        help_text="The statement and server that printed the plan, when the output shows them "
        '(e.g. "MySQL EXPLAIN ANALYZE", "MariaDB ANALYZE FORMAT=JSON").',
    )
    server = ServerOutput(
        help_text="Which server printed the plan; the annotations link to its documentation. "
        "Missing in explains saved before parser version 6."
    )
    columns = serializers.ListField(child=serializers.CharField())
    rows = serializers.ListField(child=serializers.DictField(allow_null=True), help_text="Cells exactly as printed.")
    plan = serializers.JSONField(
        allow_null=True,
        help_text="JSON and tree input: the nested plan as pasted (null for JSON holding tabular EXPLAIN rows).",
    )
    tables = serializers.ListField(child=serializers.CharField())
    query = serializers.CharField(allow_null=True)
    warnings = serializers.ListField(child=serializers.CharField())
    truncated = serializers.BooleanField(
        help_text="The paste visibly lacks part of the plan (cut lines, missing rows)."
    )
    uncertain = serializers.BooleanField(
        help_text="The paste looks complete, but how its cells fall into columns or rows is a guess; the notices say where."
    )
    affected_rows = serializers.ListField(child=serializers.IntegerField())
    annotations = AnnotationOutput(many=True)
    findings = FindingOutput(many=True)
    profile = ProfileOutput(
        allow_null=True,
        help_text="Where the time went, for output with actual times (MySQL EXPLAIN ANALYZE, MariaDB ANALYZE "
        "FORMAT=JSON); null without times, and missing in explains saved before parser version 4 (read it as null).",
    )
    notices = serializers.ListField(child=serializers.CharField())
    lines = LineSpanOutput(
        many=True,
        help_text="What became of the paste's lines, in order. A line in no span is empty or held only "
        "quoting or a line number; no spans at all means not known (a paste decoded as a whole).",
    )
    tree = PlanNodeOutput(help_text="The plan model: a `query` node over the plan's top steps.")
    advice = AdviceOutput(
        many=True,
        help_text="Indexes to add, from the query (given or in the paste), the plan and, when sent, `schema`; "
        "[] when there is nothing to advise. Missing in explains saved before parser version 5 (read it as []).",
    )
