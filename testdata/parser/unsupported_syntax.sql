-- refusals of syntax other branches may add (WITH, OVER): regenerate when they land
WITH x AS (SELECT 1) SELECT * FROM x
====
EXPLAIN WITH x AS (SELECT 1) SELECT * FROM x
