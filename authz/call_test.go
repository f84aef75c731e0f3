package authz_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// TestCallACLProcedures runs the ACL procedures as the Fluss docs' Flink page writes them
// (named and positional arguments, catalog-qualified) and checks what they do to alice's
// rights and what list_acl reports, in Flink's form.
func TestCallACLProcedures(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	alice := open(t, "alice", alicePass)
	dbName := fixture(t, admin)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	read := query("SELECT * FROM DB.logt LIMIT 1")

	add := fmt.Sprintf("CALL sys.add_acl(resource => 'cluster.%s.logt', permission => 'ALLOW', principal => 'User:alice', operation => 'READ', host => '*')", dbName)
	rows, err := admin.Query(add)
	require.NoError(t, err, add)
	cols, err := rows.Columns()
	require.NoError(t, err)
	assert.Equal(t, []string{"result"}, cols, "Flink's column of a procedure answering strings")
	require.NoError(t, rows.Close())
	assert.Equal(t, [][]string{{"success"}}, queryRows(t, admin, add), "adding it again is no error")
	eventually(t, func() error { return read(ctx, alice, dbName) }, "after "+add)

	list := fmt.Sprintf("CALL fluss.sys.list_acl(resource => 'cluster.%s.logt')", dbName)
	want := fmt.Sprintf(`resource="cluster.%s.logt";permission="ALLOW";principal="User:alice";operation="READ";host="*"`, dbName)
	assert.Equal(t, [][]string{{want}}, queryRows(t, admin, list))
	positional := fmt.Sprintf("CALL sys.list_acl('cluster.%s.logt', 'any', 'User:alice', 'read', 'any')", dbName)
	assert.Equal(t, [][]string{{want}}, queryRows(t, admin, positional), "positional, lower case")
	assert.Empty(t, queryRows(t, admin, fmt.Sprintf("CALL sys.list_acl('cluster.%s.logt', 'ANY', 'User:bob')", dbName)))
	// The SQL form sees the same ACL.
	assert.Equal(t, [][]string{{dbName + ".logt", "User:alice", "READ", "ALLOW", "*"}},
		queryRows(t, admin, fmt.Sprintf("SHOW ACLS FOR '%s.logt'", dbName)))

	// Exec runs a procedure too; drop_acl with 'ANY' filters, as the docs' example.
	_, err = admin.Exec(fmt.Sprintf("CALL sys.drop_acl(resource => 'cluster.%s.logt', permission => 'ANY', principal => 'User:alice', operation => 'ANY', host => 'ANY')", dbName))
	require.NoError(t, err)
	assert.Empty(t, queryRows(t, admin, list))
	eventuallyDenied(t, func() error { return read(ctx, alice, dbName) }, "after sys.drop_acl")

	// A database resource, positional, and list_acl's host default '*' (Flink's).
	mustExec(t, admin, fmt.Sprintf("CALL sys.add_acl('cluster.%s', 'ALLOW', 'User:alice', 'READ', '127.0.0.1')", dbName))
	assert.Empty(t, queryRows(t, admin, fmt.Sprintf("CALL sys.list_acl('cluster.%s')", dbName)), "host not given is '*'")
	assert.Equal(t, [][]string{{fmt.Sprintf(`resource="cluster.%s";permission="ALLOW";principal="User:alice";operation="READ";host="127.0.0.1"`, dbName)}},
		queryRows(t, admin, fmt.Sprintf("CALL sys.list_acl('cluster.%s', host => 'ANY')", dbName)))
	mustExec(t, admin, fmt.Sprintf("CALL sys.drop_acl('cluster.%s', 'ALLOW', 'User:alice', 'READ', '127.0.0.1')", dbName))
	assert.Empty(t, queryRows(t, admin, fmt.Sprintf("CALL sys.list_acl('cluster.%s', host => 'ANY')", dbName)))

	// Refusals before anything is sent, and alice may not grant herself rights.
	for q, msg := range map[string]string{
		"CALL sys.add_acl('cluster', 'ALLOW', 'User:alice', 'READ', 'ANY')":     "ANY matches every value",
		"CALL sys.add_acl('cluster', 'DENY', 'User:alice', 'READ')":             "Fluss knows only 'ALLOW'",
		"CALL sys.list_acl('cluster', 'ALLOW', 'User:alice', 'UNKNOWN', 'ANY')": "operation 'UNKNOWN'",
		"CALL sys.add_acl(resource => 'cluster', principal => 'User:alice')":    "argument permission is missing",
	} {
		_, err := admin.Exec(q)
		require.Error(t, err, q)
		assert.Contains(t, err.Error(), msg, q)
	}
	_, err = alice.Exec(fmt.Sprintf("CALL sys.add_acl('cluster.%s', 'ALLOW', 'User:alice', 'WRITE')", dbName))
	assert.ErrorIs(t, err, flussql.ErrPermissionDenied)
}

