CREATE TABLE my_pk_table (
  shop_id BIGINT,
  user_id BIGINT,
  num_orders INT,
  total_amount INT,
  PRIMARY KEY (shop_id, user_id) NOT ENFORCED
) WITH (
  'bucket.num' = '4'
);
====
CREATE TABLE my_log_table (
  order_id BIGINT,
  item_id BIGINT,
  amount INT,
  address STRING
) WITH (
  'bucket.num' = '8'
);
====
CREATE TABLE my_part_pk_table (
  dt STRING,
  shop_id BIGINT,
  user_id BIGINT,
  num_orders INT,
  total_amount INT,
  PRIMARY KEY (dt, shop_id, user_id) NOT ENFORCED
) PARTITIONED BY (dt);
====
CREATE TABLE IF NOT EXISTS fluss.users (
  user_id INT NOT NULL COMMENT 'the id',
  region STRING,
  score BIGINT NULL,
  PRIMARY KEY (user_id, region) NOT ENFORCED
) COMMENT 'users by region' PARTITIONED BY (region)
WITH ('bucket.num' = '4', 'bucket.key' = 'user_id', 'table.auto-partition.enabled' = 'true', 'table.auto-partition.time-unit' = 'day')
====
CREATE TABLE t (id INT PRIMARY KEY NOT ENFORCED, v STRING)
====
CREATE TABLE t (PRIMARY KEY (id) NOT ENFORCED, id INT)
====
CREATE TABLE t (id INT, PRIMARY KEY (id))
====
CREATE TABLE `db`.`my table` (`key` STRING, `date` DATE, `select` INT, Value INT)
====
CREATE TABLE t (a INT, a BIGINT)
====
CREATE TABLE t (a INT, PRIMARY KEY (b) NOT ENFORCED)
====
CREATE TABLE t (a INT, PRIMARY KEY (a, a) NOT ENFORCED)
====
CREATE TABLE t (a INT PRIMARY KEY, b INT, PRIMARY KEY (b))
====
CREATE TABLE t (a INT, PRIMARY KEY (a) ENFORCED)
====
CREATE TABLE t (a INT) PARTITIONED BY (b)
====
CREATE TABLE t (a INT) WITH ('bucket.num' = '4') PARTITIONED BY (a)
====
CREATE TABLE t (a INT) PARTITION BY LIST (a)
====
CREATE TABLE t ()
====
CREATE TABLE t (a INT,)
====
CREATE TABLE t (a INT, b AS a + 1)
====
CREATE TABLE t (a INT, WATERMARK FOR a AS a)
====
CREATE TABLE t (a INT, CONSTRAINT pk PRIMARY KEY (a) NOT ENFORCED)
====
CREATE TABLE t (a INT) ENGINE=fluss
====
CREATE TABLE t (a INT
====
CREATE TEMPORARY TABLE t (a INT)
====
DROP TABLE users
====
DROP TABLE IF EXISTS fluss.users;
====
DROP TABLE
====
DESCRIBE fluss.users
====
DESC users
====
DESCRIBE EXTENDED users
====
SHOW CREATE TABLE fluss.users
====
SHOW TABLES
====
SHOW TABLES FROM fluss
====
SHOW TABLES IN fluss LIKE 'us%'
====
SHOW TABLES LIKE 'us%'
====
SHOW COLUMNS FROM users
