"""Findings grouped for reading: the same finding on several rows is one entry listing them.

The analysis keeps one finding per row or step (the API's `findings`); a plan that scans three
tables in full would then say "Full table scan … An index on the columns … would let the server
look rows up." three times. `group_findings` puts the findings of one kind together, most severe
group first, and takes the advice that every message of a group ends with out of the messages, to
be said once for the group. Pure functions, shared by the page's view and the text report.
"""

from __future__ import annotations

from analyzer.structs import dataclass, field
from analyzer.wording import plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Generic, TypeVar

    T = TypeVar("T")
else:  # generic only to the type checker: the classes are plain at run time (typing costs start-up time)

    class _Generic:
        def __class_getitem__(cls, item):
            return cls

    Generic = _Generic
    T = None

SEVERITY_ORDER = {"bad": 0, "warning": 1, "info": 2, "good": 3}
# What a group of findings of a kind is about, as a heading over them.
KIND_TITLES = {
    "full-table-scan": "Full table scans",
    "full-index-scan": "Full index scans",
    "join-rows": "Joins that examine many row combinations",
    "filesort": "Sorts in an extra pass (Using filesort)",
    "temporary": "Internal temporary tables (Using temporary)",
    "temporary-filesort": "Temporary tables sorted afterwards (Using temporary; Using filesort)",
    "dependent-subquery": "Dependent subqueries",
    "uncacheable-subquery": "Uncacheable subqueries",
    "join-buffer": "Joins through a join buffer",
    "range-checked": "Access re-planned for every row (Range checked for each record)",
    "full-scan-on-null-key": "Full scans on NULL key",
    "unused-index": "Possible keys not chosen",
    "low-filtered": "Few of the rows read are kept",
    "estimate-off": "Estimates that ANALYZE proved wrong",
    "no-rows": "No rows qualify",
    "time-hotspot": "Where most of the time goes",
    "never-executed": "Steps never executed",
    "all-index-lookups": "Index lookups only",
    "no-index-helps": "Conditions no index can serve",
}


@dataclass
class GroupItem(Generic[T]):
    """One finding of a group, and its message without the advice the group states once."""

    finding: T
    severity: str
    text: str


@dataclass
class FindingGroup(Generic[T]):
    kind: str
    severity: str  # the most severe of its findings'
    items: list[GroupItem[T]] = field(default_factory=list)
    advice: str = ""  # the sentences every message of the group ended with, when it has several

    @property
    def single(self) -> bool:
        return len(self.items) == 1

    @property
    def mixed(self) -> bool:
        """Its findings are not all of one severity (each item then says its own)."""
        return len({item.severity for item in self.items}) > 1

    @property
    def title(self) -> str:
        """`Full table scans (3)`; the message itself for a group of one."""
        if self.single:
            return self.items[0].text
        name = KIND_TITLES.get(self.kind) or "Findings of one kind"
        return f"{name} ({len(self.items)})"

    @property
    def count_text(self) -> str:
        return plural(len(self.items), "finding")


def group_findings(
    findings: Sequence[T], severity: Callable[[T], str], kind: Callable[[T], str], message: Callable[[T], str]
) -> list[FindingGroup[T]]:
    """Findings of the same kind together, each group where its most severe finding would come,
    groups most severe first (then in the order they first appear), findings inside a group most
    severe first. Findings without a kind stay alone."""
    groups: dict[object, FindingGroup[T]] = {}
    for index, finding in enumerate(findings):
        name = kind(finding)
        level = severity(finding)
        key: object = name if name else ("", index)
        group = groups.setdefault(key, FindingGroup(name, level))
        group.items.append(GroupItem(finding, level, message(finding)))
        if _rank(level) < _rank(group.severity):
            group.severity = level
    ordered = sorted(groups.values(), key=lambda g: _rank(g.severity))  # stable: first seen first
    for group in ordered:
        group.items.sort(key=lambda item: _rank(item.severity))
        if not group.single:
            _take_advice(group)
    return ordered


def _rank(severity: str) -> int:
    return SEVERITY_ORDER.get(severity, 9)


def _take_advice(group: FindingGroup[T]) -> None:
    """Say once the closing sentences that two or more of the group's messages end with (those of
    its most severe message that others share, the longest such), and cut them from those messages."""
    first = group.items[0].text
    start = first.find(". ")
    while start >= 0:
        advice = first[start + 2 :]
        holders = [item for item in group.items if _ends_with_sentences(item.text, advice)]
        if advice and len(holders) > 1:
            group.advice = advice
            for item in holders:
                item.text = item.text[: -len(advice) - 1]
            return
        start = first.find(". ", start + 2)


def _ends_with_sentences(message: str, advice: str) -> bool:
    """`message` ends with `advice` as whole sentences, after a sentence of its own."""
    return message.endswith(". " + advice) and len(message) > len(advice) + 2
