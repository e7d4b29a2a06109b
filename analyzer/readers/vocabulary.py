"""What the cells of a tabular EXPLAIN can hold: the `select_type` and access `type` vocabularies and
the Extra items of MySQL and MariaDB. The readers use them to recognise EXPLAIN output, the check
stage to hold a reading against them."""

from __future__ import annotations

import re

from analyzer.lazy import lazy_regex

# What the `select_type` column of a tabular EXPLAIN prints.
SELECT_TYPES = frozenset(
    {
        "SIMPLE", "PRIMARY", "SUBQUERY", "DEPENDENT SUBQUERY", "UNCACHEABLE SUBQUERY", "DERIVED",
        "DEPENDENT DERIVED", "LATERAL DERIVED", "MATERIALIZED", "UNION", "DEPENDENT UNION",
        "UNCACHEABLE UNION", "UNION RESULT", "INTERSECT", "EXCEPT", "INTERSECT RESULT", "EXCEPT RESULT",
        "UNIT RESULT", "PUSHED DERIVED", "PUSHED SELECT", "PUSHED UNION", "INSERT", "UPDATE", "DELETE",
        "REPLACE",
    }
)  # fmt: skip
# What the `type` column of a tabular EXPLAIN prints (NULL aside).
ACCESS_TYPES = frozenset(
    ("system", "const", "eq_ref", "ref", "fulltext", "ref_or_null", "index_merge", "unique_subquery")
    + ("index_subquery", "range", "index", "ALL", "hash_ALL", "hash_range", "hash_index", "hash_index_merge")
)

# What mysqltest prints for a value its `--replace_column` hid (a test's result file): the value is unknown.
MASKED = "#"

# The Extra items the servers print (compared without case), and the patterns of those with a part that varies.
EXTRA_ITEMS = frozenset(
    item.casefold()
    for item in (
        "Using where", "Using index", "Using index condition", "Using index condition(BKA)",
        "Using index condition (BKA)", "Using temporary", "Using filesort", "Using join buffer",
        "Using join buffer (Block Nested Loop)", "Using join buffer (Batched Key Access)",
        "Using join buffer (Batched Key Access (unique))", "Using join buffer (hash join)", "Using MRR",
        "Rowid-ordered scan", "Key-ordered scan", "Key-ordered Rowid-ordered scan", "Using index for group-by",
        "Using index for group-by (scanning)", "Using index for skip scan", "Using rowid filter",
        "Backward index scan", "Distinct", "Not exists", "Full scan on NULL key", "Start temporary",
        "End temporary", "Materialize", "Start materialize", "End materialize", "Scan", "Impossible WHERE",
        "Impossible WHERE noticed after reading const tables", "Impossible HAVING", "Impossible ON condition",
        "No tables used", "Select tables optimized away", "No matching min/max row",
        "no matching row in const table", "const row not found", "unique row not found",
        "No matching rows after partition pruning", "Deleting all rows", "Zero limit",
        "Using where with pushed condition", "Using buffer", "Open_frm_only", "Open_full_table",
        "Open_trigger_only", "Skip_open_table", "Scanned all databases", "Recursive", "Plan isn't ready yet",
        "Not optimized, outer query is empty", "FirstMatch", "LooseScan", "NULL",
    )
)  # fmt: skip
EXTRA_PATTERNS = lazy_regex(
    r"Using (?:union|intersect|sort_union|sort_intersect)\([^()]*\)|FirstMatch\([^()]*\)|LooseScan\([^()]*\)"
    r"|Using join buffer \((?:flat|incremental), (?:BNL|BNLH|BKA|BKAH) join\)"
    r"|Range checked for each record \(index map: ?(?:0x)?[0-9a-f]+\)|Rematerialize ?\([^()]*\)"
    r"|Parent of \d+ pushed join@\d+|Child of '[^']*' in pushed join@\d+|Scanned \d+ databases?",
    re.IGNORECASE,
)
# The fixed start of the items with a varying part: a cut value may stop inside it.
EXTRA_HEADS = tuple(
    head.casefold()
    for head in (
        "Using union(", "Using intersect(", "Using sort_union(", "Using sort_intersect(", "FirstMatch(",
        "LooseScan(", "Using join buffer (flat, ", "Using join buffer (incremental, ",
        "Range checked for each record (index map: 0x", "Rematerialize (", "Parent of ", "Child of '",
        "Scanned ", "Using pushed condition ", "Table function: ", "Ft_hints: ", "Using secondary engine ",
    )
)  # fmt: skip
