package fluss_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

func TestServerNodes(t *testing.T) {
	c := connect(t)
	nodes, err := c.Admin().ServerNodes(testCtx(t))
	require.NoError(t, err)
	var coordinators, tablets int
	for _, n := range nodes {
		switch n.Type {
		case fluss.CoordinatorServer:
			coordinators++
		case fluss.TabletServer:
			tablets++
		}
		assert.NotEmpty(t, n.Host)
		assert.Positive(t, n.Port)
	}
	assert.Equal(t, 1, coordinators)
	assert.GreaterOrEqual(t, tablets, 1)
}

func TestConnectUnreachable(t *testing.T) {
	bootstrap(t)
	start := time.Now()
	_, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: []string{"127.0.0.1:1"}, ConnectTimeout: 2 * time.Second})
	require.Error(t, err)
	assert.ErrorIs(t, err, flusserr.NetworkException)
	assert.Less(t, time.Since(start), 10*time.Second)
}

func TestDatabaseLifecycle(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	name := uniqueName("db")
	desc := fluss.DatabaseDescriptor{Comment: "a comment", CustomProperties: map[string]string{"owner": "flussql"}}

	require.NoError(t, admin.CreateDatabase(ctx, name, desc, false))
	t.Cleanup(func() { _ = admin.DropDatabase(testCtx(t), name, true, true) })

	ok, err := admin.DatabaseExists(ctx, name)
	require.NoError(t, err)
	assert.True(t, ok)

	info, err := admin.GetDatabaseInfo(ctx, name)
	require.NoError(t, err)
	assert.Equal(t, name, info.Name)
	assert.Equal(t, desc, info.Descriptor)
	assert.WithinDuration(t, time.Now(), info.CreatedTime, time.Minute)

	dbs, err := admin.ListDatabases(ctx)
	require.NoError(t, err)
	assert.Contains(t, dbs, name)
	assert.Contains(t, dbs, "fluss")

	err = admin.CreateDatabase(ctx, name, desc, false)
	assert.ErrorIs(t, err, fluss.ErrDatabaseAlreadyExist)
	assert.Contains(t, err.Error(), name, "the server's message names the database")
	require.NoError(t, admin.CreateDatabase(ctx, name, desc, true))

	tables, err := admin.ListTables(ctx, name)
	require.NoError(t, err)
	assert.Empty(t, tables)

	// A database with a table needs cascade.
	require.NoError(t, admin.CreateTable(ctx, fluss.TablePath{Database: name, Table: "t"}, logTable(), false))
	err = admin.DropDatabase(ctx, name, false, false)
	assert.ErrorIs(t, err, fluss.ErrDatabaseNotEmpty)
	require.NoError(t, admin.DropDatabase(ctx, name, false, true))

	ok, err = admin.DatabaseExists(ctx, name)
	require.NoError(t, err)
	assert.False(t, ok)

	assert.ErrorIs(t, admin.DropDatabase(ctx, name, false, false), fluss.ErrDatabaseNotExist)
	assert.NoError(t, admin.DropDatabase(ctx, name, true, false))
	_, err = admin.GetDatabaseInfo(ctx, name)
	assert.ErrorIs(t, err, fluss.ErrDatabaseNotExist)
	_, err = admin.ListTables(ctx, name)
	assert.ErrorIs(t, err, fluss.ErrDatabaseNotExist)
	err = admin.CreateTable(ctx, fluss.TablePath{Database: name, Table: "t"}, logTable(), false)
	assert.ErrorIs(t, err, fluss.ErrDatabaseNotExist)
}

func TestInvalidDatabaseName(t *testing.T) {
	admin := connect(t).Admin()
	err := admin.CreateDatabase(testCtx(t), "bad name!", fluss.DatabaseDescriptor{}, false)
	assert.ErrorIs(t, err, flusserr.InvalidDatabaseException)
}

func logTable() fluss.TableDescriptor {
	return fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewBigInt()},
		{Name: "v", Type: types.NewString()},
	}}}
}

