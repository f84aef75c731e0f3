-- ARRAY, MAP and ROW values and ALTER TABLE in the shell, against a real cluster. $DB is a
-- database the test creates for this session and drops afterwards. The last statement fails
-- (the column exists), which ends the session with status 1.
\c $DB
CREATE TABLE profiles (
  id    INT,
  tags  ARRAY<STRING>,
  prefs MAP<STRING, INT>,
  addr  ROW<city STRING, zip INT>,
  PRIMARY KEY (id) NOT ENFORCED
) WITH ('bucket.num' = '2');
INSERT INTO profiles VALUES
  (1, ARRAY['go', NULL, 'a tag longer than seven'], MAP['theme', 2, 'font', NULL], ROW('Oslo', 150)),
  (2, ARRAY[], MAP[], ROW(NULL, NULL)),
  (3, NULL, NULL, NULL);
SELECT * FROM profiles WHERE id IN (1, 2, 3);
\format json
SELECT * FROM profiles WHERE id IN (1, 2, 3);
\format table
ALTER TABLE profiles ADD (email STRING COMMENT 'contact');
\d profiles
UPSERT INTO profiles (id, email) VALUES (1, 'ada@example.com');
SELECT id, tags, email FROM profiles WHERE id IN (1, 2);
ALTER TABLE profiles SET ('owner' = 'ops');
SHOW CREATE TABLE profiles;
ALTER TABLE profiles ADD email STRING;
