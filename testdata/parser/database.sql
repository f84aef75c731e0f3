CREATE DATABASE my_db
====
CREATE DATABASE IF NOT EXISTS my_db;
====
create database if not exists `My-Db` comment 'a db' with ('k1' = 'v1', 'a.b' = 'it''s')
====
CREATE SCHEMA s COMMENT 'only comment'
====
CREATE DATABASE d WITH ('x' = 'y')
====
DROP DATABASE my_db
====
DROP DATABASE IF EXISTS my_db CASCADE
====
DROP DATABASE IF EXISTS my_db RESTRICT
====
USE fluss;
====
USE `select`
====
SHOW DATABASES
====
SHOW DATABASES LIKE 'f%'
====
CREATE DATABASE d WITH ('x' = 'y', 'x' = 'z')
====
CREATE DATABASE d WITH ()
====
CREATE DATABASE d WITH ('x' = 1)
====
CREATE DATABASE d COMMENT 'c' EXTRA
====
CREATE DATABASE
====
DROP DATABASE d PURGE
====
USE CATALOG fluss_catalog
====
SHOW DATABASES LIKE
====
ALTER DATABASE shop SET ('owner' = 'data-team', 'tier' = 'gold')
====
ALTER DATABASE IF EXISTS shop RESET ('tier', 'owner')
====
ALTER DATABASE shop COMMENT 'orders and users'
====
ALTER DATABASE shop
====
ALTER DATABASE shop SET ()
====
ALTER SCHEMA shop SET ('a' = 'b')
====
ALTER VIEW v SET ('a' = 'b')
====
SHOW CREATE DATABASE shop
====
SHOW CLUSTER HEALTH
