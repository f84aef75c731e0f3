-- psql's habits against a real cluster: \d+, variables, \g, \watch, \x auto, \h.
\timing off
CREATE TABLE $DB.events (id INT, region STRING, v BIGINT) PARTITIONED BY (region) WITH ('bucket.num' = '1');
ALTER TABLE $DB.events ADD PARTITION (region = 'EU');
INSERT INTO $DB.events VALUES (1, 'EU', 10), (2, 'EU', 20);
\d+ $DB.events
\set t $DB.events
\set r EU
\echo reading :t for :'r'
SELECT id, v FROM :t WHERE region = :'r' ORDER BY id
\g
\watch 0 count=2
\x auto
SELECT COUNT(*) AS n FROM :t;
\x off
\h ALTER TABLE
