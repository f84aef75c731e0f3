EXPLAIN SELECT * FROM users WHERE user_id = 1
====
EXPLAIN INSERT INTO t VALUES (?)
====
explain UPSERT INTO t (a) VALUES (:a)
====
EXPLAIN CREATE TABLE t (a INT)
====
EXPLAIN SHOW TABLES
====
EXPLAIN
====
EXPLAIN EXPLAIN SELECT * FROM t
====
EXPLAIN PLAN FOR SELECT * FROM t
====

====
-- only a comment
====
;
====
SELECT * FROM t; SELECT * FROM u
====
CREATE DATABASE fluss; DROP TABLE users
====
SHOW TABLES; SHOW DATABASES
====
SELECT * FROM t WHERE a = ? AND b = :x
====
SELECT * FROM t WHERE a = :x AND b = ?
====
SELECT * FROM t WHERE a = ? AND b = :v1
====
SELECT * FROM t WHERE a IN ::ids
====
SELECT * FROM t WHERE a = :
====
SELECT * FROM t WHERE __flussql_lit_0('2024-01-01') = a
====
SELECT * FROM t /*! WHERE a = 1 */
====
TRUNCATE TABLE events
====
SET x = 1
====
BEGIN
====
GRANT ALL ON t TO u
====
SELECT * FROM t WHERE a = 'x' é
====
SELECT * FROM t WHERE a = 12abc
====
SELECT * FROM `t
====
SELECT * FROM t /* unterminated
====
SELECT * FROM t
WHERE a = 1
  AND b = 'ü' AND c = ORDER
====
SELECT * FROM t;;

====
SHOW FUNCTIONS
====
SHOW FUNCTIONS LIKE 'REG%'
