-- $changelog of a primary-key table: every change with its metadata columns
SELECT * FROM users$changelog
====
SELECT _change_type, _log_offset, _commit_timestamp, name FROM `users$changelog` WHERE user_id = 3
====
SELECT _change_type, COUNT(*) FROM users$changelog GROUP BY _change_type ORDER BY _change_type
====
SELECT COUNT(*) FROM users$changelog
====
SELECT DISTINCT user_id FROM fluss.users$changelog WHERE _change_type = 'delete' ORDER BY user_id LIMIT 5
====
-- $changelog of a log table
SELECT _log_offset, msg FROM logs$changelog /*+ OPTIONS('scan.startup.mode' = 'latest', 'scan.bounded' = 'false') */ WHERE level > 2 LIMIT 10
====
-- partition pruning on the partition columns
SELECT _change_type, score FROM events$changelog WHERE dt = DATE '2024-01-01' AND region = 'US'
====
SELECT user_id, _change_type FROM partitioned_users$changelog WHERE region = ?
-- bind: 'EU'
====
-- $binlog of a primary-key table: before/after images
SELECT * FROM users$binlog
====
SELECT _change_type, before, after FROM users$binlog /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = '1700000000000') */ WHERE _change_type <> 'insert'
====
SELECT _change_type, COUNT(*) AS n FROM partitioned_users$binlog GROUP BY _change_type
====
-- Flink's default startup mode 'full' reads the log from the earliest offset
SELECT _change_type FROM users$changelog /*+ OPTIONS('scan.startup.mode' = 'full') */
====
DESCRIBE users$changelog
====
DESCRIBE partitioned_users$binlog
====
EXPLAIN SELECT _change_type FROM orders$changelog
====
-- errors
SELECT * FROM logs$binlog
====
SELECT * FROM missing$changelog
====
SELECT nope FROM users$changelog
====
SELECT before FROM users$changelog
====
SELECT _change_type, COUNT(*) FROM logs$changelog /*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY _change_type
====
SELECT * FROM users$changelog ORDER BY after
====
INSERT INTO users$changelog VALUES ('insert', 1, TIMESTAMP '2024-01-01 00:00:00', 1, 'a', NULL, NULL)
====
UPSERT INTO users$binlog VALUES (1)
====
DELETE FROM users$changelog WHERE user_id = 1
====
UPDATE users$changelog SET name = 'x' WHERE user_id = 1
====
DROP TABLE users$changelog
====
ALTER TABLE users$changelog SET ('table.log.ttl' = '1d')
====
SHOW CREATE TABLE users$changelog
====
SELECT * FROM users$CHANGELOG
====
SELECT * FROM users$foo
====
-- ROW field access on the before/after images (Flink's syntax)
SELECT after.score, before.score, after.score - before.score AS delta FROM users$binlog WHERE _change_type = 'update' AND after.score > 10
====
SELECT after.name, SUM(after.score) FROM users$binlog GROUP BY after.name ORDER BY after.name
====
SELECT after.nope FROM users$binlog
====
SELECT _change_type.x FROM users$binlog
====
SELECT nosuch.x FROM users$binlog
====
-- an alias on a virtual table
SELECT b._change_type, b.after.score FROM users$binlog AS b WHERE b._change_type = 'insert'
====
SELECT c._change_type, c.name, c._log_offset FROM users$changelog c WHERE c.score > 1 ORDER BY c._log_offset
====
SELECT c._change_type, u.name FROM users$changelog AS c JOIN users AS u ON c.user_id = u.user_id
====
SELECT b.after.name, l.msg FROM users$binlog b LEFT JOIN logs l ON b.after.user_id = l.id WHERE b._change_type = 'delete'
====
SELECT x.nope FROM users$changelog x
====
SELECT u.name, c._change_type FROM users u JOIN users$changelog c ON c.user_id = u.user_id WHERE u.user_id = 1
====
SELECT u.name FROM logs l JOIN users$changelog FOR SYSTEM_TIME AS OF l.ts AS u ON u.user_id = l.id
