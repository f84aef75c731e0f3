SELECT a.x, b.y, c.z FROM a, b, c WHERE a.x = b.x AND b.y = c.y
====
SELECT * FROM part, supplier, lineitem WHERE p_partkey = l_partkey AND s_suppkey = l_suppkey
====
SELECT * FROM a, b JOIN c ON b.k = c.k WHERE a.k = b.k
====
SELECT * FROM (a, b) WHERE a.k = b.k
====
SELECT c_count, COUNT(*) AS custdist FROM (SELECT c_custkey, COUNT(o_orderkey) FROM customer LEFT JOIN orders ON c_custkey = o_custkey GROUP BY c_custkey) AS c_orders (c_custkey, c_count) GROUP BY c_count ORDER BY custdist DESC, c_count DESC
====
SELECT t.a FROM (SELECT x, y FROM u) t (a, b)
====
SELECT t.a FROM (SELECT x, y FROM u) t (a, a)
====
WITH revenue0 (supplier_no, total_revenue) AS (SELECT l_suppkey, SUM(l_extendedprice * (1 - l_discount)) FROM lineitem WHERE l_shipdate >= DATE '1996-01-01' GROUP BY l_suppkey) SELECT s_suppkey, s_name, total_revenue FROM supplier, revenue0 WHERE s_suppkey = supplier_no ORDER BY s_suppkey
====
WITH a AS (SELECT x FROM t), b AS (SELECT x FROM a WHERE x > 1) SELECT * FROM a, b AS b2 WHERE a.x = b2.x
====
EXPLAIN WITH a AS (SELECT x FROM t) SELECT * FROM a UNION ALL SELECT * FROM a ORDER BY x LIMIT 3
====
WITH a AS (SELECT x FROM t) SELECT * FROM a, a AS a2
====
WITH a AS SELECT 1
====
WITH RECURSIVE a AS (SELECT 1) SELECT * FROM a
====
SELECT * FROM (WITH a AS (SELECT 1) SELECT * FROM a) t
====
WITH a AS (SELECT x FROM t) SELECT * FROM (WITH b (y) AS (SELECT x FROM a) SELECT y FROM b, a WHERE a.x = b.y)
====
SELECT x FROM u UNION (WITH b AS (SELECT x FROM t) SELECT x FROM b)
====
SELECT x FROM u WITH b
====
SELECT x FROM a UNION SELECT x FROM b
====
SELECT x FROM a UNION DISTINCT SELECT x FROM b UNION ALL SELECT x FROM c
====
SELECT x FROM a INTERSECT SELECT x FROM b
====
SELECT x FROM a INTERSECT ALL SELECT x FROM b EXCEPT ALL SELECT x FROM c
====
SELECT x FROM a UNION SELECT x FROM b INTERSECT SELECT x FROM c
====
SELECT x FROM a EXCEPT (SELECT x FROM b UNION SELECT x FROM c) ORDER BY x LIMIT 2
====
(SELECT x FROM a EXCEPT SELECT x FROM b) INTERSECT SELECT x FROM c
====
SELECT x FROM a EXCEPT SELECT x FROM b EXCEPT SELECT x FROM c
====
SELECT * FROM (SELECT x FROM a INTERSECT SELECT x FROM b) AS t (y) WHERE y > 0
====
SELECT x FROM a INTERSECT 1
====
WITH a AS (SELECT x FROM t WHERE) SELECT * FROM a
====
WITH a AS (SELECT x FROM t) SELECT * FROM db.a, a
====
WITH a AS (SELECT x FROM t), a AS (SELECT 1) SELECT * FROM a
====
WITH a (x, y AS (SELECT x FROM t) SELECT * FROM a
====
WITH a AS (SELECT x FROM t) SELECT b.x FROM a
====
WITH a AS (SELECT x FROM t) SELECT * FROM a WHERE x = ? AND x IN (SELECT x FROM a WHERE x > ?)
====
SELECT a.x, b.y FROM a /*+ OPTIONS('scan.startup.mode' = 'latest') */, b /*+ OPTIONS('scan.startup.mode' = 'earliest') */ WHERE a.x = b.x
====
SELECT x, y /*+ OPTIONS('scan.startup.mode' = 'latest') */ FROM a
====
WITH a AS (SELECT t.x, q.* FROM t) SELECT * FROM a
====
WITH a AS (SELECT x FROM t) SELECT a.x, q.* FROM a
