"""Tables without borders, tabs or header, read by the shapes of their values: `columns` finds them
where no other reader found an EXPLAIN, `headerless` reads rows without a header line, `by_value`
places values into columns by what each column's values look like, `cell_shapes` says what a cell
of each column looks like."""