// allScalarColumns has one column of every Fluss scalar type.
func allScalarColumns() []types.Column {
	return []types.Column{
		{Name: "c_bool", Type: types.NewBoolean(), Comment: "a boolean"},
		{Name: "c_tinyint", Type: types.NewTinyInt()},
		{Name: "c_smallint", Type: types.NewSmallInt()},
		{Name: "c_int", Type: types.NewInt().AsNotNull()},
		{Name: "c_bigint", Type: types.NewBigInt()},
		{Name: "c_float", Type: types.NewFloat()},
		{Name: "c_double", Type: types.NewDouble()},
		{Name: "c_dec_small", Type: types.NewDecimal(10, 2)},
		{Name: "c_dec_big", Type: types.NewDecimal(38, 18)},
		{Name: "c_char", Type: types.NewChar(5)},
		{Name: "c_string", Type: types.NewString(), Comment: "with \"quotes\" and ünïcode"},
		{Name: "c_binary", Type: types.NewBinary(4)},
		{Name: "c_bytes", Type: types.NewBytes()},
		{Name: "c_date", Type: types.NewDate()},
		{Name: "c_time0", Type: types.NewTime(0)},
		{Name: "c_time3", Type: types.NewTime(3)},
		{Name: "c_ts0", Type: types.NewTimestamp(0)},
		{Name: "c_ts3", Type: types.NewTimestamp(3)},
		{Name: "c_ts6", Type: types.NewTimestamp(6)},
		{Name: "c_ts9", Type: types.NewTimestamp(9)},
		{Name: "c_ltz3", Type: types.NewTimestampLTZ(3)},
		{Name: "c_ltz6", Type: types.NewTimestampLTZ(6)},
	}
}

func assertSameSchema(t *testing.T, want, got types.Schema) {
	t.Helper()
	require.Equal(t, want.ColumnNames(), got.ColumnNames())
	for i, c := range want.Columns {
		wt := c.Type
		if slices.Contains(want.PrimaryKey, c.Name) {
			wt = wt.AsNotNull()
		}
		assert.Equal(t, wt.String(), got.Columns[i].Type.String(), "column %s", c.Name)
		assert.Equal(t, c.Comment, got.Columns[i].Comment, "column %s", c.Name)
	}
	assert.Equal(t, want.PrimaryKey, got.PrimaryKey)
}

func TestCreateLogTableEveryScalarType(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "all_types"}
	desc := fluss.TableDescriptor{
		Schema:           types.Schema{Columns: allScalarColumns()},
		BucketCount:      3,
		BucketKeys:       []string{"c_int"},
		Properties:       map[string]string{"table.log.format": "ARROW", "table.log.arrow.compression.type": "LZ4_FRAME"},
		CustomProperties: map[string]string{"k": "v", "quoted": `"x"`},
		Comment:          "every scalar type",
	}
	require.NoError(t, admin.CreateTable(ctx, path, desc, false))

	ok, err := admin.TableExists(ctx, path)
	require.NoError(t, err)
	assert.True(t, ok)
	tables, err := admin.ListTables(ctx, db)
	require.NoError(t, err)
	assert.Equal(t, []string{"all_types"}, tables)

	info, err := admin.GetTableInfo(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, path, info.Path)
	assert.GreaterOrEqual(t, info.TableID, int64(0), "table ids start at 0 on a fresh cluster")
	assert.Equal(t, int32(1), info.SchemaID)
	assertSameSchema(t, desc.Schema, info.Schema())
	assert.Equal(t, 3, info.NumBuckets())
	assert.Equal(t, []string{"c_int"}, info.BucketKeys())
	assert.False(t, info.IsPartitioned())
	assert.False(t, info.HasPrimaryKey())
	assert.Equal(t, "every scalar type", info.Descriptor.Comment)
	assert.Equal(t, desc.CustomProperties, info.Descriptor.CustomProperties)
	assert.Equal(t, "LZ4_FRAME", info.Property(fluss.PropArrowCompression, ""))
	assert.Equal(t, "ARROW", info.LogFormat())
	assert.Equal(t, "1", info.Property(fluss.PropReplicationFactor, ""), "server defaults are merged in")
	assert.WithinDuration(t, time.Now(), info.CreatedTime, time.Minute)

	schema, id, err := admin.GetTableSchema(ctx, path, -1)
	require.NoError(t, err)
	assert.Equal(t, int32(1), id)
	assertSameSchema(t, desc.Schema, schema)

	err = admin.CreateTable(ctx, path, desc, false)
	assert.ErrorIs(t, err, fluss.ErrTableAlreadyExist)
	assert.NoError(t, admin.CreateTable(ctx, path, desc, true))

	require.NoError(t, admin.DropTable(ctx, path, false))
	ok, err = admin.TableExists(ctx, path)
	require.NoError(t, err)
	assert.False(t, ok)
	assert.ErrorIs(t, admin.DropTable(ctx, path, false), fluss.ErrTableNotExist)
	assert.NoError(t, admin.DropTable(ctx, path, true))
	_, err = admin.GetTableInfo(ctx, path)
	assert.ErrorIs(t, err, fluss.ErrTableNotExist)
	assert.Contains(t, err.Error(), "all_types", "the server's message names the table")
}

