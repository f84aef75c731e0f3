SELECT a FROM t WHERE a IN (SELECT b FROM u)
====
SELECT a FROM t WHERE a NOT IN (SELECT b FROM u WHERE b IS NOT NULL)
====
SELECT a FROM t AS l1 WHERE EXISTS (SELECT * FROM t AS l2 WHERE l2.k = l1.k AND l2.s <> l1.s)
====
SELECT a FROM t AS l1 WHERE NOT EXISTS (SELECT * FROM t AS l3 WHERE l3.k = l1.k AND l3.r > l3.c)
====
SELECT k, SUM(v) AS s FROM t GROUP BY k HAVING SUM(v) > (SELECT SUM(v) * 0.0001 FROM t)
====
SELECT a, (SELECT MAX(b) FROM u) AS m FROM t
====
SELECT p.id FROM part AS p JOIN lineitem AS l ON l.pk = p.id WHERE l.q < (SELECT 0.2 * AVG(q) FROM lineitem WHERE pk = p.id)
====
SELECT s FROM supplier WHERE s IN (SELECT ps FROM partsupp WHERE pk IN (SELECT id FROM part WHERE name LIKE 'forest%') AND avail > (SELECT 0.5 * SUM(q) FROM lineitem WHERE lpk = partsupp.pk AND ls = partsupp.ps))
====
SELECT a FROM t WHERE a = ? AND EXISTS (SELECT 1 FROM u WHERE u.b = ?)
====
SELECT a FROM t WHERE a IN (SELECT b FROM u UNION ALL SELECT c FROM v)
====
SELECT a FROM t WHERE a IN (SELECT b FROM u WHERE nosuch.x = 1)
====
SELECT a FROM t WHERE (a, b) IN (SELECT b, c FROM u)
====
SELECT a FROM t WHERE (a, b + 1) NOT IN (SELECT b, c FROM u)
