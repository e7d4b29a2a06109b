"""The home page's "Try an example": real EXPLAIN output kept as a static file, which site.js
fetches into the paste box and previews; without JavaScript, `/analyze/?example=<name>` opens the
analysis of it with the form filled in."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.contrib.staticfiles import finders


@dataclass(frozen=True)
class Example:
    name: str
    path: str  # under the static files
    description: str


# Printed by the real mariadb client (MariaDB 10.11) in an 80-column terminal, which wrapped its lines.
EXAMPLE = Example(
    name="group-by",
    path="examples/group-by-terminal-80.txt",
    description="A join with GROUP BY from a MariaDB session, its lines wrapped by an 80-column terminal.",
)
EXAMPLES = {EXAMPLE.name: EXAMPLE}


def example_text(name: str | None) -> str:
    """The text of the example called `name`; empty for any other name."""
    example = EXAMPLES.get(name or "")
    found = finders.find(example.path) if example else None
    if not isinstance(found, str):
        return ""
    return Path(found).read_text(encoding="utf-8")
