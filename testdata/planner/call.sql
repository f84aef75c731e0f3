CALL sys.add_acl(resource => 'CLUSTER', permission => 'ALLOW', principal => 'User:Alice', operation => 'READ', host => '*')
====
CALL fluss.sys.add_acl('cluster.db.orders', 'allow', 'User:Alice', 'read')
====
CALL sys.add_acl(resource => 'my_database.my_table', permission => 'ALLOW', principal => 'User:Bob', operation => 'WRITE', host => '192.168.1.100')
====
CALL sys.drop_acl(resource => 'ANY', permission => 'ANY', principal => 'User:Alice', operation => 'ANY', host => 'ANY')
====
CALL sys.drop_acl('CLUSTER', 'ALLOW', 'User:Alice', 'READ')
====
CALL sys.drop_acl(NULL, NULL, 'User:Alice', NULL, NULL)
====
CALL sys.list_acl(resource => 'ANY')
====
CALL sys.list_acl(resource => 'ANY', principal => 'User:Alice')
====
CALL sys.list_acl('cluster.db', 'ANY', 'ALL', 'READ', 'ANY')
====
CALL sys.get_cluster_configs()
====
CALL sys.get_cluster_configs(config_keys => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec', 'datalake.format')
====
CALL sys.get_cluster_configs('datalake.format')
====
CALL sys.set_cluster_configs(config_pairs => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec', '200MB', 'datalake.format','paimon')
====
CALL sys.set_cluster_configs('security.sasl.plain.credentials', 'bob:bob-secret')
====
CALL sys.reset_cluster_configs(config_keys => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec', 'datalake.format')
====
CALL sys.rebalance('RACK_AWARE,REPLICA_DISTRIBUTION,LEADER_DISTRIBUTION')
====
CALL sys.rebalance(priorityGoals => 'replica_distribution')
====
CALL sys.list_rebalance()
====
CALL sys.list_rebalance(rebalanceId => 'rebalance-12345')
====
CALL sys.cancel_rebalance('rebalance-12345')
====
CALL sys.cancel_rebalance()
====
CALL sys.add_acl('CLUSTER', 'ALLOW', 'User:Alice', 'READ', 'ANY')
====
CALL sys.add_acl('CLUSTER', 'DENY', 'User:Alice', 'READ')
====
CALL sys.add_acl('CLUSTER', 'ALLOW', 'User:Alice', 'CLUSTER_ACTION')
====
CALL sys.add_acl('CLUSTER', 'ALLOW', 'Alice', 'READ')
====
CALL sys.add_acl(resource => 'CLUSTER', principal => 'User:Alice', operation => 'READ')
====
CALL sys.add_acl('CLUSTER', 'ALLOW', 'User:Alice', 'READ', '*', 'extra')
====
CALL sys.add_acl(resource => 'CLUSTER', 'ALLOW', 'User:Alice', 'READ')
====
CALL sys.add_acl(resource => 'CLUSTER', resource => 'cluster.db', permission => 'ALLOW', principal => 'User:Alice', operation => 'READ')
====
CALL sys.add_acl(resourse => 'CLUSTER')
====
CALL sys.list_acl()
====
CALL sys.set_cluster_configs()
====
CALL sys.set_cluster_configs('kv.rocksdb.shared-rate-limiter.bytes-per-sec')
====
CALL sys.set_cluster_configs(' ', '1')
====
CALL sys.set_cluster_configs('a', NULL)
====
CALL sys.reset_cluster_configs()
====
CALL sys.rebalance()
====
CALL sys.rebalance('REPLICA_DISTRIBUTION,')
====
CALL sys.rebalance('EVERYTHING')
====
CALL sys.add_server_tag('0', 'PERMANENT_OFFLINE')
====
CALL sys.append_cluster_configs('security.sasl.plain.credentials', 'bob:bob-secret')
====
CALL sys.no_such_procedure()