func TestCreateNestedTypes(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "nested"}
	desc := fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()},
		{Name: "tags", Type: types.NewArray(types.NewString())},
		{Name: "attrs", Type: types.NewMap(types.NewString().AsNotNull(), types.NewBigInt())},
		{Name: "point", Type: types.NewRow(
			types.Field{Name: "x", Type: types.NewDouble(), Description: "x axis"},
			types.Field{Name: "y", Type: types.NewRow(types.Field{Name: "z", Type: types.NewInt()})},
		)},
	}}}
	require.NoError(t, admin.CreateTable(ctx, path, desc, false))
	info, err := admin.GetTableInfo(ctx, path)
	require.NoError(t, err)
	assertSameSchema(t, desc.Schema, info.Schema())
	assert.Equal(t, "x axis", info.Schema().Columns[3].Type.Fields[0].Description)
}

func TestCreatePrimaryKeyPartitionedTable(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "orders"}
	desc := fluss.TableDescriptor{
		Schema: types.Schema{
			Columns: []types.Column{
				{Name: "region", Type: types.NewString()},
				{Name: "id", Type: types.NewBigInt()},
				{Name: "name", Type: types.NewString(), Comment: "customer name"},
				{Name: "amount", Type: types.NewDecimal(10, 2)},
				{Name: "ts", Type: types.NewTimestamp(3)},
			},
			PrimaryKey: []string{"region", "id"},
		},
		PartitionKeys: []string{"region"},
		BucketCount:   4,
		Properties:    map[string]string{"table.auto-partition.enabled": "false"},
	}
	require.NoError(t, admin.CreateTable(ctx, path, desc, false))
	info, err := admin.GetTableInfo(ctx, path)
	require.NoError(t, err)
	assertSameSchema(t, desc.Schema, info.Schema())
	assert.True(t, info.HasPrimaryKey())
	assert.True(t, info.IsPartitioned())
	assert.Equal(t, []string{"region"}, info.PartitionKeys())
	assert.Equal(t, []string{"id"}, info.PhysicalPrimaryKey())
	assert.Equal(t, []string{"id"}, info.BucketKeys())
	assert.Equal(t, 4, info.NumBuckets())
	assert.Equal(t, "COMPACTED", info.KvFormat())
	assert.True(t, info.Schema().Columns[0].Type.NotNull, "primary-key columns come back NOT NULL")
}

