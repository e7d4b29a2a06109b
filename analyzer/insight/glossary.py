"""The EXPLAIN glossary: every select_type, join type and Extra item MySQL and MariaDB print.

Pure data, no Django. Each `Term` carries an anchored, case-insensitive pattern; `match()`
finds the entry for one printed value (one Extra item at a time, not a whole "; "-joined cell).
The web UI renders `/terms/` from `TERMS` with anchors `#<slug>`.

Wording is ours. Version facts and documentation URLs come from the project's EXPLAIN term
reference (MySQL 5.x-9.x, MariaDB 5.3-11.x); URLs prefer pages that were actually retrieved.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

COLUMNS = ("select_type", "type", "extra")


@dataclass(frozen=True)
class Term:
    slug: str
    column: str
    term: str
    pattern: re.Pattern[str]
    severity: str
    title: str
    explanation: str
    url: str


# Documentation pages, by the reference's registry id.
_URLS = {
    "KB_EXPLAIN": "https://www.mariadb.com/kb/en/explain",
    "KB_BLOCK_JOIN": "https://mariadb.com/kb/en/mariadb/block-based-join-algorithms/",
    "KB_FIRSTMATCH": "https://mariadb.com/kb/en/firstmatch-strategy/",
    "D_NONSEMIJOIN": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/subquery-optimizations/non-semi-join-subquery-optimizations",
    "D_DERIVED": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/optimizations-for-derived-tables",
    "D_LATERAL": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/optimizations-for-derived-tables/lateral-derived-optimization",
    "D_SJMAT": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/optimization-strategies/semi-join-materialization-strategy",
    "D_LOOSESCAN": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/optimization-strategies/loosescan-strategy",
    "D_DUPWEEDOUT": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/optimization-strategies/duplicateweedout-strategy",
    "D_ROWID": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/rowid-filtering-optimization",
    "D_MRR": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/mariadb-internal-optimizations/multi-range-read-optimization",
    "D_SORT_INTERSECT": "https://mariadb.com/docs/server/ha-and-performance/optimization-and-tuning/query-optimizations/index_merge-sort_intersection",
    "D_AE_IDX": "https://www.mariadb.com/docs/server/reference/sql-statements/administrative-sql-statements/analyze-and-explain-statements",
    "M_OUTPUT_80": "https://dev.mysql.com/doc/refman/8.0/en/explain-output.html",
    "M_OUTPUT_84": "https://dev.mysql.com/doc/en/explain-output.html",
    "M_EXPLAIN_80": "https://dev.mysql.com/doc/refman/8.0/en/explain.html",
    "M_FOR_CONN": "https://dev.mysql.com/doc/en/explain-for-connection.html",
    "M_LATERAL": "https://dev.mysql.com/doc/en/lateral-derived-tables.html",
    "M_ISNULL": "https://docs.oracle.com/cd/E17952_01/mysql-9.0-en/is-null-optimization.html",
    "M_INDEX_MERGE": "https://dev.mysql.com/doc/en/index-merge-optimization.html",
    "M_GROUPBY": "https://dev.mysql.com/doc/refman/en/group-by-optimization.html",
    "M_RANGE": "https://dev.mysql.com/doc/refman/9.3/en/range-optimization.html",
    "M_ICP_80": "https://dev.mysql.com/doc/refman/8.0/en/index-condition-pushdown-optimization.html",
    "M_TMP_80": "https://dev.mysql.com/doc/refman/8.0/en/internal-temporary-tables.html",
    "M_ORDERBY": "https://dev.mysql.com/doc/en/order-by-optimization.html",
    "M_NLJ": "https://dev.mysql.com/doc/en/nested-loop-joins.html",
    "M_BNL_BKA": "https://dev.mysql.com/doc/refman/5.7/en/bnl-bka-optimization.html",
    "M_HASHJOIN_80": "https://dev.mysql.com/doc/refman/8.0/en/hash-joins.html",
    "M_MRR": "https://dev.mysql.com/doc/refman/9.7/en/mrr-optimization.html",
    "M_DESC_IDX": "https://dev.mysql.com/doc/en/descending-indexes.html",
    "M_EXISTS_80": "https://dev.mysql.com/doc/refman/8.0/en/subquery-optimization-with-exists.html",
}

# Argument lists such as "(a,b)" or "(<derived2>)": no nested parentheses, so no backtracking trouble.
_ARGS = r"\([^()]*\)"

# (column, slug, term, severity, pattern or None for the literal term, url id, title, explanation)
_ENTRIES: list[tuple[str, str, str, str, str | None, str, str, str]] = [
    # --- select_type -------------------------------------------------------------------------
    (
        "select_type",
        "select-simple",
        "SIMPLE",
        "info",
        None,
        "KB_EXPLAIN",
        "A plain query without UNION or subqueries",
        "The statement has a single query block, so every row of the plan belongs to one join. "
        "Nothing to fix here: look at the type and Extra columns of each table instead.",
    ),
    (
        "select_type",
        "select-primary",
        "PRIMARY",
        "info",
        None,
        "KB_EXPLAIN",
        "The outer query of a statement with subqueries or a UNION",
        "This row belongs to the top-level SELECT; the other blocks of the statement hang off it. "
        "Its cost multiplies with any dependent subquery below it, so read those rows together.",
    ),
    (
        "select_type",
        "select-subquery",
        "SUBQUERY",
        "info",
        None,
        "KB_EXPLAIN",
        "A subquery that runs once",
        "The subquery does not refer to the outer query, so the server computes it a single time "
        "and reuses the result. That is cheap unless the subquery itself scans a lot of rows.",
    ),
    (
        "select_type",
        "select-dependent-subquery",
        "DEPENDENT SUBQUERY",
        "warning",
        None,
        "D_NONSEMIJOIN",
        "A correlated subquery, evaluated again for outer rows",
        "The subquery uses columns of the outer query, so it is re-run for each outer row "
        "(MariaDB can cache results per distinct outer value). With many outer rows this adds up fast. "
        "Rewriting it as a JOIN, or as IN/EXISTS the optimizer can turn into a semi-join, usually helps; "
        "make sure the correlated columns are indexed.",
    ),
    (
        "select_type",
        "select-uncacheable-subquery",
        "UNCACHEABLE SUBQUERY",
        "bad",
        None,
        "KB_EXPLAIN",
        "A subquery whose result can never be reused",
        "Something in the subquery (RAND(), a user variable, a non-deterministic function) prevents the server "
        "from keeping its result, so it is computed again for every outer row. "
        "Move the non-deterministic part out of the subquery or compute it once beforehand.",
    ),
    (
        "select_type",
        "select-derived",
        "DERIVED",
        "info",
        None,
        "D_DERIVED",
        "A subquery in FROM, a view or a CTE, built into a temporary table",
        "The server runs this block first and stores its rows in a temporary table (shown as <derivedN>) "
        "that the outer query then reads. Large derived tables cost memory or disk; filters pushed into "
        "the subquery, or letting the optimizer merge it into the outer query, keep them small.",
    ),
    (
        "select_type",
        "select-dependent-derived",
        "DEPENDENT DERIVED",
        "warning",
        None,
        "M_LATERAL",
        "A LATERAL derived table, rebuilt for outer rows",
        "The derived table refers to columns of tables before it (MySQL 8.0.14+ LATERAL), so it is materialized "
        "again whenever those values change; the Extra column shows Rematerialize on the driving table. "
        "Fine for a few outer rows, expensive for many.",
    ),
    (
        "select_type",
        "select-lateral-derived",
        "LATERAL DERIVED",
        "good",
        None,
        "D_LATERAL",
        "A grouped derived table computed only for the groups needed",
        "MariaDB (10.3+) split the derived table and computes it per group of the outer query instead of in full "
        "(the split_materialized optimization). This is chosen when the outer query needs only a few groups, "
        "and it is usually a win.",
    ),
    (
        "select_type",
        "select-materialized",
        "MATERIALIZED",
        "info",
        None,
        "D_SJMAT",
        "A subquery stored once in an indexed temporary table",
        "The optimizer ran an IN subquery once and saved its distinct rows in a temporary table with a unique key "
        "(the <subqueryN> table). The outer query then either looks rows up in it or scans it. "
        "Usually a good choice when the subquery result is much smaller than the outer table.",
    ),
    (
        "select_type",
        "select-union",
        "UNION",
        "info",
        None,
        "KB_EXPLAIN",
        "A later member of a UNION",
        "Each member of a UNION is planned on its own; this row belongs to one of the later ones. "
        "Check each member's access type separately.",
    ),
    (
        "select_type",
        "select-dependent-union",
        "DEPENDENT UNION",
        "warning",
        None,
        "KB_EXPLAIN",
        "A UNION member inside a correlated subquery",
        "This UNION sits in a subquery that refers to the outer query, so the whole UNION runs again for outer rows. "
        "Consider restructuring the subquery into joins, or make sure each member uses an index lookup.",
    ),
    (
        "select_type",
        "select-uncacheable-union",
        "UNCACHEABLE UNION",
        "bad",
        None,
        "KB_EXPLAIN",
        "A UNION member of a subquery that cannot be cached",
        "The UNION belongs to a subquery whose result cannot be reused (for example it calls RAND() or reads a user "
        "variable), so it is run again for every outer row. Take the non-deterministic part out if you can.",
    ),
    (
        "select_type",
        "select-union-result",
        "UNION RESULT",
        "info",
        None,
        "KB_EXPLAIN",
        "Reading the combined result of a UNION",
        "The members of the UNION wrote their rows into a temporary table (<unionM,N>), and this row reads it back; "
        "for UNION (not UNION ALL) that table also removes duplicates. "
        "UNION ALL avoids the deduplication when duplicates do not matter.",
    ),
    (
        "select_type",
        "select-intersect",
        "INTERSECT",
        "info",
        None,
        "M_OUTPUT_84",
        "A member of an INTERSECT",
        "This block is one side of an INTERSECT set operation (MariaDB 10.3+, MySQL 8.0.31+). "
        "Its rows are kept only if the other side produces them too.",
    ),
    (
        "select_type",
        "select-except",
        "EXCEPT",
        "info",
        None,
        "M_OUTPUT_84",
        "A member of an EXCEPT",
        "This block is the right-hand side of an EXCEPT set operation (MariaDB 10.3+, MySQL 8.0.31+): "
        "its rows are removed from the result of the left-hand side.",
    ),
    (
        "select_type",
        "select-intersect-result",
        "INTERSECT RESULT",
        "info",
        None,
        "M_OUTPUT_84",
        "Reading the result of an INTERSECT",
        "The rows common to the INTERSECT members were collected in a temporary table (<intersectM,N>) "
        "and this row reads them back.",
    ),
    (
        "select_type",
        "select-except-result",
        "EXCEPT RESULT",
        "info",
        None,
        "M_OUTPUT_84",
        "Reading the result of an EXCEPT",
        "The rows left after the EXCEPT were collected in a temporary table (<exceptM,N>) "
        "and this row reads them back.",
    ),
    (
        "select_type",
        "select-unit-result",
        "UNIT RESULT",
        "info",
        None,
        "KB_EXPLAIN",
        "Reading the result of a mixed set operation",
        "MariaDB can print this label on the row that reads back the temporary table of a set-operation unit "
        "(a combination of UNION, INTERSECT or EXCEPT members). The work happens in the member rows above it.",
    ),
    (
        "select_type",
        "select-pushed-derived",
        "PUSHED DERIVED",
        "info",
        None,
        "KB_EXPLAIN",
        "A derived table executed entirely by the storage engine",
        "MariaDB handed the whole derived table to the engine (a derived handler, as in FederatedX, Spider or "
        "ColumnStore). The server does not plan its inside, so tune it on the engine's side.",
    ),
    (
        "select_type",
        "select-pushed-select",
        "PUSHED SELECT",
        "info",
        None,
        "KB_EXPLAIN",
        "A whole SELECT executed by the storage engine",
        "MariaDB passed the complete query block to the engine's select handler (for example Spider or ColumnStore), "
        "so the usual per-table plan does not apply.",
    ),
    (
        "select_type",
        "select-pushed-union",
        "PUSHED UNION",
        "info",
        None,
        "KB_EXPLAIN",
        "A whole UNION executed by the storage engine",
        "MariaDB passed the entire UNION to the engine's handler, which runs it without the server's own plan.",
    ),
    (
        "select_type",
        "select-insert",
        "INSERT",
        "info",
        None,
        "M_EXPLAIN_80",
        "The target table of an INSERT",
        "EXPLAIN of an INSERT ... SELECT (or a plain INSERT) shows the table written to on this row. "
        "The cost sits in the SELECT part: check the rows that read data.",
    ),
    (
        "select_type",
        "select-update",
        "UPDATE",
        "info",
        None,
        "M_EXPLAIN_80",
        "The table changed by an UPDATE",
        "MySQL 5.7+ labels the updated table this way (MariaDB prints SIMPLE for a single-table UPDATE). "
        "Its type column shows how the rows to change are found, so an index on the WHERE columns matters here.",
    ),
    (
        "select_type",
        "select-delete",
        "DELETE",
        "info",
        None,
        "M_EXPLAIN_80",
        "The table rows are deleted from",
        "MySQL 5.7+ labels the table of a DELETE this way (MariaDB prints SIMPLE for a single-table DELETE). "
        "The access type tells how the rows to delete are located; a full scan here locks and reads every row.",
    ),
    (
        "select_type",
        "select-replace",
        "REPLACE",
        "info",
        None,
        "M_EXPLAIN_80",
        "The target table of a REPLACE",
        "EXPLAIN of REPLACE shows the table written to on this row; any cost is in the rows that read data for it.",
    ),
    # --- type (join type / access method) ----------------------------------------------------
    (
        "type",
        "type-system",
        "system",
        "good",
        None,
        "KB_EXPLAIN",
        "A table with at most one row",
        "The table holds zero or one row, so reading it is essentially free. It is a special case of const.",
    ),
    (
        "type",
        "type-const",
        "const",
        "good",
        None,
        "KB_EXPLAIN",
        "At most one row, found through a primary or unique key",
        "The WHERE clause pins every column of a primary or unique key to a constant, so the server reads that one row "
        "while planning and treats its values as constants afterwards. This is the cheapest real lookup.",
    ),
    (
        "type",
        "type-eq-ref",
        "eq_ref",
        "good",
        None,
        "KB_EXPLAIN",
        "One row per row of the previous tables, through a unique key",
        "For each combination of rows read so far, exactly one row of this table is fetched via a primary or unique "
        "NOT NULL index. This is the best join access there is.",
    ),
    (
        "type",
        "type-ref",
        "ref",
        "good",
        None,
        "KB_EXPLAIN",
        "Index lookup that can return several rows",
        "Rows are fetched through a non-unique index, or through the leftmost part of a unique one, using the values "
        "in the ref column. Good as long as each looked-up value matches few rows (see the rows column).",
    ),
    (
        "type",
        "type-ref-or-null",
        "ref_or_null",
        "info",
        None,
        "M_ISNULL",
        "Index lookup plus a second pass for NULL",
        "Like ref, but the server also looks up rows where the key is NULL, typical for col = value OR col IS NULL "
        "and some NOT IN subqueries. Fine; declaring the column NOT NULL removes the extra pass when NULLs cannot occur.",
    ),
    (
        "type",
        "type-fulltext",
        "fulltext",
        "info",
        None,
        "KB_EXPLAIN",
        "Search through a FULLTEXT index",
        "The rows come from a MATCH ... AGAINST search on a FULLTEXT index. Its cost depends on how many documents "
        "match the search terms.",
    ),
    (
        "type",
        "type-index-merge",
        "index_merge",
        "info",
        None,
        "M_INDEX_MERGE",
        "Several indexes on one table combined",
        "The server ran range scans on more than one index of this table and merged the row ids (see the union, "
        "sort_union or intersect item in Extra). It beats a full scan, but a single composite index covering "
        "the conditions is often faster still.",
    ),
    (
        "type",
        "type-unique-subquery",
        "unique_subquery",
        "info",
        None,
        "M_EXISTS_80",
        "IN subquery answered by a unique-key lookup",
        "The subquery in value IN (SELECT key ...) was turned into a direct lookup in a primary or unique index, "
        "one probe per outer row. Cheap per probe, though it still runs once per outer row.",
    ),
    (
        "type",
        "type-index-subquery",
        "index_subquery",
        "info",
        None,
        "M_EXISTS_80",
        "IN subquery answered by a non-unique index lookup",
        "The IN subquery was replaced by probes into a non-unique index, one per outer row. "
        "Reasonable when the probed values match few rows.",
    ),
    (
        "type",
        "type-range",
        "range",
        "good",
        None,
        "M_RANGE",
        "Index range scan",
        "Only the index entries in one or more ranges are read (from =, IN, BETWEEN, <, >, LIKE 'prefix%' and so on). "
        "Usually efficient; the rows column tells how wide the ranges are.",
    ),
    (
        "type",
        "type-index",
        "index",
        "warning",
        None,
        "KB_EXPLAIN",
        "Full scan of an index",
        "Every entry of the index is read in index order. With Using index in Extra only the index is touched, which "
        "is cheaper than a table scan; without it each entry also fetches its row, which can be slower than type ALL. "
        "A condition the index can narrow, or an ORDER BY ... LIMIT, avoids reading all of it.",
    ),
    (
        "type",
        "type-all",
        "ALL",
        "bad",
        None,
        "KB_EXPLAIN",
        "Every row of the table is read",
        "Every row of the table is read and checked. Harmless on small tables, costly on large ones, and "
        "multiplied when the table is not the first of a join. Add an index on the columns used in WHERE or in "
        "the join condition so the server can look rows up instead.",
    ),
    (
        "type",
        "type-hash-all",
        "hash_ALL",
        "info",
        None,
        "KB_BLOCK_JOIN",
        "Hash join over a full table scan",
        "MariaDB (join_cache_level 3 or higher) scans the table once and matches rows through a hash table built in "
        "the join buffer, shown with a #hash# key. Better than scanning it for every outer row, but an index on "
        "the join column would allow direct lookups.",
    ),
    (
        "type",
        "type-hash-range",
        "hash_range",
        "info",
        None,
        "KB_BLOCK_JOIN",
        "Hash join over a range scan",
        "MariaDB reads this table with a range scan and joins it through a hash table in the join buffer. "
        "Needs join_cache_level 3 or higher.",
    ),
    (
        "type",
        "type-hash-index",
        "hash_index",
        "info",
        None,
        "KB_BLOCK_JOIN",
        "Hash join over a full index scan",
        "MariaDB reads this table through a whole index and joins it through a hash table in the join buffer. "
        "Needs join_cache_level 3 or higher.",
    ),
    (
        "type",
        "type-hash-index-merge",
        "hash_index_merge",
        "info",
        None,
        "KB_BLOCK_JOIN",
        "Hash join over an index merge",
        "MariaDB reads this table with an index merge and joins it through a hash table in the join buffer. Rare.",
    ),
    (
        "type",
        "type-rowid-filter",
        "…|filter",
        "good",
        r"(?:[a-z_]+\|)?filter",
        "D_ROWID",
        "Rowid filter attached to the access",
        "MariaDB 10.4+ prints eq_ref|filter, ref|filter or range|filter when it first collects the row ids matching "
        "a second index's condition and then skips rows not in that set before reading them. The key column shows "
        "both indexes (main|filter) and rows shows the filter's selectivity in parentheses. A cheap way to read fewer rows.",
    ),
    (
        "type",
        "type-null",
        "NULL",
        "info",
        None,
        "KB_EXPLAIN",
        "No table access on this row",
        "The row does not read a table: the optimizer settled it while planning (see Extra, for example No tables used, "
        "Select tables optimized away or Impossible WHERE).",
    ),
    # --- Extra ------------------------------------------------------------------------------------
    (
        "extra",
        "extra-using-where",
        "Using where",
        "info",
        None,
        "KB_EXPLAIN",
        "Rows are filtered after they are read",
        "The server checks a condition on each row the access method returns and drops the ones that fail. "
        "Normal on its own; next to a full scan (type ALL or index) with many rows it means most of the reading is "
        "wasted, and an index on the filtered columns would help.",
    ),
    (
        "extra",
        "extra-using-index",
        "Using index",
        "good",
        None,
        "KB_EXPLAIN",
        "Covering index: the table rows are never read",
        "Every column the query needs from this table is in the index, so the server answers from the index alone. "
        "This is what you aim for on hot queries.",
    ),
    (
        "extra",
        "extra-using-index-condition",
        "Using index condition",
        "good",
        None,
        "M_ICP_80",
        "Index condition pushdown",
        "Part of the WHERE clause is checked by the storage engine on index entries before it reads the full rows, "
        "so rows that would fail are never fetched (MySQL 5.6+, MariaDB 5.3+).",
    ),
    (
        "extra",
        "extra-using-index-condition-bka",
        "Using index condition(BKA)",
        "good",
        r"Using index condition ?\(BKA\)",
        "KB_BLOCK_JOIN",
        "Index condition pushdown inside a batched key access join",
        "MariaDB checks the pushed-down index condition while it performs the batched lookups of a BKA join, "
        "so non-matching rows are skipped before they are read.",
    ),
    (
        "extra",
        "extra-using-temporary",
        "Using temporary",
        "warning",
        None,
        "M_TMP_80",
        "An internal temporary table is needed",
        "To resolve GROUP BY, DISTINCT, UNION or an ORDER BY on another column set, the server writes intermediate rows "
        "to a temporary table, in memory or on disk when large. An index matching the GROUP BY or DISTINCT columns "
        "often removes it; otherwise keep the row count small.",
    ),
    (
        "extra",
        "extra-using-filesort",
        "Using filesort",
        "warning",
        None,
        "M_ORDERBY",
        "Rows are sorted in a separate pass",
        "No index delivers the rows in the ORDER BY (or GROUP BY) order, so the server collects and sorts them itself, "
        "spilling to disk when they do not fit in the sort buffer. An index whose columns match the ORDER BY, "
        "after the equality conditions, lets the server read rows already sorted.",
    ),
    (
        "extra",
        "extra-using-join-buffer",
        "Using join buffer",
        "warning",
        None,
        "M_NLJ",
        "Join through a join buffer (older servers)",
        "MySQL up to 5.5 and MariaDB up to 5.2 print this when they buffer rows of earlier tables and scan this table "
        "once per buffer-full, because no index serves the join. Add an index on the join columns of this table.",
    ),
    (
        "extra",
        "extra-join-buffer-block-nested-loop",
        "Using join buffer (Block Nested Loop)",
        "warning",
        None,
        "M_BNL_BKA",
        "Block nested-loop join: no index for this join",
        "MySQL 5.6-8.0.19 keeps rows of the previous tables in a buffer and scans this table once per buffer-full. "
        "It means the join condition has no usable index on this table; adding one turns the join into lookups. "
        "(MySQL 8.0.18 and 8.0.19 print this even when they actually run a hash join.)",
    ),
    (
        "extra",
        "extra-join-buffer-batched-key-access",
        "Using join buffer (Batched Key Access)",
        "info",
        None,
        "M_BNL_BKA",
        "Batched key access join",
        "MySQL collects join keys from the previous tables and looks them up in this table's index in batches, in a "
        "disk-friendly order (needs optimizer_switch batched_key_access=on). An index is used, so this is fine.",
    ),
    (
        "extra",
        "extra-join-buffer-batched-key-access-unique",
        "Using join buffer (Batched Key Access (unique))",
        "info",
        None,
        "M_BNL_BKA",
        "Batched key access join on a unique key",
        "The batched key access variant MySQL 5.6/5.7 use when each key finds at most one row. An index is used.",
    ),
    (
        "extra",
        "extra-join-buffer-hash-join",
        "Using join buffer (hash join)",
        "info",
        None,
        "M_HASHJOIN_80",
        "Hash join: no index for this join",
        "MySQL 8.0.20+ builds a hash table from one input and probes it with the other, which it does when no index "
        "fits the join condition. Much faster than the old block nested loop, yet for selective joins an index on "
        "the join columns is usually better still.",
    ),
    (
        "extra",
        "extra-join-buffer-bnl",
        "Using join buffer (flat, BNL join)",
        "warning",
        r"Using join buffer \((?:flat|incremental), BNL join\)",
        "KB_BLOCK_JOIN",
        "Block nested-loop join in MariaDB: no index for this join",
        "MariaDB buffers rows of the earlier tables (flat buffer, or incremental when it chains to the previous "
        "buffer) and scans this table once per buffer-full because no index fits the join condition. "
        "Add an index on this table's join columns.",
    ),
    (
        "extra",
        "extra-join-buffer-bnlh",
        "Using join buffer (flat, BNLH join)",
        "info",
        r"Using join buffer \((?:flat|incremental), BNLH join\)",
        "KB_BLOCK_JOIN",
        "Hash join in MariaDB",
        "MariaDB builds a hash table on the buffered rows and matches this table against it (join_cache_level 3 or "
        "higher; the type column starts with hash_). No index serves the join, but each scan is cheap per row.",
    ),
    (
        "extra",
        "extra-join-buffer-bka",
        "Using join buffer (flat, BKA join)",
        "info",
        r"Using join buffer \((?:flat|incremental), BKA join\)",
        "KB_BLOCK_JOIN",
        "Batched key access join in MariaDB",
        "MariaDB collects join keys in the buffer and looks them up in this table's index in batches through "
        "Multi-Range Read (join_cache_level 5 or higher). An index is used; this is a throughput optimization.",
    ),
    (
        "extra",
        "extra-join-buffer-bkah",
        "Using join buffer (flat, BKAH join)",
        "info",
        r"Using join buffer \((?:flat|incremental), BKAH join\)",
        "KB_BLOCK_JOIN",
        "Hashed batched key access join in MariaDB",
        "A batched key access join that hashes the buffered keys first (join_cache_level 7 or 8). An index is used.",
    ),
    (
        "extra",
        "extra-using-mrr",
        "Using MRR",
        "good",
        None,
        "M_MRR",
        "Multi-Range Read",
        "MySQL gathers the row ids found in the index and reads the rows in storage order, which turns random "
        "reads into mostly sequential ones. Helpful on disk-bound range and ref access.",
    ),
    (
        "extra",
        "extra-rowid-ordered-scan",
        "Rowid-ordered scan",
        "good",
        None,
        "D_MRR",
        "Multi-Range Read sorted by row id",
        "MariaDB sorts the row ids found in the index before fetching the rows, so the table is read in storage order.",
    ),
    (
        "extra",
        "extra-key-ordered-scan",
        "Key-ordered scan",
        "good",
        None,
        "D_MRR",
        "Multi-Range Read sorted by key",
        "MariaDB sorts the lookup keys before probing the index, so index pages are visited in order (mrr_sort_keys).",
    ),
    (
        "extra",
        "extra-key-ordered-rowid-ordered-scan",
        "Key-ordered Rowid-ordered scan",
        "good",
        None,
        "D_MRR",
        "Multi-Range Read sorted by key and by row id",
        "MariaDB sorts both the lookup keys and the resulting row ids, so index and table are both read in order.",
    ),
    (
        "extra",
        "extra-using-intersect",
        "Using intersect(…)",
        "info",
        rf"Using intersect{_ARGS}",
        "M_INDEX_MERGE",
        "Index merge: intersection",
        "Conditions combined with AND are each served by a different index, and only rows found by all of them are "
        "read. A composite index covering those columns is usually faster than the merge.",
    ),
    (
        "extra",
        "extra-using-union",
        "Using union(…)",
        "info",
        rf"Using union{_ARGS}",
        "M_INDEX_MERGE",
        "Index merge: union",
        "Equality conditions combined with OR are each served by their own index and the row ids are merged. "
        "Usually better than a full scan; a UNION of two indexed queries is an alternative.",
    ),
    (
        "extra",
        "extra-using-sort-union",
        "Using sort_union(…)",
        "info",
        rf"Using sort_union{_ARGS}",
        "M_INDEX_MERGE",
        "Index merge: union with sorted row ids",
        "Range conditions combined with OR each use their own index; the row ids are sorted and deduplicated before "
        "the rows are read. Costs more than a plain union merge when the ranges are wide.",
    ),
    (
        "extra",
        "extra-using-sort-intersect",
        "Using sort_intersect(…)",
        "info",
        rf"Using sort_intersect{_ARGS}",
        "D_SORT_INTERSECT",
        "Index merge: intersection of ranges",
        "MariaDB intersects row ids from range scans on several indexes after sorting them (optimizer_switch "
        "index_merge_sort_intersection, off by default). A composite index is usually the better fix.",
    ),
    (
        "extra",
        "extra-using-index-for-group-by",
        "Using index for group-by",
        "good",
        None,
        "M_GROUPBY",
        "Loose index scan for GROUP BY, DISTINCT, MIN or MAX",
        "The server jumps through the index, reading only the first or last entry of each group instead of every row. "
        "This is the cheapest way to answer these queries.",
    ),
    (
        "extra",
        "extra-using-index-for-group-by-scanning",
        "Using index for group-by (scanning)",
        "good",
        None,
        "M_GROUPBY",
        "Loose index scan that reads more of each group",
        "A loose index scan variant that walks through more entries of each group, used for aggregates such as "
        "COUNT(DISTINCT ...). Still index-only.",
    ),
    (
        "extra",
        "extra-using-index-for-skip-scan",
        "Using index for skip scan",
        "good",
        None,
        "M_RANGE",
        "Skip scan on a composite index",
        "MySQL 8.0.13+ uses a composite index even though the query has no condition on its first column: it visits "
        "each distinct value of that column and range-scans the rest. Works well when the first column has few values.",
    ),
    (
        "extra",
        "extra-range-checked-for-each-record",
        "Range checked for each record (index map: 0x…)",
        "warning",
        r"Range checked for each record \(index map: ?(?:0x)?[0-9a-f]*\)",
        "KB_EXPLAIN",
        "Access method chosen again for every row of the previous tables",
        "No index looked good while planning, so for each row from the earlier tables the server re-evaluates which "
        "index (listed as a bit map) to use. It signals a join condition the optimizer cannot plan well, such as a "
        "range on a column of another table; an index matching the condition or a rewrite avoids it.",
    ),
    (
        "extra",
        "extra-using-rowid-filter",
        "Using rowid filter",
        "good",
        None,
        "D_ROWID",
        "Rows are pre-filtered by a second index",
        "MariaDB 10.4+ built a set of row ids from another index's condition and skips rows outside it before reading "
        "them; it pairs with a type ending in |filter. Fewer full-row reads.",
    ),
    (
        "extra",
        "extra-backward-index-scan",
        "Backward index scan",
        "good",
        None,
        "M_DESC_IDX",
        "Index read in reverse order",
        "MySQL 8.0+ reads the index from the end to deliver rows in descending order, which avoids a sort.",
    ),
    (
        "extra",
        "extra-distinct",
        "Distinct",
        "good",
        None,
        "KB_EXPLAIN",
        "Stops after the first match",
        "For DISTINCT queries the server stops reading this table for the current row combination as soon as it "
        "finds one matching row.",
    ),
    (
        "extra",
        "extra-not-exists",
        "Not exists",
        "good",
        None,
        "KB_EXPLAIN",
        "Anti-join shortcut",
        "For a LEFT JOIN ... WHERE right_side.col IS NULL, the server stops looking in this table as soon as one "
        "match is found, because such a row cannot be in the result.",
    ),
    (
        "extra",
        "extra-full-scan-on-null-key",
        "Full scan on NULL key",
        "warning",
        None,
        "M_EXISTS_80",
        "Fallback to a full scan when the outer value is NULL",
        "An IN subquery normally looks values up in an index, but when the outer expression is NULL it must scan the "
        "subquery table in full. Declaring the compared columns NOT NULL, or filtering NULLs out, avoids it.",
    ),
    (
        "extra",
        "extra-firstmatch",
        "FirstMatch(…)",
        "good",
        rf"FirstMatch(?:{_ARGS})?",
        "KB_FIRSTMATCH",
        "Semi-join by first match",
        "The IN or EXISTS subquery was flattened into the join; once one matching row is found, the server jumps back "
        "to the table named in parentheses instead of looking for more matches.",
    ),
    (
        "extra",
        "extra-loosescan",
        "LooseScan",
        "good",
        rf"LooseScan(?:{_ARGS})?",
        "D_LOOSESCAN",
        "Semi-join by loose index scan",
        "The subquery table is read through an index, taking only the first row of each distinct key value, "
        "so each value is joined once and no duplicates arise.",
    ),
    (
        "extra",
        "extra-start-temporary",
        "Start temporary",
        "info",
        None,
        "D_DUPWEEDOUT",
        "Start of a duplicate weedout range",
        "A flattened subquery may produce duplicate outer rows; from this table on, row ids are recorded in a "
        "temporary table so duplicates can be removed. Costs more than FirstMatch or LooseScan when many rows match.",
    ),
    (
        "extra",
        "extra-end-temporary",
        "End temporary",
        "info",
        None,
        "D_DUPWEEDOUT",
        "End of a duplicate weedout range",
        "Rows reaching this table are checked against the temporary table of row ids started by Start temporary and "
        "dropped if already seen.",
    ),
    (
        "extra",
        "extra-materialize",
        "Materialize",
        "info",
        None,
        "D_SJMAT",
        "Subquery materialization marker",
        "An older marker for semi-join materialization: the subquery result is stored in a temporary table "
        "before the join uses it.",
    ),
    (
        "extra",
        "extra-start-materialize",
        "Start materialize",
        "info",
        None,
        "D_SJMAT",
        "Start of a materialized subquery",
        "Marks the first table whose rows are written into a semi-join materialization temporary table.",
    ),
    (
        "extra",
        "extra-end-materialize",
        "End materialize",
        "info",
        None,
        "D_SJMAT",
        "End of a materialized subquery",
        "Marks the last table whose rows are written into a semi-join materialization temporary table.",
    ),
    (
        "extra",
        "extra-scan",
        "Scan",
        "info",
        None,
        "D_SJMAT",
        "Scan of a materialized subquery",
        "The materialized subquery table is read in full rather than probed by key.",
    ),
    (
        "extra",
        "extra-impossible-where",
        "Impossible WHERE",
        "info",
        None,
        "KB_EXPLAIN",
        "The WHERE clause can never be true",
        "The optimizer proved from the conditions alone that no row qualifies, so nothing is read. Quick, but check "
        "the query: contradicting conditions are often a bug.",
    ),
    (
        "extra",
        "extra-impossible-where-const",
        "Impossible WHERE noticed after reading const tables",
        "info",
        None,
        "KB_EXPLAIN",
        "No row can match once the single-row tables were read",
        "After reading the tables that have at most one matching row, the server saw the WHERE clause cannot hold, "
        "so the rest of the query is skipped.",
    ),
    (
        "extra",
        "extra-impossible-having",
        "Impossible HAVING",
        "info",
        None,
        "KB_EXPLAIN",
        "The HAVING clause can never be true",
        "No group can pass the HAVING condition, so the result is empty without reading rows.",
    ),
    (
        "extra",
        "extra-impossible-on-condition",
        "Impossible ON condition",
        "info",
        None,
        "M_OUTPUT_80",
        "An outer join's ON condition is always false",
        "For a single-row table on the inner side of an outer join, the ON condition cannot match, so the joined "
        "columns come out as NULL without a read.",
    ),
    (
        "extra",
        "extra-no-tables-used",
        "No tables used",
        "info",
        None,
        "KB_EXPLAIN",
        "The query reads no table",
        "There is no FROM clause (or only FROM DUAL), so the result is computed directly.",
    ),
    (
        "extra",
        "extra-select-tables-optimized-away",
        "Select tables optimized away",
        "good",
        None,
        "KB_EXPLAIN",
        "Answered while planning",
        "An aggregate such as MIN(), MAX() or, for some engines, COUNT(*) was resolved from an index or table "
        "statistics, so the query reads no rows when it runs.",
    ),
    (
        "extra",
        "extra-no-matching-min-max-row",
        "No matching min/max row",
        "info",
        None,
        "KB_EXPLAIN",
        "No row for MIN() or MAX()",
        "The MIN()/MAX() shortcut looked in the index and found no row satisfying the condition, so the result is NULL.",
    ),
    (
        "extra",
        "extra-no-matching-row-in-const-table",
        "no matching row in const table",
        "info",
        None,
        "KB_EXPLAIN",
        "A single-row lookup found nothing",
        "A table read by primary or unique key while planning returned no row, so the join produces an empty result.",
    ),
    (
        "extra",
        "extra-const-row-not-found",
        "const row not found",
        "info",
        None,
        "KB_EXPLAIN",
        "The single-row table is empty",
        "A table treated as having at most one row (system type) turned out to be empty.",
    ),
    (
        "extra",
        "extra-unique-row-not-found",
        "unique row not found",
        "info",
        None,
        "KB_EXPLAIN",
        "A unique-key lookup found nothing",
        "A lookup on a primary or unique key for a single-row table matched no row.",
    ),
    (
        "extra",
        "extra-no-matching-rows-after-partition-pruning",
        "No matching rows after partition pruning",
        "good",
        None,
        "M_OUTPUT_80",
        "Every partition was pruned",
        "For this UPDATE or DELETE, partition pruning left no partition that could contain matching rows, "
        "so nothing is read.",
    ),
    (
        "extra",
        "extra-deleting-all-rows",
        "Deleting all rows",
        "info",
        None,
        "M_OUTPUT_80",
        "DELETE without WHERE uses the engine's fast path",
        "The engine can empty the table in one operation instead of deleting row by row. "
        "TRUNCATE TABLE is the explicit way to do the same.",
    ),
    (
        "extra",
        "extra-zero-limit",
        "Zero limit",
        "info",
        None,
        "M_OUTPUT_80",
        "LIMIT 0",
        "The query asks for no rows, so the server reads nothing.",
    ),
    (
        "extra",
        "extra-using-where-with-pushed-condition",
        "Using where with pushed condition",
        "good",
        None,
        "KB_EXPLAIN",
        "Condition evaluated by the storage engine",
        "The WHERE condition is sent to the engine (engine condition pushdown, for example NDB or Spider), "
        "so rows that fail it are not shipped back to the server.",
    ),
    (
        "extra",
        "extra-using-pushed-condition",
        "Using pushed condition …",
        "good",
        r"Using pushed condition(?: .*)?",
        "M_OUTPUT_80",
        "NDB Cluster evaluates the condition on its data nodes",
        "MySQL NDB Cluster evaluates the shown condition on the data nodes, so fewer rows cross the network.",
    ),
    (
        "extra",
        "extra-parent-of-pushed-join",
        "Parent of N pushed join@M",
        "good",
        r"Parent of \d+ pushed join@\d+",
        "M_OUTPUT_80",
        "Root of a join pushed to NDB",
        "MySQL NDB Cluster runs this table and the listed number of child tables as one join on the data nodes.",
    ),
    (
        "extra",
        "extra-child-of-pushed-join",
        "Child of 'tbl' in pushed join@M",
        "good",
        r"Child of '[^']*' in pushed join@\d+",
        "M_OUTPUT_80",
        "Part of a join pushed to NDB",
        "MySQL NDB Cluster joins this table to the named parent on the data nodes instead of in the SQL node.",
    ),
    (
        "extra",
        "extra-using-buffer",
        "Using buffer",
        "info",
        None,
        "D_AE_IDX",
        "UPDATE collects rows before changing them",
        "MariaDB first gathers the rows to update and then changes them, because updating while scanning the same "
        "index could visit a row twice. Harmless, but it means an extra pass over the matched rows.",
    ),
    (
        "extra",
        "extra-open-frm-only",
        "Open_frm_only",
        "info",
        None,
        "KB_EXPLAIN",
        "INFORMATION_SCHEMA query reads only table definitions",
        "Only the table definition is opened for each table listed, which is cheap.",
    ),
    (
        "extra",
        "extra-open-full-table",
        "Open_full_table",
        "warning",
        None,
        "KB_EXPLAIN",
        "INFORMATION_SCHEMA query opens every table fully",
        "Each listed table is fully opened, the slowest way to answer an INFORMATION_SCHEMA query. Restrict the query "
        "with TABLE_SCHEMA and TABLE_NAME conditions, or select fewer columns.",
    ),
    (
        "extra",
        "extra-open-trigger-only",
        "Open_trigger_only",
        "info",
        None,
        "KB_EXPLAIN",
        "INFORMATION_SCHEMA query reads only trigger definitions",
        "Only the trigger definitions of each table are read (MySQL 5.x).",
    ),
    (
        "extra",
        "extra-skip-open-table",
        "Skip_open_table",
        "good",
        None,
        "KB_EXPLAIN",
        "INFORMATION_SCHEMA query needs no table files",
        "The requested information comes from the directory listing, so no table is opened.",
    ),
    (
        "extra",
        "extra-scanned-databases",
        "Scanned N databases",
        "info",
        r"Scanned \d+ databases?",
        "KB_EXPLAIN",
        "INFORMATION_SCHEMA query looks into a few schema directories",
        "The number tells how many database directories are read; zero or one is cheap.",
    ),
    (
        "extra",
        "extra-scanned-all-databases",
        "Scanned all databases",
        "warning",
        None,
        "KB_EXPLAIN",
        "INFORMATION_SCHEMA query looks into every schema",
        "Every database directory is read. Add a TABLE_SCHEMA condition to limit the work.",
    ),
    (
        "extra",
        "extra-recursive",
        "Recursive",
        "info",
        None,
        "M_OUTPUT_80",
        "Recursive part of a WITH RECURSIVE query",
        "This row belongs to the block that repeats until it adds no new rows. Its cost grows with the number of "
        "iterations, so make sure the recursion stops early and its join uses an index.",
    ),
    (
        "extra",
        "extra-rematerialize",
        "Rematerialize (…)",
        "warning",
        rf"Rematerialize ?{_ARGS}",
        "M_LATERAL",
        "Lateral derived table rebuilt for each row",
        "For every row of this table the named LATERAL derived table is computed again (MySQL 8.0.14+). "
        "Acceptable for a few rows; with many, consider a join with GROUP BY or a window function instead.",
    ),
    (
        "extra",
        "extra-table-function",
        "Table function: json_table",
        "info",
        r"Table function: ?\S.*",
        "M_OUTPUT_80",
        "JSON_TABLE() result",
        "The rows come from JSON_TABLE(), which MySQL 8.0.4+ materializes into a temporary table before joining it. "
        "Its cost depends on the size of the JSON documents.",
    ),
    (
        "extra",
        "extra-ft-hints",
        "Ft_hints: …",
        "info",
        r"Ft_hints: ?.*",
        "M_OUTPUT_80",
        "Hints passed to the FULLTEXT search",
        "MySQL tells InnoDB how the FULLTEXT result will be used (sorted, no ranking, a rank threshold or a limit) "
        "so it can do less work.",
    ),
    (
        "extra",
        "extra-using-secondary-engine",
        "Using secondary engine …",
        "info",
        r"Using secondary engine \S.*",
        "M_OUTPUT_80",
        "Query offloaded to a secondary engine",
        "MySQL runs the query in the named secondary engine (for example HeatWave) rather than in InnoDB, "
        "so the rest of this plan says little about its real cost.",
    ),
    (
        "extra",
        "extra-plan-not-ready",
        "Plan isn't ready yet",
        "info",
        r"Plan isn.t ready yet",
        "M_FOR_CONN",
        "The other connection has not finished planning",
        "EXPLAIN FOR CONNECTION caught the statement before its plan existed. Run it again a moment later.",
    ),
    (
        "extra",
        "extra-not-optimized-outer-empty",
        "Not optimized, outer query is empty",
        "info",
        None,
        "M_FOR_CONN",
        "Subquery skipped because the outer query is empty",
        "The outer query produces no rows, so this subquery was never planned or run.",
    ),
]


def _build(entry: tuple[str, str, str, str, str | None, str, str, str]) -> Term:
    column, slug, term, severity, pattern, url_id, title, explanation = entry
    regex = pattern if pattern is not None else re.escape(term)
    return Term(
        slug=slug,
        column=column,
        term=term,
        pattern=re.compile(rf"\A(?:{regex})\Z", re.IGNORECASE),
        severity=severity,
        title=title,
        explanation=explanation,
        url=_URLS[url_id],
    )


TERMS: tuple[Term, ...] = tuple(_build(e) for e in _ENTRIES)
BY_SLUG: dict[str, Term] = {t.slug: t for t in TERMS}

# Fast path: literal terms by (column, lower-cased text); argument-taking terms are tried in order.
_LITERAL: dict[tuple[str, str], Term] = {}
_PATTERNED: dict[str, list[Term]] = {c: [] for c in COLUMNS}
for _entry, _t in zip(_ENTRIES, TERMS, strict=True):
    if _entry[4] is None:
        _LITERAL[(_t.column, _t.term.lower())] = _t
    else:
        _PATTERNED[_t.column].append(_t)

_SPACES = re.compile(r"\s+")
_COLUMN_ALIASES = {"extra": "extra", "select_type": "select_type", "type": "type", "access_type": "type"}


def normalize(value: str) -> str:
    """The value as matched: surrounding space removed, inner runs of whitespace (NBSP too) made single spaces."""
    return _SPACES.sub(" ", value).strip()


def match(column: str, value: str | None) -> Term | None:
    """The glossary entry for one printed value of `column` ("select_type", "type" or "extra", any case).

    Returns None for unknown columns, unknown values and anything that is not a string.
    """
    if not isinstance(column, str) or not isinstance(value, str):
        return None
    # Plans repeat the same few short values; long ones skip the cache so it stays small.
    return _cached_lookup(column, value) if len(value) <= 200 else _lookup(column, value)


def _lookup(column: str, value: str) -> Term | None:
    col = _COLUMN_ALIASES.get(column.strip().lower())
    if col is None:
        return None
    text = normalize(value)
    if not text:
        return None
    found = _LITERAL.get((col, text.lower()))
    if found is not None:
        return found
    for term in _PATTERNED[col]:
        if term.pattern.match(text):
            return term
    return None


_cached_lookup = functools.lru_cache(maxsize=2048)(_lookup)
