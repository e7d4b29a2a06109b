"""A small DOM for assertions on rendered pages, built with the standard library's HTML parser."""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
# Start tags that end an open element left unclosed (HTML's optional end tags, which the plan
# table's rows use), as far up as the element in the value.
IMPLIED_END = {"td": ({"td", "th"}, "tr"), "th": ({"td", "th"}, "tr"), "tr": ({"tr"}, "table")}


@dataclass
class Node:
    tag: str
    attrs: dict[str, str | None]
    children: list[Node | str] = field(default_factory=list)
    parent: Node | None = None

    @property
    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text for c in self.children)

    def text_except(self, cls: str) -> str:
        """The text without that of the elements of class `cls` (the raw paste's line marks)."""
        return "".join(
            c if isinstance(c, str) else "" if cls in c.classes else c.text_except(cls) for c in self.children
        )

    @property
    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.iter()

    def find_all(self, tag: str | None = None, cls: str | None = None, **attrs: str) -> list[Node]:
        found = []
        for node in self.iter():
            if tag and node.tag != tag:
                continue
            if cls and cls not in node.classes:
                continue
            if any(node.attrs.get(k.rstrip("_").replace("_", "-")) != v for k, v in attrs.items()):
                continue
            found.append(node)
        return found

    def by_id(self, element_id: str) -> Node | None:
        return next((n for n in self.iter() if n.attrs.get("id") == element_id), None)


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        if tag in IMPLIED_END:
            ended, limit = IMPLIED_END[tag]
            node = self.current
            while node is not self.root and node.tag != limit and node.tag not in ended:
                node = node.parent
            if node.tag in ended:
                self.current = node.parent
        node = Node(tag, dict(attrs), parent=self.current)
        self.current.children.append(node)
        if tag not in VOID:
            self.current = node

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Node(tag, dict(attrs), parent=self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(markup: str | bytes) -> Node:
    builder = _Builder()
    builder.feed(markup.decode() if isinstance(markup, bytes) else markup)
    builder.close()
    return builder.root
