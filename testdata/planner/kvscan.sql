-- server: kvscan
SELECT * FROM users
====
-- server: kvscan
SELECT name, score FROM users WHERE score > 10
====
-- server: kvscan
SELECT * FROM users LIMIT 5 OFFSET 2
====
-- server: kvscan
SELECT user_id FROM users WHERE name = 'x' LIMIT 5
====
-- server: kvscan
SELECT COUNT(*) FROM users
====
-- server: kvscan
SELECT region, SUM(score) FROM partitioned_users WHERE region = 'EU' GROUP BY region ORDER BY 2 DESC
====
-- server: kvscan
SELECT DISTINCT status FROM orders ORDER BY status LIMIT ?
-- bind: 3
====
-- server: kvscan
-- a key condition is still a lookup
SELECT * FROM users WHERE user_id = 1
====
-- server: kvscan
SELECT * FROM region_orders WHERE region = 'EU' AND customer_id = 1
====
-- server: kvscan
EXPLAIN SELECT * FROM partitioned_users WHERE region IN ('US', 'ASIA')
====
-- without SCAN_KV the refusal stays
SELECT * FROM users
