INSERT INTO alltypes VALUES (TRUE, -128, 32767, -2147483648, 9223372036854775807, 1.5, -2.5e-3, 12345678.91,
  'abc', 'text', X'00ff', 'bytes', DATE '2024-02-29', TIME '23:59:59.999',
  TIMESTAMP '2024-01-01 12:00:00.123456789', TIMESTAMP '2024-01-01 12:00:00.5', NULL)
====
INSERT INTO alltypes (b, ti, si, i, bi, f, d, dec, dt, tm, ts, ltz) VALUES ('false', '7', '8', '9', '10', '1e3', '0.1', '7', '2024-01-01', '12:30', '2024-01-01T01:02:03', '2024-01-01T01:02:03+02:00')
====
INSERT INTO alltypes (ti) VALUES (128)
====
INSERT INTO alltypes (si) VALUES (-32769)
====
INSERT INTO alltypes (i) VALUES (2147483648)
====
INSERT INTO alltypes (bi) VALUES (9223372036854775808)
====
INSERT INTO alltypes (i) VALUES (1.5)
====
INSERT INTO alltypes (i) VALUES (2.0)
====
INSERT INTO alltypes (f) VALUES (1e39)
====
INSERT INTO alltypes (dec) VALUES (1.005)
====
INSERT INTO alltypes (dec) VALUES (123456789)
====
INSERT INTO alltypes (dec) VALUES (1e2)
====
INSERT INTO alltypes (c) VALUES ('abcd')
====
INSERT INTO alltypes (bin) VALUES (X'0001020304')
====
INSERT INTO alltypes (b) VALUES (1)
====
INSERT INTO alltypes (s) VALUES (42)
====
INSERT INTO alltypes (dt) VALUES ('2024-13-01')
====
INSERT INTO alltypes (dt) VALUES (TIMESTAMP '2024-01-01 00:00:00')
====
INSERT INTO alltypes (ts) VALUES (DATE '2024-01-01')
====
INSERT INTO alltypes (tm) VALUES (TIME '25:00:00')
====
INSERT INTO alltypes (arr) VALUES ('[1]')
====
INSERT INTO alltypes (bs) VALUES (TRUE)
====
INSERT INTO alltypes (i, bi, f, d, dec, s, bs, dt, tm, ts, ltz, b) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
-- bind: 7, 8, 1.5, 2, 3.25, 'text', 'raw', time:2024-01-01T23:30:00+02:00, time:2024-01-01T23:30:00.123456+02:00, time:2024-01-01T23:30:00.123456789+02:00, time:2024-01-01T23:30:00.123456+02:00, TRUE
-- bind: 7, 8, 1.5, 2, 3.255, 'text', 'raw', NULL, NULL, NULL, NULL, NULL
-- bind: 7.5, 8, 1.5, 2, 3, 'text', 'raw', NULL, NULL, NULL, NULL, NULL
-- bind: 7, 8, 1e300, 2, 3, 'text', 'raw', NULL, NULL, NULL, NULL, NULL
-- bind: 7, 8, 1, 2, 3, 4, 'raw', NULL, NULL, NULL, NULL, NULL
-- bind: 7, 8, 1, 2, 3, 'x', 'raw', 'soon', NULL, NULL, NULL, NULL
====
INSERT INTO nested VALUES (1, ARRAY['a', NULL, 'c'], MAP['x', 1, 'y', NULL], ROW('Oslo', 150), ARRAY[ARRAY[1, 2], ARRAY[]])
====
INSERT INTO nested (id, tags, attrs, addr, grid) VALUES (2, NULL, MAP[], ROW(NULL, NULL), NULL)
====
INSERT INTO nested (id, tags) VALUES (?, ?)
====
INSERT INTO nested (id, tags) VALUES (3, ARRAY[1, 'b'])
====
INSERT INTO nested (id, tags) VALUES (3, ARRAY[?])
====
INSERT INTO nested (id, attrs) VALUES (3, MAP[NULL, 1])
====
INSERT INTO nested (id, attrs) VALUES (3, MAP['k', 'v'])
====
INSERT INTO nested (id, addr) VALUES (3, ROW('Oslo'))
====
INSERT INTO nested (id, grid) VALUES (3, ARRAY[ARRAY[1, NULL]])
====
INSERT INTO nested (id, tags) VALUES (3, MAP['k', 1])
====
INSERT INTO nested (id, tags) VALUES (3, 'a,b')
====
INSERT INTO nested (id, grid) VALUES (3, ARRAY[1])
====
UPSERT INTO nested (id, tags) VALUES (4, ARRAY['z'])
====
UPDATE nested SET tags = ARRAY['u'], addr = ROW('Rome', NULL) WHERE id = 5
====
SELECT id FROM nested WHERE tags = ARRAY['a']
====
SELECT id FROM nested WHERE tags IS NULL LIMIT 5
====
INSERT INTO nested (id, attrs) VALUES (3, MAP['k', 1, 'k', 2])
====
SELECT id, tags FROM nested WHERE id IN (1, 2) AND tags IS NOT NULL
====
SELECT id FROM nested WHERE addr = ROW('x', 1)
