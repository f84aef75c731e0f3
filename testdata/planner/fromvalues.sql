SELECT * FROM (VALUES (1, 'a'), (2, 'b')) AS t (x, y)
====
-- the common type of each column; Flink's names without a column list
SELECT * FROM (VALUES (1, 'a'), (2.5, 'bc'), (CAST(NULL AS INT), CAST(NULL AS STRING)))
====
-- a bare NULL is typed STRING (the engine's untyped NULL), so it needs a CAST among numbers
SELECT * FROM (VALUES (1), (NULL))
====
SELECT l.id, v.name FROM logs l JOIN (VALUES (1, 'one'), (2, 'two')) AS v (id, name) ON v.id = l.id