func TestCreateTableErrors(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	pk := types.Schema{Columns: []types.Column{{Name: "a", Type: types.NewInt()}, {Name: "b", Type: types.NewInt()}}, PrimaryKey: []string{"a"}}

	tests := []struct {
		name  string
		path  fluss.TablePath
		desc  fluss.TableDescriptor
		is    error
		local bool // refused before sending
	}{
		{"invalid table name", fluss.TablePath{Database: db, Table: "bad name!"}, logTable(), flusserr.InvalidTableException, false},
		{"reserved table name", fluss.TablePath{Database: db, Table: "__reserved"}, logTable(), flusserr.InvalidTableException, false},
		{"unknown log format", fluss.TablePath{Database: db, Table: "t1"},
			fluss.TableDescriptor{Schema: logTable().Schema, Properties: map[string]string{"table.log.format": "NOPE"}}, flusserr.InvalidConfigException, false},
		{"bucket key not in primary key", fluss.TablePath{Database: db, Table: "t2"},
			fluss.TableDescriptor{Schema: pk, BucketKeys: []string{"b"}}, flusserr.InvalidTableException, true},
		{"partition key not in primary key", fluss.TablePath{Database: db, Table: "t3"},
			fluss.TableDescriptor{Schema: pk, PartitionKeys: []string{"b"}}, flusserr.InvalidTableException, true},
		{"unknown column in key", fluss.TablePath{Database: db, Table: "t4"},
			fluss.TableDescriptor{Schema: types.Schema{Columns: pk.Columns, PrimaryKey: []string{"zz"}}}, flusserr.InvalidTableException, true},
		{"no columns", fluss.TablePath{Database: db, Table: "t5"}, fluss.TableDescriptor{}, flusserr.InvalidTableException, true},
		{"bad decimal", fluss.TablePath{Database: db, Table: "t6"},
			fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{{Name: "d", Type: types.NewDecimal(50, 2)}}}}, flusserr.InvalidTableException, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := admin.CreateTable(ctx, tt.path, tt.desc, false)
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.is)
			var fe *fluss.Error
			require.True(t, errors.As(err, &fe))
			assert.Equal(t, tt.local, fe.NotSent, "%v", err)
			assert.NotEmpty(t, fe.Message)
		})
	}
	tables, err := admin.ListTables(ctx, db)
	require.NoError(t, err)
	assert.Empty(t, tables)
}

func TestPartitions(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "events"}
	desc := fluss.TableDescriptor{
		Schema: types.Schema{Columns: []types.Column{
			{Name: "id", Type: types.NewBigInt()},
			{Name: "dt", Type: types.NewString()},
			{Name: "region", Type: types.NewString()},
		}},
		PartitionKeys: []string{"dt", "region"},
		BucketCount:   2,
	}
	require.NoError(t, admin.CreateTable(ctx, path, desc, false))

	parts, err := admin.ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	assert.Empty(t, parts)

	us := fluss.PartitionSpec{"region": "US", "dt": "20240101"}
	eu := fluss.PartitionSpec{"region": "EU", "dt": "20240102"}
	require.NoError(t, admin.CreatePartition(ctx, path, us, false))
	require.NoError(t, admin.CreatePartition(ctx, path, eu, false))
	assert.ErrorIs(t, admin.CreatePartition(ctx, path, us, false), fluss.ErrPartitionAlreadyExists)
	assert.NoError(t, admin.CreatePartition(ctx, path, us, true))

	parts, err = admin.ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	require.Len(t, parts, 2)
	slices.SortFunc(parts, func(a, b fluss.PartitionInfo) int { return int(a.ID - b.ID) })
	assert.Equal(t, "20240101$US", parts[0].Name)
	assert.Equal(t, []string{"dt", "region"}, parts[0].Keys)
	assert.Equal(t, us, parts[0].Spec())
	assert.Equal(t, "dt=20240102/region=EU", parts[1].QualifiedName())
	name, err := fluss.PartitionName([]string{"dt", "region"}, us)
	require.NoError(t, err)
	assert.Equal(t, parts[0].Name, name)

	only, err := admin.ListPartitions(ctx, path, fluss.PartitionSpec{"region": "EU"})
	require.NoError(t, err)
	require.Len(t, only, 1)
	assert.Equal(t, "20240102$EU", only[0].Name)

	err = admin.CreatePartition(ctx, path, fluss.PartitionSpec{"region": "US"}, false)
	assert.ErrorIs(t, err, flusserr.PartitionSpecInvalidException)
	err = admin.CreatePartition(ctx, path, fluss.PartitionSpec{"region": "U S", "dt": "x"}, false)
	assert.ErrorIs(t, err, flusserr.PartitionSpecInvalidException)

	require.NoError(t, admin.DropPartition(ctx, path, us, false))
	assert.ErrorIs(t, admin.DropPartition(ctx, path, us, false), fluss.ErrPartitionNotExists)
	assert.NoError(t, admin.DropPartition(ctx, path, us, true))
	parts, err = admin.ListPartitions(ctx, path, nil)
	require.NoError(t, err)
	require.Len(t, parts, 1)

	logPath := fluss.TablePath{Database: db, Table: "plain"}
	require.NoError(t, admin.CreateTable(ctx, logPath, logTable(), false))
	_, err = admin.ListPartitions(ctx, logPath, nil)
	assert.ErrorIs(t, err, flusserr.TableNotPartitionedException)
	assert.ErrorIs(t, admin.CreatePartition(ctx, logPath, us, false), flusserr.TableNotPartitionedException)
	_, err = admin.ListPartitions(ctx, fluss.TablePath{Database: db, Table: "missing"}, nil)
	assert.ErrorIs(t, err, fluss.ErrTableNotExist)
}

