"""Result sets with separators: the client's boxed table (`table`), grids without an outer border
(`grid`), tab-separated batch output (`tsv`), comma-separated rows (`csv_rows`), markup (`markup`)
and vertical `\\G` records (`vertical`)."""
