"""EXPLAIN rows programs printed, read before the other readers: `printed` tries each kind, the
MariaDB slow query log's plans (`slow_log`) and rows dumped as data by PHP (`php_dump`), Go
(`go_dump`) and as JSON, Python, Node or Ruby literals (`literal_dump`), all sharing `records`."""
