-- Server filters: WHERE conjuncts sent to Fluss 1.0 servers for tables with statistics columns
-- (metrics: statistics on id, host, v, ok; none on x).
SELECT * FROM metrics WHERE id < 500
====
SELECT host FROM metrics WHERE id >= 10 AND host = 'a' AND x > 1.5
====
SELECT * FROM metrics WHERE id IN (1, 2, NULL)
====
SELECT * FROM metrics WHERE host IS NULL OR v BETWEEN 5 AND 10
====
-- an OR with a side the server cannot check pushes nothing
SELECT * FROM metrics WHERE id < 5 OR x > 1
====
SELECT * FROM metrics WHERE ok AND 100 > id
====
SELECT * FROM metrics WHERE id < ? AND host <> ?
-- bind: 7, 'z'
====
SELECT host, COUNT(*) FROM metrics WHERE id > 3 AND host IS NOT NULL GROUP BY host
====
-- out of the column's range, NOT, LIKE: not pushed
SELECT * FROM metrics WHERE id < 3000000000 OR NOT (id < 5) OR host LIKE 'a%'
====
-- a table without statistics columns pushes nothing
SELECT * FROM logs WHERE id < 5
====
-- LIKE … ESCAPE is never pushed to the server: the engine evaluates it
SELECT id FROM metrics WHERE host LIKE 'h\_%' ESCAPE '\' AND v > 10
