-- Partitioned tables: the flow of Fluss's "Partitioned Tables" guide, in flussql's SQL.
-- Run it with `make demo` (a local cluster is started for it) or, against any cluster,
--   go run ./cmd/flussql -f testdata/demo/partitioned-tables.sql
-- It starts by dropping what it creates, so it can be run again.

DROP TABLE IF EXISTS fluss.partitioned_events;
DROP TABLE IF EXISTS fluss.partitioned_users;

-- A partitioned log table: one partition per region. Partitions must exist before rows
-- are written to them (flussql fails after a bounded wait instead of retrying forever).
CREATE TABLE fluss.partitioned_events (
  id     INT,
  region STRING,
  value  BIGINT
) PARTITIONED BY (region) WITH ('bucket.num' = '1');

ALTER TABLE fluss.partitioned_events ADD IF NOT EXISTS PARTITION (region = 'US');
ALTER TABLE fluss.partitioned_events ADD IF NOT EXISTS PARTITION (region = 'EU');
SHOW PARTITIONS fluss.partitioned_events;

-- Rows carry their partition column; each lands in its region's partition.
INSERT INTO fluss.partitioned_events VALUES (1, 'US', 100), (2, 'EU', 200);

-- Read every partition, then only one: equality on the partition column prunes the others.
SELECT * FROM fluss.partitioned_events;
SELECT * FROM fluss.partitioned_events WHERE region = 'US';

-- A partitioned primary-key table: the partition column is part of the primary key.
CREATE TABLE fluss.partitioned_users (
  user_id INT,
  region  STRING,
  score   BIGINT,
  PRIMARY KEY (user_id, region) NOT ENFORCED
) PARTITIONED BY (region);

ALTER TABLE fluss.partitioned_users ADD IF NOT EXISTS PARTITION (region = 'US');

-- INSERT into a primary-key table upserts; UPSERT INTO says so explicitly.
INSERT INTO fluss.partitioned_users VALUES (1, 'US', 1234);
UPSERT INTO fluss.partitioned_users VALUES (1, 'US', 4321);

-- Equality on the whole primary key (partition column included) is a lookup.
SELECT * FROM fluss.partitioned_users WHERE user_id = 1 AND region = 'US';

-- Queries run in the client over the scans' Arrow batches: aggregates per region, a top-N
-- (a bounded heap, not a full sort) and a lookup join (one batched primary-key lookup per
-- batch of events; the partition column is part of the key, so it is in ON too).
INSERT INTO fluss.partitioned_events VALUES (3, 'US', 300), (4, 'EU', 50);
SELECT region, COUNT(*) AS events, SUM(value) AS total FROM fluss.partitioned_events GROUP BY region ORDER BY total DESC;
SELECT id, region, value FROM fluss.partitioned_events ORDER BY value DESC LIMIT 2;
SELECT e.id, e.region, e.value, u.score
  FROM fluss.partitioned_events e
  LEFT JOIN fluss.partitioned_users u ON u.user_id = e.id AND u.region = e.region;
