// Package parser turns flussql SQL text into typed statements. It knows
// nothing of the network; the planner works on its types only.
//
// The dialect follows Fluss's Flink SQL where they overlap, so statements
// from the Fluss documentation work as written:
//
//	CREATE DATABASE [IF NOT EXISTS] db [COMMENT '…'] [WITH ('k' = 'v', …)]
//	DROP DATABASE [IF EXISTS] db [CASCADE | RESTRICT]
//	USE db
//	SHOW DATABASES [LIKE '…']
//	CREATE TABLE [IF NOT EXISTS] [db.]t (col TYPE [NOT NULL] [COMMENT '…'], …
//	    [, PRIMARY KEY (col, …) NOT ENFORCED]) [COMMENT '…'] [PARTITIONED BY (col, …)] [WITH (…)]
//	DROP TABLE [IF EXISTS] [db.]t
//	SHOW TABLES [FROM db] [LIKE '…'];  SHOW CREATE TABLE t;  DESCRIBE t
//	ALTER TABLE t ADD [IF NOT EXISTS] PARTITION (k = 'v', …)
//	ALTER TABLE t DROP [IF EXISTS] PARTITION (k = 'v', …)
//	ALTER TABLE [IF EXISTS] t ADD [COLUMN] col TYPE [COMMENT '…']  |  ADD (col TYPE …, …)
//	ALTER TABLE [IF EXISTS] t SET ('k' = 'v', …)  |  RESET ('k', …)
//	SHOW PARTITIONS t [PARTITION (k = 'v', …)]
//	INSERT INTO t [(cols)] VALUES (…), …;  UPSERT INTO t [(cols)] VALUES …
//	DELETE FROM t WHERE …;  UPDATE t SET col = value, … WHERE …
//	SELECT * | col [AS alias], … | COUNT(*) FROM t [/*+ OPTIONS('k' = 'v') */] [WHERE …] [LIMIT n]
//	[WITH name [(cols)] AS (query), …] SELECT [DISTINCT] exprs, fn(…) OVER (…) FROM a, b [AS x (cols)]
//	    [[LEFT] JOIN c ON …] [WHERE … [NOT] IN (SELECT …) … [NOT] EXISTS (SELECT …) … (SELECT …)]
//	    [GROUP BY …] [HAVING …] [WINDOW w AS (…)] [ORDER BY …] [LIMIT n] [OFFSET m]
//	query UNION [ALL] | INTERSECT [ALL] | EXCEPT [ALL] query;  (VALUES (…), …) AS t (cols) in FROM
//	INSERT INTO t [(cols)] SELECT …;  UPSERT INTO t [(cols)] SELECT …
//	CREATE ACL (resource => 'db.t', principal => 'User:alice', operation => 'READ' [, permission => 'ALLOW'] [, host => '*'])
//	DROP ACL (resource => …, principal => …, operation => …, permission => …, host => …);  SHOW ACLS [FOR 'db.t']
//	EXPLAIN <statement>
//
// Column types are those of Fluss: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT,
// FLOAT, DOUBLE, DECIMAL(p, s), CHAR(n), STRING, BINARY(n), BYTES, DATE,
// TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p) (also written TIMESTAMP(p) WITH
// LOCAL TIME ZONE), ARRAY<T>, MAP<K, V> and ROW<name T, …>. They are parsed
// into the shared type model of package fluss/types. VARCHAR(n) is read as
// STRING and VARBINARY(n) as BYTES: Fluss 0.9 has no length-limited
// variable-size types, so such a length is accepted but not enforced.
//
// Conditions combine =, <>, !=, <, <=, >, >=, IN (…), BETWEEN, IS [NOT]
// NULL, LIKE, AND, OR and NOT over columns, literals (numbers, 'strings',
// TRUE, FALSE, NULL, X'hex', DATE '…', TIME '…', TIMESTAMP '…') and
// placeholders. VALUES and SET also take the value constructors of Flink
// SQL: ARRAY['a', 'b'], MAP['k', 1, 'j', 2] (keys and values alternate) and
// ROW('Oslo', 150), nested at will, over literals (a placeholder inside one
// is refused by the planner: pass the whole value as one argument).
// Brackets appear nowhere else. A statement uses either '?' placeholders (numbered from 1)
// or ':name' ones, never both; Placeholders reports which.
//
// Identifiers keep the case they are written in (Fluss names are
// case-sensitive). Names that are keywords or contain other characters
// than ASCII letters, digits and '_' are quoted in backticks, e.g.
// `key` or `users$changelog`. Strings are in single quotes. "Double quotes"
// are refused with an error that shows both spellings, as in Flink SQL:
// MySQL would read them as a string and PostgreSQL as an identifier.
//
// The MySQL-shaped statements (SELECT, INSERT, UPDATE, DELETE) are parsed by
// github.com/xwb1989/sqlparser; the Fluss DDL it cannot parse, or parses
// lossily, is parsed by this package over the same tokenizer. Whatever the
// dialect does not support is an error; no clause is ever dropped. Errors
// are *Error values carrying the line, the column, the token found and what
// was expected.
//
// Parse takes one statement; Split cuts a script into statements for the
// shell.
package parser
