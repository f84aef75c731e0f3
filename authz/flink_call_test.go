package authz_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/internal/flinkgw"
)

// TestFlinkACLProcedures runs the ACL procedures through flussql and through Flink's (the
// Fluss connector behind the SQL Gateway named by FLUSSQL_FLINK_GATEWAY, with a catalog that
// signs in as admin) on the authorizing cluster, and compares what list_acl answers: the same
// column and the same strings, for ACLs either side added.
func TestFlinkACLProcedures(t *testing.T) {
	needCluster(t)
	gwAddr := os.Getenv("FLUSSQL_FLINK_GATEWAY")
	if gwAddr == "" {
		t.Skip("FLUSSQL_FLINK_GATEWAY is not set: no Flink SQL Gateway to compare with (make flink-up prints one)")
	}
	admin := open(t, "admin", adminPass)
	dbName := fixture(t, admin)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := flinkgw.New(gwAddr, nil).OpenSession(ctx, "flussql-authz-"+dbName, nil)
	require.NoError(t, err)
	catalog := "authz_" + dbName
	flink := func(stmt string) ([]string, [][]string, error) {
		op, err := s.Execute(ctx, stmt, nil)
		if err != nil {
			return nil, nil, err
		}
		defer op.Close(context.WithoutCancel(ctx))
		rows, err := op.All(ctx)
		if err != nil {
			return nil, nil, err
		}
		var cols []string
		for _, c := range op.Columns {
			cols = append(cols, c.Name)
		}
		var out [][]string
		for _, r := range rows {
			out = append(out, r.Strings("NULL"))
		}
		return cols, out, nil
	}
	t.Cleanup(func() {
		_, _, _ = flink("DROP CATALOG IF EXISTS " + catalog)
		_ = s.Close(context.Background())
	})
	_, _, err = flink(fmt.Sprintf("CREATE CATALOG %s WITH ('type' = 'fluss', 'bootstrap.servers' = '%s', 'client.security.protocol' = 'SASL', "+
		"'client.security.sasl.mechanism' = 'PLAIN', 'client.security.sasl.username' = 'admin', 'client.security.sasl.password' = '%s')", catalog, servers, adminPass))
	require.NoError(t, err)

	// One ACL added by Flink, one by flussql, on the fixture's database and a table of it.
	cols, rows, err := flink(fmt.Sprintf("CALL %s.sys.add_acl('cluster.%s', 'ALLOW', 'User:alice', 'READ', '127.0.0.1')", catalog, dbName))
	require.NoError(t, err)
	assert.Equal(t, []string{"result"}, cols)
	assert.Equal(t, [][]string{{"success"}}, rows)
	assert.Equal(t, [][]string{{"success"}}, queryRows(t, admin, fmt.Sprintf("CALL sys.add_acl('cluster.%s.logt', 'ALLOW', 'ALL', 'WRITE')", dbName)))

	for _, filter := range []string{
		fmt.Sprintf("'cluster.%s', 'ANY', 'ANY', 'ANY', 'ANY'", dbName),
		fmt.Sprintf("'cluster.%s.logt'", dbName),
		fmt.Sprintf("resource => 'cluster.%s.logt', principal => 'ALL'", dbName),
		fmt.Sprintf("'cluster.%s', 'ALLOW', 'User:alice', 'READ', '127.0.0.1'", dbName),
	} {
		refCols, ref, err := flink(fmt.Sprintf("CALL %s.sys.list_acl(%s)", catalog, filter))
		require.NoError(t, err, filter)
		rows, err := admin.Query("CALL sys.list_acl(" + filter + ")")
		require.NoError(t, err, filter)
		gotCols, err := rows.Columns()
		require.NoError(t, err)
		require.NoError(t, rows.Close())
		assert.Equal(t, refCols, gotCols, filter)
		assert.NotEmpty(t, ref, filter)
		assert.ElementsMatch(t, ref, queryRows(t, admin, "CALL sys.list_acl("+filter+")"), filter)
	}

	// Each side drops the other's ACL; both then list none.
	_, _, err = flink(fmt.Sprintf("CALL %s.sys.drop_acl('cluster.%s.logt', 'ALLOW', 'ALL', 'WRITE')", catalog, dbName))
	require.NoError(t, err)
	mustExec(t, admin, fmt.Sprintf("CALL sys.drop_acl('cluster.%s', 'ANY', 'User:alice', 'ANY', '127.0.0.1')", dbName))
	for _, filter := range []string{fmt.Sprintf("resource => 'cluster.%s', host => 'ANY'", dbName), fmt.Sprintf("resource => 'cluster.%s.logt', host => 'ANY'", dbName)} {
		_, ref, err := flink(fmt.Sprintf("CALL %s.sys.list_acl(%s)", catalog, filter))
		require.NoError(t, err, filter)
		assert.Empty(t, ref, filter)
		assert.Empty(t, queryRows(t, admin, "CALL sys.list_acl("+filter+")"), filter)
	}
}
