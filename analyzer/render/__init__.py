"""Render: the analysis shown to people. `text` prints clean tables and reports for a terminal,
`view` prepares what the web page shows, `plan_tree` lays out the plan model as nested lists, and
`highlight` colours the raw paste and the query (Pygments).
"""
