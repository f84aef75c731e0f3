CREATE TABLE orders (id BIGINT, user_id BIGINT, total DOUBLE) WITH ('bucket.num' = '1');
CREATE TABLE events (at TIMESTAMP, kind STRING) WITH ('bucket.num' = '1')
