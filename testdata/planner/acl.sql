EXPLAIN CREATE ACL (resource => 'db.orders', principal => 'User:alice', operation => 'WRITE')
====
EXPLAIN CREATE ACL (resource => 'cluster', principal => 'ALL', operation => 'DESCRIBE', host => '127.0.0.1')
====
EXPLAIN CREATE ACL (resource => '*.*', principal => 'User:bob', operation => 'READ')
====
EXPLAIN DROP ACL (resource => 'db', principal => 'User:alice', operation => 'READ')
====
EXPLAIN DROP ACL (resource => 'ANY')
====
EXPLAIN SHOW ACLS
====
EXPLAIN SHOW ACLS FOR 'db.orders'
====
CREATE ACL (resource => '*', principal => 'User:alice', operation => 'CREATE')
====
SHOW ACLS FOR 'cluster'
