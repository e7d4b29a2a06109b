"""Insight: what the plan means. `glossary` explains each term (its entries are data, in
`glossary.toml`), `annotations` attaches them to the plan's cells, `findings` names the plan's
problems, `advice` the index that would help (reading the tables' definitions, `SHOW CREATE TABLE`
and `SHOW INDEX`, with `schema`), and `compare` tells what changed between two plans.
"""
