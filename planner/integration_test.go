package planner

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/parser"
)

// TestIntegrationAdminPlans executes DDL and SHOW plans against the real
// cluster the way the driver will, and checks what the planner builds from
// the server's answers. It needs FLUSS_BOOTSTRAP_SERVERS.
func TestIntegrationAdminPlans(t *testing.T) {
	servers := realcluster.Addr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: strings.Split(servers, ","), RequestTimeout: 20 * time.Second})
	require.NoError(t, err)
	defer client.Close()
	admin := client.Admin()
	cat := NewAdminCatalog(admin, time.Minute)
	db := fmt.Sprintf("planner_it_%d_%04d", time.Now().UnixNano()%1e10, rand.IntN(10000))
	sess := Session{Database: db}

	plan := func(sql string, args ...Arg) Plan {
		t.Helper()
		st, err := parser.Parse(sql)
		require.NoError(t, err, sql)
		p, err := Build(ctx, st, cat, sess)
		require.NoError(t, err, sql)
		p, err = Bind(p, args)
		require.NoError(t, err, sql)
		return p
	}

	cd := plan("CREATE DATABASE " + db + " COMMENT 'planner test'").(*CreateDatabase)
	require.NoError(t, admin.CreateDatabase(ctx, cd.Name, cd.Descriptor, cd.IgnoreIfExists))
	defer func() {
		dctx, dcancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer dcancel()
		p := plan("DROP DATABASE IF EXISTS " + db + " CASCADE").(*DropDatabase)
		assert.NoError(t, admin.DropDatabase(dctx, p.Name, p.IgnoreIfNotExists, p.Cascade))
	}()

	ct := plan(`CREATE TABLE orders (customer_id BIGINT, region STRING, order_id BIGINT, day DATE,
		amount DECIMAL(10, 2) COMMENT 'in EUR', PRIMARY KEY (customer_id, region, order_id) NOT ENFORCED)
		COMMENT 'orders by region' PARTITIONED BY (region)
		WITH ('bucket.num' = '3', 'bucket.key' = 'customer_id', 'owner' = 'planner-test')`).(*CreateTable)
	require.NoError(t, admin.CreateTable(ctx, ct.Path, ct.Descriptor, ct.IgnoreIfExists))

	// The server's view of the table matches the plan's descriptor.
	info, err := cat.Table(ctx, ct.Path)
	require.NoError(t, err)
	assert.Equal(t, ct.Descriptor.Schema, info.Schema(), "primary-key columns are NOT NULL on both sides")
	assert.Equal(t, []string{"customer_id"}, info.BucketKeys())
	assert.Equal(t, 3, info.NumBuckets())
	assert.Equal(t, "planner-test", info.Descriptor.CustomProperties["owner"])

	// SHOW CREATE TABLE renders a statement that plans to the same table.
	sc := plan("SHOW CREATE TABLE orders").(*ShowCreateTable)
	t.Log(sc.Rows()[0][1])
	again := plan(strings.Replace(sc.Rows()[0][1].(string), "."+"orders", ".orders_copy", 1)).(*CreateTable)
	assert.Equal(t, info.Descriptor.Schema, again.Descriptor.Schema)
	assert.Equal(t, info.Descriptor.PartitionKeys, again.Descriptor.PartitionKeys)
	assert.Equal(t, info.Descriptor.BucketKeys, again.Descriptor.BucketKeys)
	assert.Equal(t, info.Descriptor.BucketCount, again.Descriptor.BucketCount)
	assert.Equal(t, info.Descriptor.Comment, again.Descriptor.Comment)
	require.NoError(t, admin.CreateTable(ctx, again.Path, again.Descriptor, false), "the rendered statement is accepted by the server")

	desc := plan("DESCRIBE orders").(*Describe).Rows()
	assert.Equal(t, []any{"customer_id", "BIGINT", false, "primary key, bucket key", "", ""}, desc[0])
	assert.Equal(t, []any{"amount", "DECIMAL(10, 2)", true, "", "in EUR", ""}, desc[4])

	// Partitions: add through plans, list, prune.
	for _, r := range []string{"US", "EU"} {
		ap := plan("ALTER TABLE orders ADD PARTITION (region = ?)", Arg{Ordinal: 1, Value: r}).(*AddPartition)
		require.NoError(t, admin.CreatePartition(ctx, ap.Path, ap.Spec, ap.IgnoreIfExists))
	}
	cat.Invalidate(ct.Path)
	parts, err := admin.ListPartitions(ctx, ct.Path, nil)
	require.NoError(t, err)
	sp := plan("SHOW PARTITIONS orders PARTITION (region = 'EU')").(*ShowPartitions)
	rows := sp.Rows(parts)
	require.Len(t, rows, 1)
	assert.Equal(t, "region=EU", rows[0][0])

	ls := plan("SELECT * FROM orders WHERE region IN ('EU', 'ASIA') LIMIT 5").(*LimitScan)
	require.Len(t, ls.Partitions, 1)
	assert.Equal(t, "EU", ls.Partitions[0].Name)
	assert.Equal(t, rows[0][1], ls.Partitions[0].ID)

	pl := plan("SELECT * FROM orders WHERE customer_id = 1 AND region = 'US'").(*PrefixLookup)
	assert.Equal(t, "US", pl.Keys[0].Partition)

	// Writes to a missing partition name the statement that creates it.
	w := plan("INSERT INTO orders VALUES (1, 'ASIA', 2, '2024-01-01', 9.99)").(*Write)
	err = w.CheckPartitions(parts)
	require.True(t, errors.Is(err, fluss.ErrPartitionNotExists))
	var mp *MissingPartitionError
	require.True(t, errors.As(err, &mp))
	ap := plan(mp.Statement).(*AddPartition)
	require.NoError(t, admin.CreatePartition(ctx, ap.Path, ap.Spec, false))
	parts, err = admin.ListPartitions(ctx, ct.Path, nil)
	require.NoError(t, err)
	require.NoError(t, w.CheckPartitions(parts), "the statement from the error creates the missing partition")

	dp := plan("ALTER TABLE orders DROP PARTITION (region = 'EU')").(*DropPartition)
	require.NoError(t, admin.DropPartition(ctx, dp.Path, dp.Spec, dp.IgnoreIfNotExists))

	// Missing tables are reported with their name.
	st, err := parser.Parse("SELECT * FROM missing")
	require.NoError(t, err)
	_, err = Build(ctx, st, cat, sess)
	require.EqualError(t, err, "table "+db+".missing does not exist")
	assert.True(t, errors.Is(err, fluss.ErrTableNotExist))

	tables, err := admin.ListTables(ctx, db)
	require.NoError(t, err)
	assert.Equal(t, [][]any{{"orders"}, {"orders_copy"}}, plan("SHOW TABLES").(*ShowTables).Rows(tables))

	drop := plan("DROP TABLE orders_copy").(*DropTable)
	require.NoError(t, admin.DropTable(ctx, drop.Path, drop.IgnoreIfNotExists))
}
