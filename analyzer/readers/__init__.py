"""Readers: find the EXPLAIN in repaired text and read it into the plan model.

`dispatch.parse(text)` repairs the paste, reads what programs printed (`dumps`: the slow query
log's plans in `slow_log`, rows dumped as data in `php_dump`, `go_dump` and `literal_dump`, sharing
`records`), finds every other result set (`table`, `vertical`, `tsv`, `markup`) and offers the text
to the document readers (`json_plan`, `tree_plan`), then picks the EXPLAIN to return. `resultset`
holds what the tabular readers share; `nesting` builds the plan tree of tabular output from `id`,
`select_type` and the `<derivedN>` references.
"""
