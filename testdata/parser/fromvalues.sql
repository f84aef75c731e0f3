SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y)
====
SELECT * FROM (VALUES (1, 'a'), (2.5, 'b'))
====
SELECT v.x FROM (VALUES (1), (?)) v (x) WHERE v.x > 0
====
SELECT * FROM t JOIN (VALUES (1, 'a')) AS v (id, name) ON v.id = t.id
====
INSERT INTO u SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y)
====
SELECT * FROM (VALUES (1, 'a'), (2)) AS t (x, y)
====
SELECT * FROM (VALUES (1, 'a')) AS t (x)
====
SELECT * FROM (VALUES ()) AS t
====
SELECT * FROM (VALUES (NULL, 'a', NULL), (1, NULL, NULL)) AS t (x, y, z)