func TestListOffsets(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "log"}
	desc := logTable()
	desc.BucketCount = 3
	require.NoError(t, admin.CreateTable(ctx, path, desc, false))

	for _, spec := range []fluss.OffsetSpec{fluss.OffsetEarliest(), fluss.OffsetLatest(), fluss.OffsetAtTimestamp(time.Now().Add(-time.Hour))} {
		offs, err := admin.ListOffsets(ctx, path, "", nil, spec)
		require.NoError(t, err, spec.String())
		assert.Equal(t, map[int32]int64{0: 0, 1: 0, 2: 0}, offs, spec.String())
	}
	offs, err := admin.ListOffsets(ctx, path, "", []int32{1}, fluss.OffsetLatest())
	require.NoError(t, err)
	assert.Equal(t, map[int32]int64{1: 0}, offs)

	_, err = admin.ListOffsets(ctx, path, "", []int32{7}, fluss.OffsetLatest())
	assert.ErrorIs(t, err, flusserr.UnknownTableOrBucketException)
	_, err = admin.ListOffsets(ctx, path, "", nil, fluss.OffsetAtTimestamp(time.Now().Add(time.Hour)))
	assert.ErrorIs(t, err, flusserr.InvalidTimestampException)
	_, err = admin.ListOffsets(ctx, path, "x", nil, fluss.OffsetLatest())
	assert.ErrorIs(t, err, flusserr.TableNotPartitionedException)
	_, err = admin.ListOffsets(ctx, fluss.TablePath{Database: db, Table: "missing"}, "", nil, fluss.OffsetLatest())
	assert.ErrorIs(t, err, fluss.ErrTableNotExist)

	// Partitioned: offsets per partition.
	ppath := fluss.TablePath{Database: db, Table: "plog"}
	pdesc := fluss.TableDescriptor{
		Schema:        types.Schema{Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}, {Name: "p", Type: types.NewString()}}},
		PartitionKeys: []string{"p"},
		BucketCount:   2,
	}
	require.NoError(t, admin.CreateTable(ctx, ppath, pdesc, false))
	require.NoError(t, admin.CreatePartition(ctx, ppath, fluss.PartitionSpec{"p": "a"}, false))
	offs, err = admin.ListOffsets(ctx, ppath, "a", nil, fluss.OffsetEarliest())
	require.NoError(t, err)
	assert.Equal(t, map[int32]int64{0: 0, 1: 0}, offs)
	_, err = admin.ListOffsets(ctx, ppath, "", nil, fluss.OffsetEarliest())
	assert.ErrorIs(t, err, flusserr.PartitionSpecInvalidException)
	_, err = admin.ListOffsets(ctx, ppath, "nope", nil, fluss.OffsetEarliest())
	assert.ErrorIs(t, err, fluss.ErrPartitionNotExists)
}
