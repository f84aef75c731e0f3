-- A 3-way comma join listed in an order that needs reordering: events shares no equality with logs.
SELECT l.id, e.region, m.host FROM logs l, events e, metrics m WHERE l.id = m.id AND m.v = e.id AND l.level > 1
====
SELECT l.id, u.name FROM logs l, users u WHERE u.user_id = l.level AND u.score > 10
====
-- TPC-H Q19's shape: the equality common to every branch of the OR is the join key.
SELECT l.id FROM logs l, metrics m WHERE (l.id = m.id AND m.host = 'a' AND l.level = 1) OR (l.id = m.id AND m.host = 'b' AND l.level = 2)
====
-- A cross join: a nested-loop join.
SELECT a.id, b.id FROM logs a, metrics b
====
SELECT a.id, b.id FROM logs a, metrics b WHERE a.level < b.v
====
SELECT a.id FROM logs a, metrics b JOIN logs c ON b.id = c.id WHERE a.id = c.id
====
SELECT a.id FROM logs a CROSS JOIN metrics b
====
SELECT t.a, t.b FROM (SELECT id, msg FROM logs) AS t (a, b) WHERE t.a > 1
====
SELECT t.a FROM (SELECT id, msg FROM logs) AS t (a)
====
WITH r (k, n) AS (SELECT level, COUNT(*) FROM logs GROUP BY level) SELECT r.k, r.n, r2.n FROM r, r AS r2 WHERE r.k = r2.k
====
WITH a AS (SELECT id, level FROM logs WHERE level > 1), b AS (SELECT id FROM a WHERE id < 10) SELECT a.level FROM a, b WHERE a.id = b.id
====
WITH revenue0 (supplier_no, total_revenue) AS (SELECT id, SUM(v) FROM metrics GROUP BY id) SELECT l.id, total_revenue FROM logs l, revenue0 WHERE l.id = supplier_no ORDER BY l.id
====
SELECT id FROM logs UNION SELECT id FROM metrics
====
SELECT id FROM logs INTERSECT SELECT id FROM metrics
====
SELECT id FROM logs INTERSECT ALL SELECT id FROM metrics
====
SELECT id FROM logs EXCEPT SELECT id FROM metrics ORDER BY id LIMIT 3
====
SELECT id FROM logs EXCEPT ALL SELECT id FROM metrics
====
SELECT id FROM logs UNION ALL SELECT id FROM metrics INTERSECT SELECT level FROM logs
====
SELECT id, msg FROM logs INTERSECT SELECT id FROM metrics
====
SELECT a.id FROM logs a LEFT JOIN metrics b ON a.level < b.v
====
-- bind: 3
WITH a AS (SELECT id, level FROM logs WHERE level = ?) SELECT a.id FROM a, a AS b WHERE a.id = b.id
====
SELECT t.n FROM (WITH c (n) AS (SELECT COUNT(*) FROM logs) SELECT n FROM c) t
====
SELECT l.id FROM logs l, metrics m, users u WHERE l.id = m.id AND u.user_id = m.id AND u.name = 'x'
====
-- SELECT * lists the columns in the written order, whatever the join order.
SELECT * FROM logs l, events e, metrics m WHERE l.id = m.id AND m.v = e.id
====
-- A parenthesised comma list inside a JOIN is ordered and keyed by the conjuncts that reach it, as a FROM list is.
SELECT a.id FROM (logs a, metrics b) JOIN users u ON u.user_id = b.id WHERE a.id = b.id
====
-- users' key is equated with a column of logs: users is looked up, though written first.
SELECT * FROM users u, logs l WHERE u.user_id = l.level AND l.id > 5
====
SELECT u.name, l.id FROM logs l, users u, metrics m WHERE u.user_id = m.id AND m.v = l.id
====
SELECT id FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ INTERSECT SELECT id FROM metrics
====
-- The comma list starts from the table with the most buckets (logs: 2), which the join streams; alltypes (1 bucket) is held as the build side; SELECT * keeps the written column order.
SELECT * FROM alltypes a, logs l WHERE a.bi = l.id AND a.i > 0
====
-- A primary-key table whose key is given is looked up, not the start, though it has the most buckets (users: 3).
SELECT l.id, u.name, a.s FROM alltypes a, users u, logs l WHERE u.user_id = l.level AND a.bi = l.id
====
-- An OR of per-table conditions filters each table's read by what every branch says about it (TPC-H Q7), but not the NULL-filled side of a LEFT JOIN; the whole OR is still evaluated after the join.
SELECT l.id FROM logs l LEFT JOIN metrics m ON l.id = m.id WHERE (m.host = 'a' AND l.level = 1) OR (m.host = 'b' AND l.level = 2)
