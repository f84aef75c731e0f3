CREATE TABLE all_types (
  c_bool BOOLEAN,
  c_tiny TINYINT,
  c_small SMALLINT,
  c_int INT,
  c_integer INTEGER,
  c_big BIGINT,
  c_float FLOAT,
  c_double DOUBLE,
  c_double_p DOUBLE PRECISION,
  c_dec DECIMAL,
  c_dec_p DECIMAL(20),
  c_dec_ps DECIMAL(10, 2),
  c_numeric NUMERIC(38, 38),
  c_char CHAR,
  c_char_n CHAR(5),
  c_varchar VARCHAR(16),
  c_varchar_bare VARCHAR,
  c_string STRING,
  c_binary BINARY(4),
  c_varbinary VARBINARY(10),
  c_bytes BYTES,
  c_date DATE,
  c_time TIME,
  c_time_p TIME(3),
  c_ts TIMESTAMP,
  c_ts_p TIMESTAMP(3),
  c_ts_wo TIMESTAMP(9) WITHOUT TIME ZONE,
  c_ts_ltz TIMESTAMP_LTZ,
  c_ts_ltz_p TIMESTAMP_LTZ(3),
  c_ts_wltz TIMESTAMP(3) WITH LOCAL TIME ZONE,
  c_ts_wltz_bare TIMESTAMP WITH LOCAL TIME ZONE NOT NULL
)
====
CREATE TABLE nested (
  a ARRAY<INT>,
  b ARRAY<STRING NOT NULL> NOT NULL,
  c MAP<STRING, BIGINT>,
  d ARRAY<ARRAY<INT>>,
  e MAP<STRING, ARRAY<MAP<INT, BYTES>>>,
  f ROW<x INT, y STRING 'the y field'>,
  g ROW(x INT NOT NULL, `y z` DECIMAL(5, 1)),
  h ARRAY<ROW<k STRING, v ARRAY<INT>>>
)
====
CREATE TABLE t (a DECIMAL(39, 2))
====
CREATE TABLE t (a DECIMAL(5, 6))
====
CREATE TABLE t (a DECIMAL(0))
====
CREATE TABLE t (a TIMESTAMP(10))
====
CREATE TABLE t (a TIME(-1))
====
CREATE TABLE t (a CHAR(0))
====
CREATE TABLE t (a VARCHAR(99999999999999999999))
====
CREATE TABLE t (a TEXT)
====
CREATE TABLE t (a `INT`)
====
CREATE TABLE t (a TIMESTAMP WITH TIME ZONE)
====
CREATE TABLE t (a ARRAY<INT)
====
CREATE TABLE t (a ARRAY<>)
====
CREATE TABLE t (a MAP<INT>)
====
CREATE TABLE t (a ROW<x INT, x INT>)
====
CREATE TABLE t (a ROW<>)
====
CREATE TABLE t (a MULTISET<INT>)
====
CREATE TABLE t (a DECIMAL(10, 2
