SELECT * FROM logs
====
SELECT msg, id FROM logs WHERE level >= 3 LIMIT 100
====
SELECT COUNT(*) FROM logs
====
SELECT COUNT(*) AS n FROM logs WHERE msg LIKE 'err%'
====
SELECT id FROM logs WHERE ts BETWEEN '2024-01-01' AND TIMESTAMP '2024-01-02 00:00:00'
====
SELECT * FROM events WHERE region = 'US'
====
SELECT id, score FROM events WHERE region IN ('US', 'EU') AND dt = DATE '2024-01-01' AND score > 10
====
SELECT * FROM events WHERE region = 'ASIA'
====
SELECT * FROM events WHERE region = 'US' OR score > 1
====
SELECT * FROM events WHERE dt = ? AND region = ?
-- bind: '2024-01-02', 'US'
-- bind: time:2024-01-01T23:00:00Z, 'EU'
-- bind: NULL, 'US'
====
SELECT * FROM events WHERE region NOT IN ('US')
====
SELECT fluss.events.id, events.region AS r FROM fluss.events WHERE events.score IS NOT NULL
====
SELECT * FROM logs WHERE nope = 1
====
SELECT scor FROM logs
====
SELECT * FROM nope
====
SELECT * FROM other.logs
====
SELECT * FROM logs WHERE level = 'high'
====
SELECT * FROM logs WHERE msg = 5
====
SELECT * FROM logs WHERE msg LIKE 5
====
SELECT * FROM logs WHERE level LIKE '1%'
====
SELECT * FROM logs WHERE 1 = 1
====
SELECT * FROM logs WHERE level
====
SELECT * FROM logs WHERE id = level
====
SELECT * FROM logs WHERE msg = level
====
SELECT * FROM alltypes WHERE arr IS NULL
====
SELECT * FROM logs WHERE TRUE AND NOT (level < 2 OR msg IS NULL)
====
SELECT ID, Msg AS m FROM logs WHERE LEVEL = 1
====
SELECT * FROM logs LIMIT 0
====
SELECT COUNT(*) AS n FROM logs LIMIT 1
====
SELECT * FROM alltypes WHERE b AND ti < 300 AND si BETWEEN -1 AND 1 AND bi IN (1, 2) AND f > 0.5 AND d <> 1e10
  AND `dec` >= 12.345 AND c = 'abcd' AND s LIKE '%x_' AND bin = X'00' AND bs IS NOT NULL AND dt > '2024-01-01'
  AND tm < TIME '12:00:00' AND ts >= TIMESTAMP '2024-01-01 00:00:00.123456789' AND ltz < '2024-01-01T00:00:00+01:00'
====
SELECT msg LIKE ? ESCAPE ? FROM logs
-- bind: 'a#_%', '#'
-- bind: 'a#b', '#'
====
SELECT TIMESTAMPADD(DAY, ?, ts), arr[?] FROM alltypes WHERE TIMESTAMPDIFF(HOUR, ts, ?) > 1
-- bind: 2, 1, time:2024-01-01T00:00:00Z
====
SELECT ? + INTERVAL '1' DAY, TIMESTAMPADD(DAY, 1, ?) FROM alltypes
