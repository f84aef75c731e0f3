DROP TABLE events;
DROP TABLE orders;
