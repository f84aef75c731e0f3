INSERT INTO logs VALUES (1, 'started', 3, TIMESTAMP '2024-01-01 10:00:00.123'), (2, NULL, 4, NULL)
====
INSERT INTO logs (level, id) VALUES (1, 10)
====
INSERT INTO logs (id, msg) VALUES (1, 'x')
====
INSERT INTO logs (id, level) VALUES (?, ?), (?, ?)
-- bind: 1, 2, 3, 4
-- bind: 1, NULL, 3, 4
-- bind: 1, 2, 3
-- bind: 1, 3000000000, 3, 4
====
INSERT INTO logs VALUES (1, 'x')
====
INSERT INTO logs (id, id) VALUES (1, 2)
====
INSERT INTO logs (id, levle) VALUES (1, 2)
====
UPSERT INTO logs VALUES (1, 'x', 2, NULL)
====
INSERT INTO events VALUES (1, 'US', DATE '2024-01-01', 10, X'cafe')
====
INSERT INTO events (id, region, dt) VALUES (1, 'ASIA', '2024-01-05')
====
INSERT INTO events (id, region) VALUES (1, 'US')
====
INSERT INTO users VALUES (1, 'ana', 'ana@example.com', 10), (2, 'bo', NULL, NULL)
====
UPSERT INTO users VALUES (?, ?, ?, ?)
-- bind: 5, 'cy', NULL, 99
-- bind: NULL, 'cy', NULL, 99
-- bind: 5, NULL, NULL, 99
-- bind: 5, 'cy', NULL, 'lots'
====
INSERT INTO users VALUES (NULL, 'x', NULL, NULL)
====
-- users.name is NOT NULL, so Fluss refuses partial updates of users
INSERT INTO users (user_id, score) VALUES (1, 10)
====
INSERT INTO partitioned_users (user_id, region) VALUES (1, 'US')
====
INSERT INTO partitioned_users (region, score) VALUES ('US', 1)
====
UPSERT INTO partitioned_users VALUES (1, 'US', 100), (2, 'EU', 200), (3, 'ASIA', 300)
====
INSERT INTO orders (amount, customer_id, order_id) VALUES (12.5, 1, 2), (-0.01, 1, 3)
====
INSERT INTO orders (customer_id, order_id, amount) VALUES (1, 2, 12.345)
====
INSERT INTO orders (customer_id, order_id, amount) VALUES (1, 2, 123456789.5)
====
DELETE FROM users WHERE user_id = 5
====
DELETE FROM partitioned_users WHERE region = ? AND user_id = ?
-- bind: 'EU', 7
-- bind: NULL, 7
====
DELETE FROM partitioned_users WHERE user_id = 1
====
DELETE FROM users WHERE user_id > 5
====
DELETE FROM users WHERE user_id = 1 OR user_id = 2
====
DELETE FROM users WHERE user_id = 1 AND score = 2
====
DELETE FROM users
====
DELETE FROM users WHERE user_id = NULL
====
DELETE FROM logs WHERE id = 1
====
UPDATE partitioned_users SET score = ? WHERE user_id = ? AND region = 'US'
-- bind: 42, 1
-- bind: NULL, 1
-- bind: 1.5, 1
====
UPDATE partitioned_users SET region = 'EU' WHERE user_id = 1 AND region = 'US'
====
UPDATE users SET score = 1 WHERE user_id = 1
====
UPDATE logs SET level = 1 WHERE id = 1
====
UPDATE orders SET amount = 9.99, status = 'paid' WHERE customer_id = 1 AND order_id = 2
====
INSERT INTO partitioned_users VALUES (:id, :region, :score)
-- bind: :id=1, :region='US', :score=5
-- bind: :id=1, :region='US'
====
EXPLAIN DELETE FROM users WHERE user_id = 1
====
INSERT INTO logs (id, level) VALUES (?, ?)
-- bind: :id=1, :level=2
-- bind: 1, 2
