"""Markdown to safe HTML: render with `markdown`, link issue keys, then sanitize with `nh3`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import markdown
import nh3
from markdown.inlinepatterns import InlineProcessor

JIRA_BROWSE = "https://jira.mariadb.org/browse/"
# Projects of the MariaDB issue tracker; other KEY-123 shapes (UTF-8, TLSv1-2) are left alone.
JIRA_PROJECTS = ("MDEV", "CONJ", "CONC", "CONCPP", "CONJS", "CONPY", "ODBC", "MXS", "MCOL", "TODO")
ISSUE_KEY = r"\b((?:" + "|".join(JIRA_PROJECTS) + r")-[1-9][0-9]{0,6})\b"

ALLOWED_TAGS = {
    "a", "abbr", "blockquote", "br", "code", "dd", "del", "dl", "dt", "em", "h2", "h3", "h4",
    "hr", "li", "ol", "p", "pre", "strong", "sub", "sup", "table", "tbody", "td", "th", "thead", "tr", "ul",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "td": {"align"}, "th": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


class IssueKeyProcessor(InlineProcessor):
    """Turns MDEV-7324 into a link to the issue; never inside an existing link or code span."""

    ANCESTOR_EXCLUDES = ("a",)

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[ET.Element, int, int]:
        link = ET.Element("a", {"href": JIRA_BROWSE + m.group(1)})
        link.text = m.group(1)
        return link, m.start(0), m.end(0)


class IssueKeyExtension(markdown.Extension):
    def extendMarkdown(self, md: markdown.Markdown) -> None:
        md.inlinePatterns.register(IssueKeyProcessor(ISSUE_KEY, md), "issue_key", 5)


def sanitize(html: str) -> str:
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
    )


def render_markdown(text: str) -> str:
    """Markdown source to HTML that is safe to insert into a page as is."""
    html = markdown.markdown(text, extensions=["fenced_code", "tables", IssueKeyExtension()], output_format="html")
    return sanitize(html)
