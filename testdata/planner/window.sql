SELECT id, level, ROW_NUMBER() OVER (PARTITION BY level ORDER BY ts DESC) AS rn, RANK() OVER (PARTITION BY level ORDER BY ts DESC) AS rk FROM logs
====
SELECT id, LAG(id) OVER (ORDER BY ts), LEAD(id, 2, -1) OVER (ORDER BY ts), SUM(level) OVER (PARTITION BY msg ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM logs ORDER BY id
====
SELECT msg, COUNT(*) OVER (PARTITION BY msg) AS n, AVG(level) OVER () AS a, FIRST_VALUE(id) OVER (PARTITION BY msg ORDER BY id RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) FROM logs
====
SELECT region, SUM(score) AS total, RANK() OVER (ORDER BY SUM(score) DESC) AS rk FROM events GROUP BY region HAVING COUNT(*) > 1
====
SELECT * FROM (SELECT id, msg, ts, ROW_NUMBER() OVER (PARTITION BY msg ORDER BY ts DESC) AS rn FROM logs) WHERE rn <= 3
====
SELECT id, msg FROM (SELECT id, msg, ROW_NUMBER() OVER (PARTITION BY msg ORDER BY ts DESC) AS rn FROM logs) t WHERE rn = 1
====
SELECT * FROM (SELECT id, msg, ROW_NUMBER() OVER (PARTITION BY msg ORDER BY ts) AS rn FROM logs) WHERE rn BETWEEN 1 AND 5
====
SELECT * FROM (SELECT id, msg, ROW_NUMBER() OVER (PARTITION BY msg ORDER BY ts) AS rn, SUM(level) OVER (PARTITION BY msg ORDER BY ts) AS s FROM logs) WHERE rn < 4
====
SELECT * FROM (SELECT id, msg, RANK() OVER (PARTITION BY msg ORDER BY ts) AS rk FROM logs) WHERE rk <= 2
====
SELECT id FROM logs ORDER BY ROW_NUMBER() OVER (ORDER BY ts DESC) LIMIT 2
====
SELECT id FROM logs WHERE ROW_NUMBER() OVER (ORDER BY ts) = 1
====
SELECT level, COUNT(*) FROM logs GROUP BY level HAVING RANK() OVER (ORDER BY level) = 1
====
SELECT ROW_NUMBER() OVER (ORDER BY ts) FROM logs GROUP BY ROW_NUMBER() OVER (ORDER BY ts)
====
SELECT id, ROW_NUMBER() OVER (ORDER BY ts) FROM logs /*+ OPTIONS('scan.bounded' = 'false') */
====
SELECT UPPER(msg) OVER (ORDER BY ts) FROM logs
====
SELECT LAG(id, level) OVER (ORDER BY ts) FROM logs
====
SELECT RANK(id) OVER (ORDER BY ts) FROM logs
====
SELECT * FROM (SELECT id, msg, DENSE_RANK() OVER (PARTITION BY msg ORDER BY level DESC) AS dr FROM logs) WHERE dr <= 2
====
SELECT * FROM (SELECT id, msg, ROW_NUMBER() OVER (PARTITION BY msg ORDER BY ts) AS rn FROM logs LIMIT 10) WHERE rn <= 2
====
SELECT l.id, e.region, ROW_NUMBER() OVER (PARTITION BY e.region ORDER BY l.ts) AS rn FROM logs l JOIN events e ON l.id = e.id
====
SELECT id, LAG(id, 1, ?) OVER (ORDER BY ts), SUM(level * ?) OVER (PARTITION BY msg) FROM logs WHERE level > ?
-- bind: 7, 2, 1
====
SELECT id, LAG(id, 1, ?) OVER (ORDER BY ts) FROM logs
-- bind: 'x'
====
SELECT id, ROW_NUMBER() OVER w AS rn, SUM(level) OVER w AS s FROM logs WINDOW w AS (PARTITION BY msg ORDER BY ts) ORDER BY id
====
SELECT * FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY msg ORDER BY ts) AS rn, SUM(level) OVER (PARTITION BY msg) AS total FROM logs) WHERE rn <= 2
====
SELECT * FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY msg ORDER BY ts) AS rn, MAX(msg) OVER () AS m, DENSE_RANK() OVER (ORDER BY level) AS d FROM logs) WHERE rn <= 2
====
SELECT region, total FROM (SELECT region, SUM(score) AS total, ROW_NUMBER() OVER (ORDER BY SUM(score) DESC) AS rn FROM events GROUP BY region) WHERE rn <= 1
====
-- aggregates of the registry as window functions; ARRAY_AGG keeps the frame's order
SELECT id, ARRAY_AGG(level) OVER (PARTITION BY msg ORDER BY ts) AS a, LISTAGG(msg, '|') OVER (ORDER BY ts ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS l, COLLECT(level) OVER () AS c FROM logs
====
SELECT id, ARRAY_AGG(DISTINCT level) OVER (ORDER BY ts) FROM logs
