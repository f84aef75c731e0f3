SELECT * FROM users WHERE user_id = 1
====
SELECT name AS who, score FROM users WHERE user_id IN (1, 2, 2, NULL) AND score > 10
====
SELECT * FROM users WHERE user_id = ?
-- bind: 42
-- bind: NULL
-- bind: 'abc'
-- bind: 3000000000
====
SELECT COUNT(*) FROM users WHERE user_id IN (?, ?)
-- bind: 1, 2
====
SELECT * FROM partitioned_users WHERE user_id = 1 AND region = 'US'
====
SELECT user_id, score FROM partitioned_users WHERE user_id IN (1, 2) AND region IN ('US', 'EU')
====
SELECT * FROM partitioned_users WHERE region = :r AND user_id = :id
-- bind: :id=7, :r='EU'
-- bind: 'EU', 7
====
SELECT * FROM orders WHERE customer_id = 7
====
SELECT * FROM orders WHERE customer_id = 7 AND order_id = 3
====
SELECT order_id, amount FROM orders WHERE customer_id = 7 AND amount >= 10.5
====
SELECT * FROM region_orders WHERE customer_id = 7 AND region = 'US'
====
SELECT * FROM region_orders WHERE customer_id = 7
====
SELECT * FROM region_orders WHERE customer_id = 7 LIMIT 5
====
SELECT * FROM users LIMIT 10
====
SELECT * FROM users WHERE score > 5 LIMIT ?
-- bind: 3
-- bind: -1
====
SELECT * FROM partitioned_users WHERE region = 'EU' LIMIT 100
====
SELECT * FROM partitioned_users WHERE region = 'ASIA' LIMIT 100
====
SELECT * FROM users
====
SELECT * FROM users WHERE score = 1
====
SELECT * FROM orders WHERE order_id = 1
====
SELECT COUNT(*) FROM users LIMIT 10
====
SELECT * FROM users /*+ OPTIONS('scan.startup.mode' = 'latest') */ WHERE user_id = 1
====
SELECT * FROM users WHERE user_id = 1 OR user_id = 2 LIMIT 2
====
SELECT score FROM users WHERE user_id = 1 LIMIT 1
====
SELECT * FROM users WHERE user_id = 1 AND user_id = 2
====
EXPLAIN SELECT * FROM users WHERE user_id IN (SELECT 1)
