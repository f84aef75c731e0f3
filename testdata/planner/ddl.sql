CREATE DATABASE IF NOT EXISTS analytics COMMENT 'team data' WITH ('owner' = 'ana')
====
DROP DATABASE IF EXISTS analytics CASCADE
====
DROP DATABASE analytics
====
USE analytics
====
CREATE TABLE events2 (
  id BIGINT,
  region STRING,
  dt DATE,
  payload BYTES COMMENT 'raw'
) COMMENT 'click events' PARTITIONED BY (dt, region)
WITH ('bucket.num' = '4', 'bucket.key' = 'id', 'table.log.format' = 'ARROW',
      'client.writer.acks' = 'all', 'owner' = 'ana')
====
CREATE TABLE IF NOT EXISTS analytics.partitioned_users (
  user_id INT,
  region STRING,
  score BIGINT,
  PRIMARY KEY (user_id, region) NOT ENFORCED
) PARTITIONED BY (region)
====
CREATE TABLE orders2 (customer_id BIGINT, order_id BIGINT, amount DECIMAL(10, 2),
  PRIMARY KEY (customer_id, order_id) NOT ENFORCED) WITH ('bucket.key' = 'customer_id', 'bucket.num' = '8')
====
-- a partition key must be part of the primary key
CREATE TABLE bad (a INT, b STRING, PRIMARY KEY (a) NOT ENFORCED) PARTITIONED BY (b)
====
CREATE TABLE bad (a INT, b STRING) WITH ('bucket.num' = 'four')
====
CREATE TABLE bad (a INT, b STRING) WITH ('bucket.num' = '0')
====
CREATE TABLE bad (a INT, b STRING, PRIMARY KEY (a, b) NOT ENFORCED) WITH ('bucket.key' = 'c')
====
CREATE TABLE bad (a INT, b STRING, PRIMARY KEY (a, b) NOT ENFORCED) PARTITIONED BY (a, b)
====
CREATE TABLE bad (a INT, b DECIMAL(10, 2)) PARTITIONED BY (b)
====
CREATE TABLE bad (a INT, a STRING)
====
-- database: none
CREATE TABLE t (a INT)
====
DROP TABLE IF EXISTS fluss.events
====
DROP TABLE other.t
====
ALTER TABLE events ADD PARTITION (dt = '2024-01-03', region = 'EU')
====
ALTER TABLE events ADD IF NOT EXISTS PARTITION (region = 'ASIA', dt = '2024-01-03')
====
ALTER TABLE events ADD PARTITION (dt = ?, region = ?)
-- bind: '2024-02-29', 'US'
-- bind: time:2024-03-01T10:00:00Z, 'EU'
-- bind: 'tomorrow', 'US'
-- bind: '2024-02-29', 'U S'
-- bind: '2024-02-29'
====
ALTER TABLE events ADD PARTITION (region = 'US')
====
ALTER TABLE events ADD PARTITION (dt = '2024-01-03', region = 'US', country = 'x')
====
ALTER TABLE events ADD PARTITION (dt = '2024-01-03', region = '__US')
====
ALTER TABLE events ADD PARTITION (dt = 'Jan 3', region = 'US')
====
ALTER TABLE logs ADD PARTITION (id = 1)
====
ALTER TABLE nope ADD PARTITION (id = 1)
====
ALTER TABLE partitioned_users DROP IF EXISTS PARTITION (region = 'EU')
====
ALTER TABLE partitioned_users DROP PARTITION (region = :r)
-- bind: :r='US'
-- bind: 'EU'
-- bind: :x='US'
====
ALTER TABLE events SET ('table.log.ttl' = '7d', 'owner' = 'ops')
====
ALTER TABLE IF EXISTS nosuch RESET ('owner')
====
ALTER TABLE nosuch RESET ('owner')
====
ALTER TABLE users ADD (phone STRING COMMENT 'contact', tags ARRAY<STRING>)
====
ALTER TABLE users ADD name STRING
====
ALTER TABLE users ADD phone STRING NOT NULL
====
EXPLAIN ALTER TABLE users ADD COLUMN phone STRING
====
CREATE TABLE totals (id BIGINT, total BIGINT, tags STRING, ok BOOLEAN, last_seen TIMESTAMP(3),
  PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.total.agg' = 'sum',
      'fields.tags.agg' = 'LISTAGG', 'fields.tags.listagg.delimiter' = ';',
      'fields.ok.agg' = 'bool-and', 'fields.last_seen.agg' = 'max', 'fields.x' = 'custom')
====
CREATE TABLE totals (id BIGINT, total BIGINT, PRIMARY KEY (id) NOT ENFORCED)
WITH ('fields.total.agg' = 'sum')
====
CREATE TABLE totals (id BIGINT, total BIGINT, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'first_row', 'fields.total.agg' = 'sum')
====
CREATE TABLE totals (id BIGINT, total BIGINT, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.total.agg' = 'average')
====
CREATE TABLE totals (id BIGINT, total BIGINT, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.nosuch.agg' = 'sum')
====
CREATE TABLE totals (id BIGINT, total BIGINT, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.id.agg' = 'sum')
====
CREATE TABLE totals (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.name.agg' = 'sum')
====
CREATE TABLE totals (id BIGINT, total BIGINT, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.total.agg' = 'sum', 'fields.total.sum.delimiter' = ',')
====
CREATE TABLE totals (id BIGINT, tags STRING, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.tags.agg' = 'listagg', 'fields.tags.listagg.delimiter' = '')
====
CREATE TABLE totals (id BIGINT, tags STRING, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.tags.listagg.delimiter' = ';')
====
CREATE TABLE totals (id BIGINT, tags STRING, PRIMARY KEY (id) NOT ENFORCED)
WITH ('table.merge-engine' = 'aggregation', 'fields.tags.agg' = 'listagg', 'fields.tags.string_agg.delimiter' = ';')
