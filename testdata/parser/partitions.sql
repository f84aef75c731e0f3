ALTER TABLE my_part_pk_table ADD PARTITION (dt = '2025-03-05');
====
ALTER TABLE my_multi_fields_part_log_table ADD PARTITION (dt = '2025-03-05', nation = 'US');
====
ALTER TABLE fluss.events ADD IF NOT EXISTS PARTITION (region = 'EU')
====
ALTER TABLE events ADD PARTITION (year = 2025, region = ?)
====
ALTER TABLE my_part_pk_table DROP PARTITION (dt = '2025-03-05');
====
ALTER TABLE events DROP IF EXISTS PARTITION (region = :r)
====
SHOW PARTITIONS my_part_pk_table;
====
SHOW PARTITIONS my_multi_fields_part_log_table PARTITION (dt = '2025-03-05');
====
SHOW PARTITIONS fluss.t PARTITION (dt = '2025-03-05', nation = 'US')
====
ALTER TABLE events ADD PARTITION (region = 'US', region = 'EU')
====
ALTER TABLE events ADD PARTITION ()
====
ALTER TABLE events ADD PARTITION (region)
====
ALTER TABLE events ADD PARTITION (region = 'US') PARTITION (region = 'EU')
====
ALTER TABLE events ADD PARTITION (PARTITION p_us VALUES IN ('US'))
====
ALTER TABLE events ADD COLUMN c INT
====
ALTER TABLE events SET ('k' = 'v')
====
ALTER TABLE events RENAME TO e2
====
ALTER TABLE events DROP IF EXISTS region
====
ALTER TABLE events ADD IF NOT EXISTS (region = 'x')
====
ALTER VIEW v ADD PARTITION (a = '1')
====
SHOW PARTITIONS
====
ALTER TABLE events ADD PARTITION (region = 1.5)
====
SHOW SERVERS
====
show servers now
====
SHOW OFFSETS FOR db.events
====
SHOW OFFSETS FOR events PARTITION (region = 'US', `day` = ?)
====
SHOW OFFSETS events
====
SHOW KV SNAPSHOTS FOR users
====
SHOW KV SNAPSHOTS FOR users PARTITION (dt = '2024-01-01')
====
SHOW ACTIVE KV SNAPSHOTS FOR users PARTITION (dt = ?)
====
SHOW KV users
====
SHOW CLUSTER CONFIGS
====
SHOW CLUSTER CONFIGS LIKE 'datalake.%'
====
SHOW CLUSTER
====
SHOW NOTHING
