package flussql_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFlinkCallProcedures runs the same CALL sys.* statements through flussql and through
// Flink (the Fluss connector's procedures behind the SQL Gateway) on one cluster and compares
// the result columns and rows: the cluster-config procedures and list_rebalance answer alike,
// and on a cluster without an authorizer both refuse the ACL procedures.
func TestFlinkCallProcedures(t *testing.T) {
	gwAddr := os.Getenv(flinkGatewayEnv)
	if gwAddr == "" {
		t.Skipf("%s is not set: no Flink SQL Gateway to compare with (make flink-up prints one)", flinkGatewayEnv)
	}
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	fl := openFlinkSession(ctx, t, gwAddr, dbName)
	catalog := "flussql_" + dbName
	const key = "kv.rocksdb.shared-rate-limiter.bytes-per-sec"
	t.Cleanup(func() { _, _ = db.Exec("CALL sys.reset_cluster_configs('" + key + "')") })

	// Each statement runs on flussql first, then on Flink (flinkCall when Flink needs another
	// spelling: Flink 1.20 refuses a named variadic argument, "named arguments are not
	// supported for varArgs", the form the Fluss docs write; flussql takes both).
	for _, c := range []struct {
		name, call, flinkCall string
		columnsOnly           bool // the rows differ by nature (a new rebalance id each)
	}{
		{"set", "sys.set_cluster_configs(config_pairs => '" + key + "', '200MB')", "sys.set_cluster_configs('" + key + "', '200MB')", false},
		{"set again", "sys.set_cluster_configs('" + key + "', '300MB')", "", false},
		{"get named", "sys.get_cluster_configs(config_keys => '" + key + "', 'no.such.key')", "sys.get_cluster_configs('" + key + "', 'no.such.key')", false},
		{"get positional", "sys.get_cluster_configs('" + key + "')", "", false},
		{"get all", "sys.get_cluster_configs()", "", false},
		{"reset", "sys.reset_cluster_configs(config_keys => '" + key + "')", "sys.reset_cluster_configs('" + key + "')", false},
		{"get after reset", "sys.get_cluster_configs('" + key + "')", "", false},
		{"list no rebalance", "sys.list_rebalance('no-such-rebalance')", "", true},
		{"rebalance", "sys.rebalance('REPLICA_DISTRIBUTION,LEADER_DISTRIBUTION')", "", true},
		{"list latest rebalance", "sys.list_rebalance()", "", false},
		{"cancel latest rebalance", "sys.cancel_rebalance()", "", false},
	} {
		if c.flinkCall == "" {
			c.flinkCall = c.call
		}
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			gotCols, got := callFlussql(ctx, t, db, "CALL "+c.call)
			op, err := fl.s.Execute(ctx, "CALL "+catalog+"."+c.flinkCall, nil)
			require.NoError(t, err)
			defer op.Close(context.WithoutCancel(ctx))
			rows, err := op.All(ctx)
			require.NoError(t, err, "Flink: CALL %s", c.flinkCall)
			var refCols []string
			for _, col := range op.Columns {
				refCols = append(refCols, col.Name)
			}
			var ref [][]string
			for _, r := range rows {
				ref = append(ref, r.Strings("NULL"))
			}
			assert.Equal(t, refCols, gotCols, "result columns")
			require.Len(t, got, len(ref), "rows")
			switch {
			case c.columnsOnly:
			case c.name == "get all":
				assert.ElementsMatch(t, ref, got, "rows") // Flink keeps the server's order
			default:
				assert.Equal(t, ref, got, "rows")
			}
		})
	}

	// Without an authorizer both refuse the ACL procedures.
	ferr := func() error {
		op, err := fl.s.Execute(ctx, "CALL "+catalog+".sys.list_acl(resource => 'ANY')", nil)
		if err != nil {
			return err
		}
		defer op.Close(context.WithoutCancel(ctx))
		_, err = op.All(ctx)
		return err
	}()
	require.Error(t, ferr, "Flink lists ACLs of a cluster without an authorizer")
	_, err := db.QueryContext(ctx, "CALL sys.list_acl(resource => 'ANY')")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no authorizer")
	t.Logf("Flink: %v", ferr)
}

// callFlussql runs q and returns its column names and rows as strings ("NULL" for NULL).
func callFlussql(ctx context.Context, t *testing.T, db *sql.DB, q string) ([]string, [][]string) {
	t.Helper()
	rows, err := db.QueryContext(ctx, q)
	require.NoError(t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		row := make([]string, len(cols))
		for i, v := range vals {
			row[i] = "NULL"
			if v.Valid {
				row[i] = v.String
			}
		}
		out = append(out, row)
	}
	require.NoError(t, rows.Err())
	return cols, out
}
