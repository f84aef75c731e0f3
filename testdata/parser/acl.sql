CREATE ACL (resource => 'fluss.orders', principal => 'User:alice', operation => 'READ', permission => 'ALLOW')
====
create acl (operation => 'write', principal => 'User:bob', resource => 'cluster.fluss.orders', host => '127.0.0.1')
====
CREATE ACL (resource = 'cluster', principal = 'ALL', operation = 'describe')
====
CREATE ACL (resource => '*', principal => 'User:alice', operation => 'ALL')
====
CREATE ACL (resource => '*.*', principal => '*', operation => 'READ')
====
CREATE ACL (resource => 'cluster.cluster', principal => 'User:alice', operation => 'CREATE')
====
CREATE ACL (resource => 'fluss', principal => 'User:alice')
====
CREATE ACL (resource => 'fluss.*', principal => 'User:alice', operation => 'READ')
====
CREATE ACL (resource => 'a.b.c.d', principal => 'User:alice', operation => 'READ')
====
CREATE ACL (resource => 'fluss', principal => 'alice', operation => 'READ')
====
CREATE ACL (resource => 'fluss', principal => 'User:alice', operation => 'SELECT')
====
CREATE ACL (resource => 'fluss', principal => 'User:alice', operation => 'READ', permission => 'DENY')
====
CREATE ACL (resource => 'ANY', principal => 'User:alice', operation => 'READ')
====
CREATE ACL (resource => 'fluss', principal => 'User:alice', operation => 'READ', resource => 'x')
====
CREATE ACL (resource => 'fluss', user => 'alice')
====
CREATE ACL (resource => fluss)
====
CREATE ACL resource => 'fluss'
====
DROP ACL (principal => 'User:alice')
====
DROP ACL (resource => 'fluss.orders', principal => 'ANY', operation => 'any', permission => 'ANY', host => 'ANY')
====
DROP ACL (resource => 'ANY')
====
DROP ACL ()
====
SHOW ACLS
====
show acls for 'fluss.orders'
====
SHOW ACLS FOR 'cluster'
====
SHOW ACLS FOR 'ANY'
====
SHOW ACLS FOR fluss
====
SHOW ACLS FOR 'fluss' LIKE 'x'
====
EXPLAIN CREATE ACL (resource => 'fluss.orders', principal => 'User:alice', operation => 'WRITE')
====
DROP ACL (principal => 'ANY')
