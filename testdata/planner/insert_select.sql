-- a log table into a log table, all columns
INSERT INTO logs SELECT * FROM logs WHERE level > 3
====
-- an aggregate into a primary-key table: latest wins
UPSERT INTO users SELECT level, msg, CAST(NULL AS STRING), COUNT(*) FROM logs GROUP BY level, msg
====
-- INSERT into a primary-key table upserts
INSERT INTO users SELECT level, msg, msg, id FROM logs
====
-- a join, with placeholders bound in the query
INSERT INTO logs (id, level) SELECT m.v, l.level FROM logs l JOIN metrics m ON l.id = m.v WHERE l.level > ?
-- bind: 7
====
-- a partitioned target: each row's partition
INSERT INTO events (id, region, dt, score) SELECT id, msg, DATE '2024-01-01', level FROM logs
====
-- implicit widening: INT into BIGINT and DECIMAL, CHAR into STRING
INSERT INTO alltypes (bi, dec, s) SELECT i, si, c FROM alltypes
====
-- narrowing needs a CAST
INSERT INTO alltypes (i) SELECT bi FROM alltypes
====
INSERT INTO alltypes (i) SELECT CAST(bi AS INT) FROM alltypes
====
INSERT INTO alltypes (s) SELECT i FROM alltypes
====
-- too few columns
INSERT INTO logs SELECT id, msg FROM logs
====
-- an unbounded source never ends
INSERT INTO logs SELECT * FROM logs /*+ OPTIONS('scan.bounded' = 'false') */
====
UPSERT INTO logs SELECT * FROM logs
====
-- a lookup
INSERT INTO logs (id, msg, level) SELECT user_id, name, user_id FROM users WHERE user_id = 3
====
-- no FROM
INSERT INTO logs (id, msg, level) SELECT 1, 'one', 2
====
INSERT INTO logs (id, level) SELECT 1, NULL
====
INSERT INTO alltypes (ti, dec) SELECT 1, 2
====
EXPLAIN INSERT INTO logs SELECT * FROM logs
