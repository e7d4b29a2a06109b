"""Nested plans printed as documents: `EXPLAIN FORMAT=JSON` (`json_plan`), `FORMAT=TREE` and
`EXPLAIN ANALYZE` (`tree_plan`), and the plan model built from them (`document_model`)."""
