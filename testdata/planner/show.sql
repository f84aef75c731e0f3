SHOW DATABASES
====
SHOW DATABASES LIKE 'flu%'
====
SHOW TABLES
====
SHOW TABLES FROM other LIKE '%users'
====
-- database: none
SHOW TABLES
====
SHOW PARTITIONS events
====
SHOW PARTITIONS events PARTITION (region = 'US')
====
SHOW PARTITIONS events PARTITION (dt = ?)
-- bind: '2024-01-01'
====
SHOW PARTITIONS logs
====
SHOW CREATE TABLE region_orders
====
SHOW CREATE TABLE events
====
DESCRIBE partitioned_users
====
DESC fluss.orders
====
DESCRIBE nope
====
EXPLAIN SHOW TABLES
====
EXPLAIN SELECT * FROM users WHERE user_id = ?
-- bind: 7
====
SHOW SERVERS
====
SHOW CLUSTER CONFIGS LIKE 'datalake.%'
====
SHOW OFFSETS FOR logs
====
SHOW OFFSETS FOR events
====
SHOW OFFSETS FOR events PARTITION (dt = ?)
-- bind: '2024-01-01'
====
SHOW KV SNAPSHOTS FOR users
====
SHOW KV SNAPSHOTS FOR partitioned_users PARTITION (region = 'EU')
====
SHOW ACTIVE KV SNAPSHOTS FOR users
====
SHOW KV SNAPSHOTS FOR logs
====
SHOW OFFSETS FOR nope
====
EXPLAIN SHOW OFFSETS FOR events PARTITION (region = 'US')
====
ALTER DATABASE fluss SET ('owner' = 'data', 'tier' = 'gold')
====
ALTER DATABASE IF EXISTS fluss RESET ('tier')
====
ALTER DATABASE fluss COMMENT 'the default'
====
SHOW CREATE DATABASE fluss
====
SHOW CLUSTER HEALTH

====
SHOW FUNCTIONS LIKE 'JSON%'
