-- The shell's output paths against the test-only fake driver (no cluster needed).
\?
\l
\dt
\d numbers
\dp numbers
\timing off
SELECT * FROM numbers LIMIT 4;
INSERT INTO numbers VALUES (1), (2);
SELECT id,
       name
  FROM numbers LIMIT 2; SELECT * FROM numbers LIMIT 0;
\x
SELECT * FROM numbers LIMIT 3;
\x off
\format json
SELECT * FROM numbers LIMIT 3;
\format tsv
SELECT * FROM numbers LIMIT 3;
\format table
\c analytics
\timing on
SELECT * FROM numbers LIMIT 1;
-- psql's habits: variables, \echo, \g, \watch, \h, \x auto
\timing off
\set lim 2
\set who 'it''s me'
\echo limit :lim, :'who'
SELECT id, name FROM numbers LIMIT :lim
\g
\watch 0 count=2
\h USE
\x auto
SELECT * FROM numbers LIMIT 1;
\x off
\timing on
-- the first error ends a script; what follows never runs
SELECT * FROM numbers WHERE id = = 1;
SELECT * FROM numbers;
