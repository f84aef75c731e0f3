INSERT INTO events (id, region, value) VALUES (1, 'US', 100), (2, 'EU', 200)
====
INSERT INTO events VALUES (?, ?, ?)
====
INSERT INTO fluss.events VALUES (:id, :region, :value), (:id2, :region, :value)
====
UPSERT INTO users (user_id, region, score) VALUES (1, 'US', 1234)
====
upsert /* c */ into users (user_id, region, score) values (?, 'UPSERT INTO', ?);
====
INSERT INTO t (a, b, c, d, e, f, g, h, i, j) VALUES (-1, 1.5, -2.5e3, 'it''s \\ ok', TRUE, false, NULL, X'0a1B', DATE '2024-02-29', TIMESTAMP '2024-01-01 12:34:56.789')
====
INSERT INTO t (a, b) VALUES (TIME '23:59:59', TIMESTAMP '2024-01-01T00:00:00')
====
INSERT INTO `select` (`key`, `date`) VALUES ("double quoted is a string", '')
====
INSERT INTO t VALUES (- -5, +3, -(-1.5))
====
REPLACE INTO users (user_id) VALUES (1)
====
INSERT INTO users (user_id, region, score) VALUES (1, 'US', 5) ON DUPLICATE KEY UPDATE score = VALUES(score)
====
INSERT IGNORE INTO t VALUES (1)
====
INSERT INTO t PARTITION (p) VALUES (1)
====
INSERT INTO events SELECT * FROM other
====
INSERT INTO t (a, b) VALUES (1)
====
INSERT INTO t VALUES (1, 2), (3)
====
INSERT INTO t (a, a) VALUES (1, 2)
====
INSERT INTO t (a) VALUES (b)
====
INSERT INTO t (a) VALUES (1 + 2)
====
INSERT INTO t (a) VALUES (now())
====
INSERT INTO t (a) VALUES (0x1F)
====
INSERT INTO t (a) VALUES (DEFAULT)
====
INSERT INTO t (a) VALUES (DATE '2024-02-30')
====
INSERT INTO t (a) VALUES (TIMESTAMP '2024-01-01')
====
INSERT INTO t (a) VALUES (TIME '25:00:00')
====
INSERT INTO t (a) VALUES (1 = 1)
====
INSERT INTO t VALUES
====
INSERT INTO t (a) VALUES (1,
====
UPSERT users VALUES (1)
====
INSERT INTO t (id, tags, attrs, addr) VALUES (1, ARRAY['a', NULL], MAP['k', 1, 'j', -2], ROW('Oslo', ARRAY[ARRAY[1], ARRAY[]], ?))
====
insert into t values (array [ :a, :b ], map[], row (DATE '2024-01-01'))
====
INSERT INTO t VALUES (ARRAY[1)
====
INSERT INTO t VALUES (ARRAY 1])
====
INSERT INTO t VALUES (MAP['k'])
====
INSERT INTO t VALUES (ROW())
====
INSERT INTO t VALUES (array(1, 2))
====
INSERT INTO t VALUES (ARRAY[col])
====
INSERT INTO t VALUES (`row`(1))
