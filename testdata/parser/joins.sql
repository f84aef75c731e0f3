SELECT o.id, c.name FROM orders o JOIN customers c ON o.cust_id = c.id
====
SELECT o.id, c.name FROM orders /*+ OPTIONS('scan.bounded'='false') */ AS o LEFT JOIN customers FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.cust_id = c.id AND c.x > 1 WHERE o.id > 2
====
SELECT s.a, COUNT(*) FROM (SELECT a FROM t WHERE b = 1) s GROUP BY s.a
====
SELECT a FROM t UNION ALL SELECT b FROM u UNION ALL SELECT 1
====
SELECT a FROM t UNION ALL SELECT b FROM u ORDER BY a DESC NULLS FIRST LIMIT 3
====
SELECT * FROM (SELECT a FROM t UNION ALL SELECT b FROM u) x WHERE x.a > 1
====
SELECT a FROM t UNION SELECT b FROM u
====
SELECT * FROM t, u
====
SELECT x.a FROM t
====
SELECT o.a FROM t o JOIN u ON o.a = z.b
====
SELECT * FROM t o RIGHT JOIN u ON o.a = u.b
====
SELECT * FROM t NATURAL JOIN u
====
SELECT * FROM (SELECT 1) s
====
SELECT * FROM t o JOIN u p ON o.a = p.b JOIN v q ON q.c = p.b
====
SELECT * FROM t JOIN u
====
SELECT * FROM t JOIN u USING (a)
====
SELECT * FROM t FOR SYSTEM_TIME AS OF
====
SELECT o.* FROM t o JOIN u ON o.a = u.a
====
SELECT * FROM a FULL OUTER JOIN b ON a.x = b.x
====
SELECT * FROM a CROSS JOIN b
====
SELECT * FROM (SELECT 1)
====
SELECT a FROM (SELECT a FROM t) WHERE a > 1
====
SELECT * FROM (SELECT a FROM t) JOIN (SELECT b FROM u) ON a = b
====
SELECT o.*, c.name FROM orders o JOIN customers c ON c.id = o.cust
====
SELECT z.* FROM t o JOIN u ON o.a = u.a
====
SELECT t.* FROM t
====
SELECT * FROM (SELECT a, b FROM t ORDER BY a NULLS LAST, b DESC NULLS FIRST LIMIT 3) s JOIN (SELECT c FROM u ORDER BY c DESC NULLS LAST LIMIT 1) v ON s.a = v.c ORDER BY b NULLS LAST, a
====
SELECT o.id, c.name FROM orders /*+ OPTIONS('a'='1') */ o JOIN db.customers /*+ OPTIONS('b'='2') */ AS c ON o.cust_id = c.id
====
SELECT o.id FROM orders o JOIN customers /*+ OPTIONS('b'='2') */ FOR SYSTEM_TIME AS OF o.proc_time AS c ON o.cust_id = c.id
====
SELECT * FROM (SELECT a FROM t /*+ OPTIONS('a'='1') */) s JOIN u /*+ OPTIONS('b'='2') */ ON s.a = u.a
====
SELECT a FROM t /*+ OPTIONS('a'='1') */ UNION ALL SELECT b FROM u /*+ OPTIONS('b'='2') */
====
SELECT o.id FROM orders /*+ OPTIONS('a'='1') */ /*+ OPTIONS('a'='2') */ o JOIN customers c ON o.id = c.id
====
SELECT o.id FROM orders o JOIN customers c /*+ OPTIONS('b'='2') */ ON o.id = c.id
====
(SELECT a FROM t) UNION ALL SELECT b FROM u
====
(SELECT a FROM t WHERE a > ?) UNION ALL (SELECT b FROM u) ORDER BY a LIMIT ?
====
(SELECT a FROM t ORDER BY a LIMIT 2) UNION ALL SELECT b FROM u /*+ OPTIONS('b'='2') */
====
(SELECT a FROM t)
====
EXPLAIN (SELECT a FROM t) UNION ALL SELECT b FROM u
====
(DELETE FROM t)
====
((SELECT a FROM t WHERE a > 1 LIMIT 2))
====
SELECT a FROM t UNION ALL (SELECT b FROM u ORDER BY b LIMIT 1) ORDER BY a