// TestCallClusterConfigProcedures sets, reads and resets a dynamic cluster config with the
// procedures, checking Flink's result columns and messages.
func TestCallClusterConfigProcedures(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	const key = "kv.rocksdb.shared-rate-limiter.bytes-per-sec"
	t.Cleanup(func() { _, _ = admin.Exec("CALL sys.reset_cluster_configs('" + key + "')") })

	got := queryRows(t, admin, "CALL sys.set_cluster_configs(config_pairs => '"+key+"', '200MB')")
	assert.Equal(t, [][]string{{"Successfully set to '200MB' configuration '" + key + "'. "}}, got)

	rows, err := admin.Query("CALL sys.get_cluster_configs(config_keys => '" + key + "', 'no.such.key')")
	require.NoError(t, err)
	cols, err := rows.Columns()
	require.NoError(t, err)
	require.NoError(t, rows.Close())
	assert.Equal(t, []string{"config_key", "config_value", "config_source"}, cols)
	got = queryRows(t, admin, "CALL sys.get_cluster_configs('"+key+"', 'no.such.key')")
	require.Len(t, got, 1, "a key the cluster lacks gives no row")
	assert.Equal(t, key, got[0][0])
	assert.Equal(t, "200MB", got[0][1])
	assert.Equal(t, "DYNAMIC_SERVER_CONFIG", got[0][2])
	all := queryRows(t, admin, "CALL fluss.sys.get_cluster_configs()")
	assert.Greater(t, len(all), 1)

	got = queryRows(t, admin, "CALL sys.reset_cluster_configs(config_keys => '"+key+"')")
	assert.Equal(t, [][]string{{"Successfully deleted (reset to default) configuration '" + key + "'. "}}, got)
	for _, r := range queryRows(t, admin, "CALL sys.get_cluster_configs('"+key+"')") {
		assert.NotEqual(t, "DYNAMIC_SERVER_CONFIG", r[2], "reset removes the dynamic value")
	}

	_, err = admin.Exec("CALL sys.set_cluster_configs('" + key + "')")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "in pairs")
	_, err = admin.Exec("CALL sys.set_cluster_configs('no.such.config', 'x')")
	require.Error(t, err, "the coordinator refuses a key it cannot change at run time")
	alice := open(t, "alice", alicePass)
	_, err = alice.Exec("CALL sys.set_cluster_configs('" + key + "', '100MB')")
	assert.ErrorIs(t, err, flussql.ErrPermissionDenied)
}

// TestCallRebalanceProcedures starts a rebalance, lists it with Flink's columns and cancels
// what is left (Fluss 0.9+ servers).
func TestCallRebalanceProcedures(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	got := queryRows(t, admin, "CALL sys.rebalance('REPLICA_DISTRIBUTION,LEADER_DISTRIBUTION')")
	require.Len(t, got, 1)
	id := got[0][0]
	require.NotEmpty(t, id, "the rebalance's id")

	rows, err := admin.Query("CALL sys.list_rebalance('" + id + "')")
	require.NoError(t, err)
	cols, err := rows.Columns()
	require.NoError(t, err)
	require.NoError(t, rows.Close())
	assert.Equal(t, []string{"rebalance_id", "rebalance_status", "rebalance_progress", "rebalance_plan"}, cols)
	for _, q := range []string{"CALL sys.list_rebalance('" + id + "')", "CALL sys.list_rebalance(rebalanceId => '" + id + "')", "CALL sys.list_rebalance()"} {
		got = queryRows(t, admin, q)
		require.Len(t, got, 1, q)
		assert.Equal(t, id, got[0][0], q)
		assert.Contains(t, []string{"NOT_STARTED", "REBALANCING", "COMPLETED", "CANCELED", "FAILED"}, got[0][1], q)
		var plan struct {
			ID      string            `json:"rebalance_id"`
			Buckets []json.RawMessage `json:"progress_for_buckets"`
		}
		require.NoError(t, json.Unmarshal([]byte(got[0][3]), &plan), q)
		assert.Equal(t, id, plan.ID)
		if len(plan.Buckets) == 0 {
			assert.Equal(t, "NONE", got[0][2], "a rebalance without bucket moves has no progress share (one tablet server)")
		} else {
			assert.True(t, strings.HasSuffix(got[0][2], "%"), got[0][2])
		}
	}
	assert.Equal(t, [][]string{{"success"}}, queryRows(t, admin, "CALL sys.cancel_rebalance(rebalanceId => '"+id+"')"))
	_, err = admin.Exec("CALL sys.cancel_rebalance('not-exist-id')")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not-exist-id")

	_, err = admin.Exec("CALL sys.rebalance('REPLICA_DISTRIBUTION,EVERYTHING')")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "unknown rebalance goal \"EVERYTHING\"")
}
