CREATE TABLE a (id INT) WITH ('bucket.num' = '1');
CREATE TABLE b (id NOSUCHTYPE);
CREATE TABLE c (id INT) WITH ('bucket.num' = '1');
