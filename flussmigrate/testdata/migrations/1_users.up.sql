-- the first table, and a row in it (two statements)
CREATE TABLE users (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1');
INSERT INTO users VALUES (1, 'Ada; Lovelace');
