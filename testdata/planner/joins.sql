SELECT l.id, u.name FROM logs l JOIN users u ON u.user_id = l.level
====
SELECT l.id, u.name, u.score FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ AS l LEFT JOIN users FOR SYSTEM_TIME AS OF l.ts AS u ON l.level = u.user_id AND u.score > 10 WHERE l.msg LIKE 'a%'
====
SELECT e.id, p.score FROM events e JOIN partitioned_users p ON p.user_id = e.score AND p.region = e.region
====
SELECT e.id, p.score FROM events e JOIN partitioned_users FOR SYSTEM_TIME AS OF e.dt AS p ON p.user_id = e.score
====
SELECT l.id, o.order_id, o.amount FROM logs l JOIN orders o ON o.customer_id = l.id
====
SELECT a.id, b.msg FROM logs a JOIN logs b ON a.id = b.id AND a.level < b.level WHERE a.msg = 'x'
====
SELECT e.region, COUNT(*), SUM(l.level) FROM events e LEFT JOIN logs l ON l.id = e.id GROUP BY e.region ORDER BY 2 DESC LIMIT 3
====
SELECT * FROM logs a JOIN logs b ON a.id = b.id
====
SELECT id FROM logs a JOIN logs b ON a.id = b.id
====
SELECT a.id FROM logs a JOIN logs b ON a.level < b.level
====
SELECT a.id FROM logs a RIGHT JOIN logs b ON a.id = b.id
====
SELECT a.id FROM logs a JOIN logs /*+ OPTIONS('scan.bounded' = 'false') */ b ON a.id = b.id
====
SELECT a.id FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ a JOIN logs b ON a.id = b.id
====
SELECT l.id, u.name FROM logs l JOIN users u ON u.name = l.msg
====
SELECT l.id FROM logs l JOIN users FOR SYSTEM_TIME AS OF l.ts AS u ON u.name = l.msg
====
SELECT l.id, u.name FROM logs l JOIN users u ON u.user_id = l.msg
====
SELECT s.level, s.n FROM (SELECT level, COUNT(*) AS n FROM logs GROUP BY level) s WHERE s.n > 1 ORDER BY s.n DESC
====
SELECT x.id FROM (SELECT id FROM logs ORDER BY ts DESC LIMIT 5) AS x
====
SELECT x.id FROM (SELECT id FROM logs LIMIT ?) AS x
====
SELECT id, msg FROM logs UNION ALL SELECT score, region FROM events
====
SELECT level FROM logs UNION ALL SELECT score FROM events ORDER BY level DESC LIMIT 2
====
SELECT id FROM logs UNION ALL SELECT id, msg FROM logs
====
SELECT id FROM logs UNION ALL SELECT msg FROM logs
====
SELECT u.k, COUNT(*) FROM (SELECT level AS k FROM logs UNION ALL SELECT score FROM events WHERE region = 'US') u GROUP BY u.k
====
SELECT l.id FROM logs l WHERE l.id = ?
-- bind: 3
====
SELECT u.name FROM users u WHERE u.user_id = 7
====
SELECT l.id, u.name FROM logs l JOIN users u ON u.user_id = l.level WHERE l.id = ? AND u.name <> ?
-- bind: 1, 'x'
====
SELECT a.x FROM logs a CROSS JOIN logs b
====
SELECT l.id, u.name FROM logs l JOIN users u ON u.name = l.msg WHERE u.user_id IN (1, 2)
====
SELECT l.id, u.name FROM logs l LEFT JOIN users u ON u.name = l.msg WHERE u.user_id IN (1, 2)
====
SELECT s.level, u.name FROM (SELECT level, COUNT(*) AS n FROM logs GROUP BY level) s JOIN users u ON u.user_id = s.level
====
SELECT l.id FROM logs l JOIN users u ON u.user_id = l.level AND COUNT(*) > 1
====
SELECT l.id, u.name FROM logs l LEFT JOIN users u ON u.name = l.msg AND u.user_id IN (1, 2) AND l.level > 3
====
SELECT a.id FROM logs a JOIN users u ON u.user_id = a.id
====
SELECT a.id FROM logs a JOIN users FOR SYSTEM_TIME AS OF a.ts AS u ON u.user_id = a.level * 1.5
====
SELECT COUNT(*) FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ l JOIN users u ON u.user_id = l.level
====
SELECT u.*, l.id FROM logs l JOIN users u ON u.user_id = l.level ORDER BY user_id
====
SELECT s.id FROM (SELECT id FROM logs WHERE level = ?) s JOIN users u ON u.user_id = s.id AND u.score > ?
-- bind: 4, 10
====
SELECT a.name, b.name FROM users a JOIN users b ON b.user_id = a.score WHERE a.user_id = 1
====
SELECT a.id, b.msg FROM logs /*+ OPTIONS('scan.startup.mode' = 'latest') */ a JOIN logs /*+ OPTIONS('scan.startup.mode' = 'earliest') */ b ON a.id = b.id
====
SELECT l.id, u.name FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ l JOIN users /*+ OPTIONS('lookup.cache' = 'none') */ FOR SYSTEM_TIME AS OF l.ts AS u ON l.level = u.user_id
====
SELECT id FROM logs /*+ OPTIONS('scan.startup.mode' = 'latest') */ UNION ALL SELECT id FROM logs /*+ OPTIONS('scan.startup.mode' = 'earliest') */
====
(SELECT id FROM logs ORDER BY id DESC LIMIT 2) UNION ALL SELECT id FROM logs
====
SELECT x.id FROM (SELECT id FROM logs ORDER BY id LIMIT ? OFFSET ?) AS x WHERE x.id > ?
====
-- an item behind another that WHERE filters joins it first, as one build side (an arm)
SELECT l.id, m.v FROM logs l, events e, metrics m WHERE l.level = e.id AND e.score = m.id AND m.ok
====
-- without a filter behind it, the order of the list
SELECT l.id, m.v FROM logs l, events e, metrics m WHERE l.level = e.id AND e.score = m.id
