CALL sys.add_acl(
  resource => 'CLUSTER',
  permission => 'ALLOW',
  principal => 'User:Alice',
  operation => 'READ',
  host => '*'
);
====
CALL fluss_catalog.sys.drop_acl(resource => 'ANY', permission => 'ANY', principal => 'User:Alice', operation => 'ANY', host => 'ANY')
====
Call fluss.sys.add_acl('cluster', 'allow', 'User:Alice', 'read', '127.0.0.1' )
====
CALL sys.list_acl(resource => 'ANY')
====
CALL sys.get_cluster_configs()
====
CALL sys.get_cluster_configs(config_keys => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec', 'datalake.format')
====
CALL sys.set_cluster_configs(config_pairs => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec', '200MB', 'datalake.format','paimon')
====
CALL sys.rebalance(priorityGoals => 'RACK_AWARE,REPLICA_DISTRIBUTION')
====
CALL `Fluss Catalog`.`SYS`.`List_Rebalance`(NULL)
====
EXPLAIN CALL sys.cancel_rebalance('rebalance-12345')
====
CALL sys.list_acl
====
CALL list_acl()
====
CALL a.b.sys.list_acl()
====
CALL system.list_acl()
====
CALL sys.list_acl('ANY',)
====
CALL sys.list_acl(resource = 'ANY')
====
CALL sys.list_acl(resource => ANY)
====
CALL sys.list_acl(?)
====
CALL sys.list_acl(1)
====
CALL sys.list_acl('ANY') extra
