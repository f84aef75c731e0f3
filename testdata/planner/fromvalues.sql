SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y)
====
-- the common type of each column; Flink's names without a column list
SELECT * FROM (VALUES (1, 'a'), (2.5, 'bc'), (CAST(NULL AS INT), CAST(NULL AS STRING)))
====
-- a bare NULL takes the type of the column's first plain literal
SELECT * FROM (VALUES (NULL, 'a', NULL), (1, NULL, NULL), (2.5, 'b', NULL)) AS t (x, y, z)
====
SELECT l.id, v.name FROM logs l JOIN (VALUES (1, 'one'), (2, 'two')) AS v (id, name) ON v.id = l.id
