-- The shell against a real cluster, through standard input. $DB is a database the test
-- creates for this session and drops afterwards.
\c $DB
\dt
CREATE TABLE types_log (
  id     INT,
  flag   BOOLEAN,
  tiny   TINYINT,
  small  SMALLINT,
  big    BIGINT,
  f      FLOAT,
  d      DOUBLE,
  amount DECIMAL(10, 2),
  s      STRING,
  b      BYTES,
  dt     DATE,
  tm     TIME,
  ts     TIMESTAMP(3),
  ltz    TIMESTAMP_LTZ(6)
) WITH ('bucket.num' = '1');
INSERT INTO types_log VALUES
  (1, TRUE, 1, 2, 3, 1.5, 2.25, 12.34, 'héllo', X'01ab', DATE '2025-03-05', TIME '12:34:56',
   TIMESTAMP '2025-03-05 10:00:00.123', TIMESTAMP '2025-03-05 10:00:00.123456'),
  (2, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'NULL', NULL, NULL, NULL, NULL, NULL),
  (3, FALSE, -1, -2, -3, -0.5, 1e21, -0.01, '', X'', DATE '1970-01-01', TIME '00:00:00',
   TIMESTAMP '1970-01-01 00:00:00', TIMESTAMP '1970-01-01 00:00:00');
SELECT * FROM types_log;
\x
SELECT * FROM types_log WHERE id = 1;
\x off
\format csv
SELECT id, s, b FROM types_log;
\format json
SELECT id, flag, amount, s, ts FROM types_log;
\format tsv
SELECT id, s FROM types_log;
\format table
CREATE TABLE users (
  user_id INT,
  region  STRING,
  score   BIGINT,
  PRIMARY KEY (user_id, region) NOT ENFORCED
) PARTITIONED BY (region) WITH ('bucket.num' = '2');
ALTER TABLE users ADD PARTITION (region = 'US');
ALTER TABLE users ADD PARTITION (region = 'EU');
\dt
\d users
\dp users
INSERT INTO users VALUES (1, 'US', 10), (2, 'US', 20), (1, 'EU', 30);
UPSERT INTO users VALUES (2, 'US', 21);
SELECT * FROM users WHERE user_id = 2 AND region = 'US';
SELECT user_id, score FROM users WHERE user_id = 1 AND region = 'EU';
-- The first error ends a script: the lookup after it never runs.
SELECT * FROM no_such_table;
SELECT * FROM users WHERE user_id = 1 AND region = 'US';
