SELECT 1
====
SELECT 1 + 2 AS x, VERSION(), CURRENT_DATABASE()
====
-- database: none
SELECT CURRENT_DATABASE()
====
SELECT id, level + 1 AS nxt, UPPER(msg) FROM logs WHERE level > 2 AND msg LIKE 'a%'
====
SELECT region, COUNT(*), SUM(score), AVG(score), COUNT(DISTINCT id) FROM events GROUP BY region HAVING COUNT(*) > 1 ORDER BY 3 DESC NULLS LAST
====
SELECT * FROM events WHERE region = 'US' ORDER BY score DESC LIMIT 10
====
SELECT id FROM logs ORDER BY ts DESC, level LIMIT 5 OFFSET 10
====
SELECT id FROM logs ORDER BY level + 1
====
SELECT DISTINCT level FROM logs ORDER BY level
====
SELECT DISTINCT level FROM logs ORDER BY id
====
SELECT id FROM logs LIMIT 3 OFFSET 2
====
SELECT id FROM logs LIMIT ? OFFSET ?
-- bind: 5, 1
====
SELECT id, level * ? FROM logs WHERE id = ?
-- bind: 3, 7
====
SELECT COUNT(*), MAX(level) FROM logs
====
SELECT COUNT(*) FROM logs /*+ OPTIONS('scan.bounded' = 'false') */
====
SELECT level, COUNT(*) FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY level
====
SELECT id, level * 2 FROM logs /*+ OPTIONS('scan.bounded' = 'false') */ WHERE level > 1 LIMIT 10
====
SELECT name, score * 2 FROM users WHERE user_id IN (1, 2) ORDER BY name
====
SELECT name FROM users WHERE UPPER(name) = 'X' LIMIT 5
====
SELECT COUNT(*) FROM users WHERE score > 1
====
SELECT name FROM users ORDER BY name LIMIT 5
====
SELECT status, SUM(amount), AVG(amount) FROM orders WHERE customer_id = 7 GROUP BY status
====
SELECT amount * 2, amount / 3, amount + 1.5, amount + 1 FROM orders WHERE customer_id = 7 AND order_id = 1
====
SELECT id, msg FROM logs GROUP BY id
====
SELECT level FROM logs WHERE COUNT(*) > 1
====
SELECT msg + 1 FROM logs
====
SELECT id FROM logs WHERE level
====
SELECT CASE WHEN level > 3 THEN 'hi' ELSE 'lo' END AS band, COUNT(*) FROM logs GROUP BY band
====
SELECT level % 3, COUNT(*) FROM logs GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 2
====
SELECT CAST(level AS BIGINT) * 2, CAST(id AS STRING) || '!', COALESCE(msg, 'none'), NULLIF(level, 0) FROM logs
====
SELECT i + bi, i + ti, i / 2, d + i, f * 2, dec * dec, dec / 3, c || s FROM alltypes
====
SELECT tags FROM nested WHERE id = 1 ORDER BY tags
====
SELECT nosuch + 1 FROM logs
====
SELECT FOO(id) FROM logs
====
SELECT level, COUNT(*) AS n FROM logs GROUP BY level HAVING n > 1 ORDER BY n DESC
====
SELECT level + 1 AS level2 FROM logs GROUP BY level HAVING level2 > 3
====
SELECT COUNT(*) AS x FROM logs HAVING x + 1 > 0
====
SELECT name FROM users LIMIT 2 OFFSET 3
====
SELECT msg, COUNT(*) FROM logs GROUP BY msg ORDER BY COUNT(*) DESC, MAX(level) LIMIT 3
====
SELECT FLOOR(ts TO HOUR) AS hour, COUNT(*), MAX(EXTRACT(MINUTE FROM ts)) FROM logs GROUP BY FLOOR(ts TO HOUR) ORDER BY 1
====
SELECT DATE_FORMAT(ts, 'yyyy-MM-dd HH:mm'), CEIL(ts TO MONTH) FROM logs WHERE ts >= TIMESTAMP '2024-01-01 00:00:00'
====
SELECT EXTRACT(YEAR FROM dt), COUNT(*) FROM events WHERE dt = DATE '2024-01-01' GROUP BY EXTRACT(YEAR FROM dt)
====
SELECT CURRENT_DATE, CURRENT_TIMESTAMP
====
SELECT EXTRACT(HOUR FROM dt) FROM events
====
SELECT tags, COUNT(*) FROM nested WHERE id = 1 GROUP BY tags
====
SELECT DISTINCT attrs FROM nested WHERE id IN (1, 2)
====
SELECT id, tags FROM nested WHERE id = 1 ORDER BY id DESC
====
SELECT * FROM nested WHERE id IN (1, 2) ORDER BY id DESC LIMIT 1
====
SELECT COUNT(*), MAX(level) FROM logs WHERE ts > '2024-01-01 10:00:00.5' AND ts BETWEEN TIMESTAMP '2024-01-01 00:00:00' AND '2024-12-31 23:59:59'
====
SELECT ltz, dt FROM alltypes WHERE ltz >= TIMESTAMP '2024-01-01 00:00:00' AND dt IN ('2024-01-01', DATE '2024-01-02') ORDER BY ltz
====
SELECT COUNT(*) FROM logs WHERE ts > 'soon'
====
SELECT id, addr.city, n.addr.zip + 1 AS z FROM nested AS n WHERE id IN (1, 2) AND addr.zip > 5 ORDER BY addr.city
====
-- Flink's IF(cond, a, b), typed as CASE WHEN
SELECT IF(level > 2, 'high', 'low') AS sev, IF(id IS NULL, 0, id) FROM logs WHERE IF(level > 1, msg, 'x') <> 'y'
====
SELECT IF(level > 2, 1, 2.5), IF(level > 2, NULL, ts) FROM logs
====
SELECT IF(level, 1, 2) FROM logs
====
SELECT IF(level > 2, 1) FROM logs
====
SELECT IF(level > 2, 'a', 1) FROM logs
====
SELECT level, COUNT(*) FROM logs GROUP BY level HAVING IF(COUNT(*) > 1, TRUE, FALSE)
====
-- LIKE … ESCAPE: a row plan's filter leaves it to the engine
SELECT id, msg FROM logs WHERE msg LIKE '100\%%' ESCAPE '\' AND msg NOT LIKE '%!_x' ESCAPE '!'
====
SELECT user_id FROM users WHERE user_id = 1 AND name LIKE 'a\_%' ESCAPE '\'
====
SELECT id FROM logs WHERE msg LIKE 'a\b' ESCAPE '\'
====
SELECT id FROM logs WHERE msg LIKE 'a' ESCAPE '\\'
====
SELECT id FROM logs WHERE msg = 'a' ESCAPE '\'
====
-- interval arithmetic, TIMESTAMPADD and TIMESTAMPDIFF (Flink's)
SELECT id, ts + INTERVAL '1' DAY AS next_day, TIMESTAMPDIFF(HOUR, ts, TIMESTAMPADD(WEEK, level, ts)) AS h FROM logs WHERE ts > TIMESTAMP '2024-01-01 00:00:00' - INTERVAL '1' MONTH
====
SELECT dt + INTERVAL '1' MONTH, dt - INTERVAL '36' HOUR, TIMESTAMPADD(HOUR, 1, dt), ltz + INTERVAL '1.5' SECOND, ts - INTERVAL '2' YEAR FROM alltypes
====
SELECT CAST(ts + INTERVAL '1' HOUR AS DATE) AS d, COUNT(*) FROM logs GROUP BY CAST(ts + INTERVAL '1' HOUR AS DATE)
====
SELECT s + INTERVAL '1' DAY FROM alltypes
====
-- CARDINALITY, arr[i] (from 1; NULL out of range) and map['k'], as in Flink
-- server: kvscan
SELECT id, CARDINALITY(tags), tags[1], tags[id], attrs['a'], CARDINALITY(attrs), grid[1][2], CARDINALITY(grid[2]) FROM nested WHERE tags[2] = 'x' OR attrs['b'] > 1
====
-- server: kvscan
SELECT tags[1] AS first_tag, COUNT(*) FROM nested GROUP BY tags[1] ORDER BY first_tag
====
SELECT arr[1] + 1, CARDINALITY(arr) FROM alltypes
====
SELECT tags['a'] FROM nested
====
-- server: kvscan
SELECT attrs[1] FROM nested
====
SELECT id[1] FROM nested
====
SELECT CARDINALITY(id) FROM nested
====
-- GROUP BY and DISTINCT on DATE and TIMESTAMP columns (typed keys in the engine)
SELECT dt, ts, COUNT(*), MAX(ltz) FROM alltypes GROUP BY dt, ts
====
SELECT DISTINCT dt + INTERVAL '1' DAY, ltz FROM alltypes
====
SELECT FLOOR(ts TO DAY) AS day, COUNT(*) FROM logs GROUP BY FLOOR(ts TO DAY) ORDER BY day
====
SELECT 0.001 * 10, 0.5, .5, 1.50 FROM orders WHERE customer_id = 7 AND order_id = 1

====
SELECT REGEXP_EXTRACT(msg, '(a+)', 1), LPAD(msg, 8, '*'), JSON_VALUE(msg, '$.k'), DATE_FORMAT(ts, 'yyyy-MM-dd') FROM logs WHERE REGEXP(msg, '^a')
====
SELECT REGEXP_REPLACE(name, '(?=a)', 'b') FROM users
====
SELECT level, VAR_POP(id), STDDEV_SAMP(id), LISTAGG(msg, ';'), FIRST_VALUE(msg) FROM logs GROUP BY level
