-- The statements GORM sends for Create, First, Find, Where, Order, Limit, Count, Update, Save
-- and Delete, as its callbacks write them with the flussgorm dialector (backticks, ?, LIMIT ?).
SELECT VERSION()
====
INSERT INTO `users` (`user_id`,`name`,`email`,`score`) VALUES (?,?,?,?),(?,?,?,?)
-- bind: 1, 'ada', NULL, 36, 2, 'bob', 'b@x', 25
====
SELECT * FROM `users` WHERE `users`.`user_id` = ? ORDER BY `users`.`user_id` LIMIT ?
-- bind: 3, 1
====
SELECT * FROM `users` WHERE user_id = ? ORDER BY `users`.`user_id` LIMIT ?
-- bind: 3, 1
====
SELECT * FROM `users` WHERE `users`.`user_id` IN (?,?,?) ORDER BY user_id desc LIMIT ?
-- bind: 1, 2, 4, 2
====
SELECT * FROM `users` WHERE user_id IN (?,?) AND name = ? ORDER BY score desc
-- bind: 1, 2, 'bob'
====
SELECT * FROM `users` WHERE name = ? LIMIT ?
-- bind: 'bob', 100
====
SELECT * FROM `users`
====
SELECT count(*) FROM `users` WHERE user_id IN (?,?,?)
-- bind: 1, 2, 99
====
SELECT count(*) FROM `users`
====
UPDATE `users` SET `name`=? WHERE `user_id` = ?
-- bind: 'cyd', 3
====
UPDATE `users` SET `name`=?,`email`=?,`score`=? WHERE `user_id` = ?
-- bind: 'cyd', NULL, 42, 3
-- bind: NULL, NULL, 42, 3
====
DELETE FROM `users` WHERE `users`.`user_id` = ?
-- bind: 1
====
DELETE FROM `users` WHERE `users`.`user_id` IN (?,?)
-- bind: 1, 2
====
-- db.Delete(&[]Order{…}) and Where("… IN ?") on a composite key: one key per combination.
DELETE FROM `orders` WHERE `customer_id` = ? AND `orders`.`order_id` IN (?,?)
-- bind: 7, 1, 2
====
DELETE FROM `orders` WHERE `customer_id` IN (7, 8) AND `order_id` IN (1, 2)
====
UPDATE `orders` SET `status`=? WHERE customer_id = ? AND order_id IN (?,?)
-- bind: 'shipped', 7, 1, 2
====
DELETE FROM `orders` WHERE `customer_id` = 7 AND `order_id` NOT IN (1, 2)
====
DELETE FROM `orders` WHERE `customer_id` = 7 AND `order_id` IN (1, customer_id)
====
DELETE FROM `orders` WHERE `customer_id` = 7 AND `order_id` IN (1) AND `order_id` = 2
