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
====
-- constants folded before the server filter is decided (TPC-H Q6): the bounds are literals
SELECT SUM(l_extendedprice * l_discount) AS revenue FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1994-01-01' + INTERVAL '1' YEAR AND l_discount BETWEEN 0.06 - 0.01 AND 0.06 + 0.01 AND l_quantity < 24
====
-- the same with literal bounds: the same server filter
SELECT SUM(l_extendedprice * l_discount) AS revenue FROM lineitem WHERE l_shipdate >= DATE '1994-01-01' AND l_shipdate < DATE '1995-01-01' AND l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24
====
-- CAST of a literal, integer arithmetic, a quotient, a negation, string concatenation and TIMESTAMPADD fold too
SELECT l_orderkey FROM lineitem WHERE l_shipdate <= CAST('1995-01-01' AS DATE) AND l_quantity > 1 + 2 AND l_discount < 1.0 / 8 AND l_quantity <> -(2 * 3) AND l_shipmode IN ('AI' || 'R', 'MAIL') AND l_shipdate > TIMESTAMPADD(DAY, 3, DATE '1994-12-30')
====
-- not folded: division by zero (fails on every row, as written), the clock, a placeholder
SELECT l_orderkey FROM lineitem WHERE l_quantity < 1 / 0 OR l_shipdate < CURRENT_DATE OR l_quantity > ? + 1
-- bind: 5
====
-- a DATE value compared with a string column, or a string with a DATE column, is not folded (the literal would be read as the column's type)
SELECT l_orderkey FROM lineitem WHERE l_shipmode = CAST(DATE '1994-01-01' AS STRING) AND l_shipdate = '1994-01-' || '01'
====
-- folded bounds on columns the server has statistics for are sent to it
SELECT * FROM metrics WHERE id < 400 + 100 AND v BETWEEN 10 - 5 AND 2 * 5 AND host = 'h' || '1'
