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
-- the first error ends a script; what follows never runs
SELECT * FROM numbers WHERE id = = 1;
SELECT * FROM numbers;
