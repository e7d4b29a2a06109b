"""Readers: find the EXPLAIN in repaired text and read it into the plan model.

`dispatch.read(cleaned)` takes the repaired paste, reads what programs printed (`dumps/`), finds
every other result set (`tables/`) and offers the text to the document readers (`documents/`); when
none holds an EXPLAIN, it reads tables without borders, tabs or header by the shapes of their
values (`shapes/`). Then it picks the EXPLAIN to return. The sub-rooms:

- `tables/`: result sets with separators: the boxed table (`table`), borderless grids (`grid`),
  tab-separated (`tsv`) and comma-separated (`csv_rows`) rows, markup (`markup`) and vertical `\\G`
  records (`vertical`);
- `shapes/`: tables without borders, tabs or header (`columns`, rows without a header in
  `headerless`), read by what each column's values look like (`by_value`, `cell_shapes`);
- `dumps/`: rows programs printed (`printed` tries each): the slow query log's plans (`slow_log`),
  PHP, Go, and JSON/Python/Node/Ruby dumps (`php_dump`, `go_dump`, `literal_dump`), sharing `records`;
- `documents/`: JSON and tree plans (`json_plan`, `tree_plan`) and their plan model (`document_model`).

What every reader shares stays here: `resultset` (the result set, its columns and cells), `cells`
(cells as typed values), `vocabulary` (the words EXPLAIN prints), `line_roles` (what became of each
line); `nesting` builds the plan tree of tabular output from `id`, `select_type` and the
`<derivedN>` references, and `plan_model` the typed plan model of every format.

The tables' definitions (`SHOW CREATE TABLE`) are read beside the index advice that uses them, in
`analyzer.insight.schema`. Each sub-room's `__init__` imports nothing: `dispatch` imports a reader only when the paste needs it.
"""
