ALTER TABLE users SET ('table.log.ttl' = '7d', 'owner' = 'ops')
====
alter table if exists db.users reset ('owner', 'table.log.ttl');
====
ALTER TABLE users ADD email STRING COMMENT 'contact'
====
ALTER TABLE users ADD COLUMN tags ARRAY<STRING>
====
ALTER TABLE IF EXISTS users ADD (email STRING, age INT COMMENT 'years', `key` MAP<STRING, INT>)
====
ALTER TABLE totals ADD (visits BIGINT, tags STRING) WITH ('fields.visits.agg' = 'sum', 'fields.tags.agg' = 'listagg', 'fields.tags.listagg.delimiter' = ';')
====
ALTER TABLE totals ADD visits BIGINT WITH 'fields.visits.agg' = 'sum'
====
ALTER TABLE totals ADD visits BIGINT WITH ('fields.visits.agg' = 'sum') COMMENT 'x'
====
ALTER TABLE users ADD email STRING FIRST
====
ALTER TABLE users ADD email STRING AFTER id
====
ALTER TABLE users ADD (id2 INT PRIMARY KEY NOT ENFORCED)
====
ALTER TABLE users ADD (a INT, a STRING)
====
ALTER TABLE users ADD (a INT b STRING)
====
ALTER TABLE users SET ()
====
ALTER TABLE users SET ('k' = 'v', 'k' = 'w')
====
ALTER TABLE users RESET ('k' = 'v')
====
ALTER TABLE users RESET ('k', 'k')
====
ALTER TABLE IF EXISTS users ADD PARTITION (region = 'US')
====
ALTER TABLE users RENAME TO people
====
ALTER TABLE users DROP COLUMN email
====
ALTER TABLE users ADD email STRING NOT NULL
