SELECT * FROM users WHERE user_id = 1 AND region = 'US'
====
SELECT user_id, score FROM users WHERE user_id = ? AND region = ?
====
SELECT * FROM events WHERE region = 'US' LIMIT 100
====
SELECT * FROM events /*+ OPTIONS('scan.startup.mode'='earliest') */
====
SELECT * FROM fluss.log_table /*+ OPTIONS('scan.startup.mode' = 'timestamp',
  'scan.startup.timestamp' = '1678883047356') */ WHERE id > 10 LIMIT 5
====
SELECT COUNT(*) FROM events
====
SELECT count(*) AS n FROM events WHERE region IN ('US', 'EU')
====
SELECT id AS ident, `key`, `date`, Status FROM `db`.`my-table`
====
SELECT * FROM t WHERE a <> 1 AND b != 2 AND c < 3 AND d <= 4 AND e > 5 AND f >= 6
====
SELECT * FROM t WHERE a IN (1, ?, 3) AND b NOT IN ('x') AND c BETWEEN 1 AND 10 AND d NOT BETWEEN ? AND ?
====
SELECT * FROM t WHERE a IS NULL OR b IS NOT NULL
====
SELECT * FROM t WHERE name LIKE 'a%' AND name NOT LIKE '%z'
====
SELECT * FROM t WHERE NOT (a = 1 OR b = 2) AND c = 3
====
SELECT * FROM t WHERE a = 1 OR b = 2 AND c = 3
====
SELECT * FROM t WHERE (a = 1 OR b = 2) AND (c = 3 OR d = 4)
====
SELECT * FROM t WHERE a = 1 AND (b = 2 AND c = 3)
====
SELECT * FROM t WHERE flag AND NOT NOT other OR TRUE
====
SELECT * FROM t WHERE d = DATE '2024-01-01' AND ts >= TIMESTAMP '2024-01-01 00:00:00.123456' AND tm < TIME '12:00:00'
====
SELECT * FROM t WHERE date = '2024-01-01' AND timestamp = 1
====
SELECT t.a, fluss.t.b FROM fluss.t WHERE t.a = 1
====
SELECT a FROM t LIMIT ?
====
SELECT a FROM t WHERE a = :x AND b = :y OR c = :x LIMIT :n
====
SELECT * FROM t WHERE s = 'a''b' AND b = 'back\slash\' AND u = 'héllo' AND n = '' AND e = 'new
line'
====
-- leading comment
SELECT /* plain comment */ a FROM t -- trailing
====
SELECT * FROM events LIMIT 10 /*+ OPTIONS('a'='b') */
====
SELECT /*+ OPTIONS('a'='b') */ * FROM events
====
SELECT * FROM events /*+ OPTIONS('a'='b') */ /*+ OPTIONS('c'='d') */
====
SELECT * FROM events /*+ LOOKUP('table'='x') */
====
SELECT * FROM events /*+ OPTIONS('a'='b', 'a'='c') */
====
SELECT * FROM events /*+ OPTIONS('a'=?) */
====
SELECT * FROM events /*+ OPTIONS('a'='b' */
====
SELECT * FROM events /*+ */
====
SELECT * FROM events PARTITION (p_US) LIMIT 10
====
SELECT * FROM events ORDER BY id DESC LIMIT 10 OFFSET 5
====
SELECT * FROM events LIMIT 5, 10
====
SELECT * FROM events e JOIN users u ON e.id = u.user_id
====
SELECT * FROM a, b
====
SELECT * FROM events WHERE id = 1 GROUP BY region HAVING COUNT(*) > 1
====
SELECT DISTINCT region FROM events
====
SELECT * FROM events FOR UPDATE
====
SELECT * FROM t UNION SELECT * FROM u
====
SELECT * FROM (SELECT * FROM t) AS x
====
SELECT * FROM t WHERE a IN (SELECT b FROM u)
====
SELECT * FROM t AS x
====
SELECT a + 1 FROM t
====
SELECT 1 FROM t
====
SELECT max(a) FROM t
====
SELECT COUNT(a) FROM t
====
SELECT COUNT(*), a FROM t
====
SELECT t.* FROM t
====
SELECT * FROM t WHERE (a, b) IN ((1, 'US'), (2, 'EU'))
====
SELECT * FROM t WHERE a = b + 1
====
SELECT * FROM t WHERE a REGEXP 'x'
====
SELECT * FROM t WHERE a <=> 1
====
SELECT * FROM t WHERE a IS TRUE
====
SELECT * FROM t WHERE a LIKE 'x' ESCAPE '!'
====
SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u)
====
SELECT * FROM t WHERE u.a = 1
====
SELECT * FROM t WHERE a = 1 LIMIT -1
====
SELECT * FROM t LIMIT 'x'
====
SELECT * FROM t WHERE a = 0x10
====
SELECT * FROM t WHERE 1
====
SELECT a
====
SELECT * FORM t
====
SELECT * FROM t WHERE
====
SELECT * FROM t WHERE a =
====
SELECT * FROM t WHERE a = 1 AND
====
SELECT FROM t
====
SELECT * FROM t WHERE a IN ()
====
SELECT * FROM t WHERE a = 'unterminated
====
SELECT * FROM users$changelog
====
SELECT * FROM `users$changelog`
====
SELECT users$binlog._change_type FROM db.users$binlog /*+ OPTIONS('scan.bounded' = 'false') */ WHERE _log_offset > 3
====
SELECT * FROM users$log
====
SELECT * FROM users $changelog
====
SELECT * FROM t WHERE a = DATE 'x'
====
SELECT * FROM t WHERE a = DATE '2024-1-1'
====
SELECT key FROM t
====
SELECT * FROM t WHERE a = 'x' COLLATE utf8
====
SELECT * FROM t WHERE a = CASE WHEN b = 1 THEN 2 END
====
SELECT * FROM t WHERE a > d - INTERVAL 1 DAY
====
SELECT * FROM t WHERE a = CAST(b AS CHAR)
====
SELECT * FROM t WHERE a = @x
====
INSERT INTO t SET a = 1
====
SELECT tags[1] FROM t
====
-- Flink's interval literals, TIMESTAMPADD and TIMESTAMPDIFF
SELECT ts + INTERVAL '1' DAY, ts - INTERVAL '-2' hour, INTERVAL '1.25' SECOND + ts, TIMESTAMPADD(month, 1, d), TIMESTAMPDIFF(SQL_TSI_DAY, a, b) FROM t
====
SELECT ts + INTERVAL '1.5' MINUTE FROM t
====
SELECT TIMESTAMPADD(t.day, 1, d) FROM t
====
-- arr[i] and map['k'] on columns, fields, calls and subscripts
SELECT t.tags[1], grid[1][2], r.f[CARDINALITY(r.f)], (a)[1], CAST(x AS ARRAY<INT>)[2] FROM t WHERE m['k'] > 1
====
SELECT x FROM t WHERE [1] = x
====
SELECT a[1 FROM t
====
SELECT ts + INTERVAL ? DAY FROM t
