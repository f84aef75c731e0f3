DELETE FROM users WHERE user_id = 1 AND region = 'US'
====
DELETE FROM fluss.users WHERE user_id = ?
====
UPDATE users SET score = 10 WHERE user_id = 1 AND region = 'US'
====
UPDATE users SET score = ?, name = ? WHERE user_id = ?
====
UPDATE users SET score = NULL, d = DATE '2024-01-01' WHERE user_id = :id
====
DELETE FROM users
====
UPDATE users SET score = 1
====
DELETE FROM users WHERE id = 1 LIMIT 1
====
DELETE FROM users WHERE id = 1 ORDER BY id
====
DELETE a FROM a JOIN b ON a.id = b.id WHERE a.x = 1
====
DELETE FROM users PARTITION (p) WHERE id = 1
====
UPDATE users SET score = score + 1 WHERE id = 1
====
UPDATE users SET score = other WHERE id = 1
====
UPDATE users SET a = 1, a = 2 WHERE id = 1
====
UPDATE users SET a = 1 WHERE id = 1 LIMIT 1
====
UPDATE users SET a = 1 WHERE id = 1 ORDER BY a
====
UPDATE a, b SET a.x = 1 WHERE a.id = 1
====
UPDATE users SET u.a = 1 WHERE id = 1
====
DELETE users WHERE id = 1
====
DELETE FROM users WHERE
====
SELECT * FROM users WHERE id = $1
====
INSERT INTO users VALUES ($1, $23)
