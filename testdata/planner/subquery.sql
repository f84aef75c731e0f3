SELECT id FROM logs WHERE level IN (SELECT score FROM events WHERE region = 'US')
====
SELECT id FROM logs WHERE level NOT IN (SELECT score FROM events)
====
SELECT l1.id FROM logs l1 WHERE EXISTS (SELECT * FROM logs l2 WHERE l2.id = l1.id AND l2.level <> l1.level)
====
SELECT l1.id FROM logs l1 WHERE NOT EXISTS (SELECT * FROM logs l3 WHERE l3.id = l1.id AND l3.level <> l1.level AND l3.level > l3.id)
====
SELECT id FROM logs WHERE EXISTS (SELECT 1 FROM events WHERE region = 'EU')
====
SELECT level, SUM(id) AS s FROM logs GROUP BY level HAVING SUM(id) > (SELECT SUM(v) * 0.0001 FROM metrics)
====
SELECT id, (SELECT MAX(v) FROM metrics) AS m FROM logs WHERE id > (SELECT AVG(v) FROM metrics WHERE ok)
====
SELECT id FROM logs WHERE level < (SELECT 0.2 * AVG(score) FROM events WHERE events.id = logs.id)
====
SELECT l.id, (SELECT COUNT(*) FROM events e WHERE e.id = l.id) AS n FROM logs l
====
SELECT m.id FROM metrics m WHERE m.id IN (SELECT level FROM logs WHERE id IN (SELECT id FROM events WHERE region = 'US') AND level > (SELECT 0.5 * SUM(v) FROM metrics x WHERE x.host = logs.msg AND x.id = logs.level))
====
SELECT a.id FROM logs a JOIN events e ON e.id = a.id WHERE a.level = (SELECT MIN(level) FROM logs b WHERE b.id = e.id)
====
SELECT id FROM logs WHERE level IN (SELECT score FROM events WHERE events.id = logs.id)
====
SELECT id FROM logs WHERE level NOT IN (SELECT score FROM events WHERE events.id = logs.id)
====
SELECT id FROM logs WHERE level IN (SELECT score, id FROM events)
====
SELECT id FROM logs WHERE level > (SELECT score FROM events WHERE events.id = logs.id)
====
SELECT id FROM logs WHERE level IN (SELECT score FROM events) OR id = 1
====
SELECT id FROM logs WHERE id = ? AND level IN (SELECT score FROM events WHERE region = ?)
-- bind: 5, 'US'
====
SELECT (SELECT COUNT(*) FROM logs) AS n
====
EXPLAIN SELECT l1.id FROM logs l1 WHERE l1.level NOT IN (SELECT score FROM events WHERE score IS NOT NULL) AND NOT EXISTS (SELECT * FROM logs l3 WHERE l3.id = l1.id AND l3.level <> l1.level)
====
SELECT id FROM logs WHERE level IN (SELECT user_id FROM users WHERE user_id IN (1, 2))
====
SELECT id FROM logs WHERE EXISTS (SELECT * FROM users u WHERE u.user_id = logs.level AND u.score > logs.id)
====
SELECT id FROM logs WHERE EXISTS (SELECT * FROM users u WHERE u.user_id = logs.level AND u.score > logs.id)
-- server: kvscan
====
SELECT level, COUNT(*) FROM logs GROUP BY level HAVING COUNT(*) > (SELECT COUNT(*) FROM events e WHERE e.score = logs.level)
====
SELECT id FROM logs WHERE level IN (SELECT level FROM logs GROUP BY level HAVING COUNT(*) > 1)
====
SELECT id FROM logs WHERE EXISTS (SELECT level FROM logs l2 WHERE l2.id = logs.id GROUP BY level)
====
SELECT id FROM logs WHERE level = (SELECT MAX(score) FROM events WHERE events.id > logs.id)
====
DELETE FROM users WHERE user_id IN (SELECT level FROM logs)
====
SELECT id FROM logs WHERE level IN (SELECT nosuch FROM events)
====
SELECT id FROM logs WHERE level IN (SELECT score FROM events WHERE events.nosuch = logs.id)
====
SELECT id FROM logs WHERE (id, level) IN (SELECT id, score FROM events WHERE region = 'US')
====
SELECT id FROM logs WHERE (id, level) IN (SELECT id, score FROM events WHERE events.region = logs.msg)
====
SELECT id FROM logs WHERE (id, level) NOT IN (SELECT id, score FROM events)
====
SELECT id FROM logs WHERE (id, level) IN (SELECT id FROM events)
====
SELECT level, COUNT(*) AS n FROM logs GROUP BY level HAVING COUNT(*) IN (SELECT score FROM events) AND level NOT IN (SELECT v FROM metrics)
====
SELECT COUNT(*) FROM logs HAVING EXISTS (SELECT * FROM events)
====
SELECT level FROM logs GROUP BY level HAVING EXISTS (SELECT * FROM events WHERE events.score = logs.level)
====
SELECT a.id FROM logs a JOIN events e ON e.id = a.id AND a.level IN (SELECT v FROM metrics)
====
SELECT l1.id FROM logs l1 WHERE EXISTS (SELECT * FROM logs l2 WHERE l2.id = l1.id AND l2.level > (SELECT MIN(score) FROM events WHERE events.id = l2.id))
====
SELECT id, level IN (SELECT score FROM events) AS found FROM logs WHERE id = 1 OR NOT EXISTS (SELECT * FROM events WHERE events.id = logs.id AND events.score > logs.level)
====
SELECT level, COUNT(*) FROM logs GROUP BY level HAVING COUNT(*) > 1 OR level IN (SELECT score FROM events)
====
SELECT id FROM logs WHERE level IN (SELECT user_id FROM users WHERE score > 3)
====
SELECT id FROM logs WHERE NOT EXISTS (SELECT * FROM users WHERE users.user_id = logs.level)
====
-- a SEMI join on the columns of a build side moves onto it (TPC-H Q18's shape)
SELECT l.id, e.score FROM logs l, events e WHERE e.id = l.level AND e.score IN (SELECT level FROM logs GROUP BY level HAVING SUM(id) > 3)
====
-- NOT IN onto the build side, NULL-aware still
SELECT l.id FROM logs l, events e WHERE e.id = l.level AND e.score NOT IN (SELECT v FROM metrics)
====
-- on the stream's columns, or on both sides', it stays above the join
SELECT l.id FROM logs l, events e WHERE e.id = l.level AND l.id IN (SELECT level FROM logs)
====
SELECT l.id FROM logs l, events e WHERE e.id = l.level AND EXISTS (SELECT 1 FROM metrics m WHERE m.id = e.score AND m.v <> l.id)
====
-- a correlated aggregate over the table the outer query filters, under another alias: its
-- input is semi-joined with that table's filtered rows first (a magic set)
SELECT a.id FROM logs a WHERE a.msg LIKE 'err%' AND a.level < (SELECT AVG(b.level) FROM logs b WHERE b.id = a.id)
====
-- no filter on the correlation column's table: nothing to reduce by, no magic set
SELECT a.id FROM logs a WHERE a.level < (SELECT AVG(b.level) FROM logs b WHERE b.id = a.id)
====
-- a scalar subquery after a comma of a call or a constructor (no derived table)
SELECT id, COALESCE(level, (SELECT MAX(b.level) FROM logs b)) AS c, MAP['m', (SELECT MIN(b.id) FROM logs b)] AS m FROM logs
====
SELECT id, CAST(NULL AS MAP<STRING, INT>) AS m, CAST(NULL AS ARRAY<INT>) AS a FROM logs
====
SELECT id, CAST(msg AS ARRAY<INT>) FROM logs
