"""`python -m analyzer mcp`: the analyzer as an MCP server on standard input and output, so AI
assistants can analyze a paste (with its query and table definitions) and get its findings, time
profile and index advice back. Built on the official `mcp` package; nothing leaves the machine.
"""

from __future__ import annotations

import sys
from typing import Any

INSTRUCTIONS = (
    "Analyze MySQL/MariaDB EXPLAIN output of any format (client table, \\G, tab-separated, JSON, "
    "TREE, EXPLAIN ANALYZE, MariaDB ANALYZE), however damaged by copying. Give the SQL query and "
    "the tables' SHOW CREATE TABLE output when you have them: index advice needs the query and is "
    "checked against the existing indexes."
)


def analyze_explain(explain: str, query: str | None = None, schema: str | None = None) -> dict[str, Any]:
    """Analyze an EXPLAIN paste. Returns how it was read, the findings (most severe first), the time
    profile (for ANALYZE output), and index advice (ALTER TABLE statements with reasons)."""
    from analyzer.model import ParseError
    from analyzer.pipeline import analyze

    try:
        analysis = analyze(explain, query=query, schema=schema)
    except ParseError as exc:
        return {"error": exc.message}
    data = analysis.to_dict()
    keep = ("format", "variant", "tables", "query", "truncated", "uncertain", "notices", "warnings", "rows")
    return {key: data[key] for key in keep} | {
        "findings": data["findings"],
        "profile": data["profile"],
        "advice": data["advice"],
    }


def explain_term(term: str) -> dict[str, Any]:
    """Explain an EXPLAIN term (an access type such as `ref`, an Extra item such as
    `Using filesort`, a column name such as `filtered`) with its documentation link."""
    from analyzer.insight import glossary

    for column in glossary.COLUMNS:
        found = glossary.match(column, term)
        if found is not None:
            return {
                "term": found.term,
                "column": found.column,
                "severity": found.severity,
                "title": found.title,
                "explanation": found.explanation,
                "url": found.url,
            }
    return {"error": f"no glossary entry for {term!r} in select_type, type or Extra"}


def build_server() -> Any:
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("explain-analyzer", instructions=INSTRUCTIONS)
    server.tool()(analyze_explain)
    server.tool()(explain_term)
    return server


def main(argv: list[str] | None = None) -> int:
    if argv:
        print("usage: python -m analyzer mcp   (an MCP server on standard input and output)", file=sys.stderr)
        return 2
    build_server().run("stdio")
    return 0
