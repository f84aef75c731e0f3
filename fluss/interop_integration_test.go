package fluss_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// pyTable is the JSON the interop script prints for "describe".
type pyTable struct {
	Columns          [][2]string       `json:"columns"`
	PrimaryKeys      []string          `json:"primary_keys"`
	PartitionKeys    []string          `json:"partition_keys"`
	BucketKeys       []string          `json:"bucket_keys"`
	NumBuckets       int               `json:"num_buckets"`
	Comment          *string           `json:"comment"`
	Properties       map[string]string `json:"properties"`
	CustomProperties map[string]string `json:"custom_properties"`
	TableID          int64             `json:"table_id"`
	SchemaID         int32             `json:"schema_id"`
}

// pyfluss runs the interop script with the official Python client, or
// skips when python3 or pyfluss is missing.
func pyfluss(t *testing.T, args ...string) []byte {
	t.Helper()
	return runPython(t, "pyfluss_interop.py", args...)
}

func pyDescribe(t *testing.T, path fluss.TablePath) pyTable {
	t.Helper()
	var pt pyTable
	require.NoError(t, json.Unmarshal(pyfluss(t, "describe", path.Database, path.Table), &pt))
	return pt
}

// normType puts a type name in one spelling: pyfluss prints "decimal(10,2)"
// where our types print "DECIMAL(10, 2)", and leaves out default precisions
// (TIME, TIMESTAMP for TIME(0), TIMESTAMP(6)).
func normType(s string) string {
	s = strings.ReplaceAll(strings.ToUpper(s), ", ", ",")
	for _, d := range []struct{ full, short string }{
		{"TIME(0)", "TIME"}, {"TIMESTAMP(6)", "TIMESTAMP"}, {"TIMESTAMP_LTZ(6)", "TIMESTAMP_LTZ"},
	} {
		if s == d.full || strings.HasPrefix(s, d.full+" ") {
			s = d.short + s[len(d.full):]
		}
	}
	return s
}

// A table created by flussql is seen by pyfluss with the same schema, keys
// and bucket count.
func TestInteropCreatedByFlussqlReadByPyfluss(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "from_go"}
	cols := append([]types.Column{{Name: "region", Type: types.NewString()}, {Name: "id", Type: types.NewBigInt()}}, allScalarColumns()...)
	desc := fluss.TableDescriptor{
		Schema:           types.Schema{Columns: cols, PrimaryKey: []string{"region", "id", "c_int"}},
		PartitionKeys:    []string{"region"},
		BucketCount:      5,
		BucketKeys:       []string{"id"},
		Comment:          "made by flussql",
		CustomProperties: map[string]string{"origin": "go"},
	}
	require.NoError(t, admin.CreateTable(ctx, path, desc, false))

	pt := pyDescribe(t, path)
	info, err := admin.GetTableInfo(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, info.TableID, pt.TableID)
	assert.Equal(t, info.SchemaID, pt.SchemaID)
	require.Len(t, pt.Columns, len(cols))
	for i, c := range cols {
		typ := c.Type
		if i < 2 || c.Name == "c_int" {
			typ = typ.AsNotNull()
		}
		assert.Equal(t, c.Name, pt.Columns[i][0])
		assert.Equal(t, normType(typ.String()), normType(pt.Columns[i][1]), "column %s", c.Name)
	}
	assert.Equal(t, []string{"region", "id", "c_int"}, pt.PrimaryKeys)
	assert.Equal(t, []string{"region"}, pt.PartitionKeys)
	assert.Equal(t, []string{"id"}, pt.BucketKeys)
	assert.Equal(t, 5, pt.NumBuckets)
	require.NotNil(t, pt.Comment)
	assert.Equal(t, "made by flussql", *pt.Comment)
	assert.Equal(t, map[string]string{"origin": "go"}, pt.CustomProperties)
	assert.Equal(t, info.Descriptor.Properties, pt.Properties)
}

// A table created by pyfluss reads back the same through flussql.
func TestInteropCreatedByPyflussReadByFlussql(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "from_python"}
	pyfluss(t, "create", db, path.Table)

	info, err := admin.GetTableInfo(ctx, path)
	require.NoError(t, err)
	want := []types.Column{
		{Name: "region", Type: types.NewString().AsNotNull()},
		{Name: "id", Type: types.NewBigInt().AsNotNull()},
		{Name: "name", Type: types.NewString()},
		{Name: "qty", Type: types.NewInt()},
		{Name: "price", Type: types.NewDecimal(10, 2)},
		{Name: "flag", Type: types.NewBoolean()},
		{Name: "day", Type: types.NewDate()},
		{Name: "ts", Type: types.NewTimestamp(3)},
		{Name: "payload", Type: types.NewBytes()},
		{Name: "score", Type: types.NewDouble()},
	}
	assertSameSchema(t, types.Schema{Columns: want, PrimaryKey: []string{"region", "id"}}, info.Schema())
	assert.Equal(t, []string{"region"}, info.PartitionKeys())
	assert.Equal(t, []string{"id"}, info.BucketKeys())
	assert.Equal(t, []string{"id"}, info.PhysicalPrimaryKey())
	assert.Equal(t, 3, info.NumBuckets())
	assert.Equal(t, "made by pyfluss", info.Descriptor.Comment)
	assert.Equal(t, map[string]string{"origin": "python"}, info.Descriptor.CustomProperties)

	// And both clients agree on everything pyfluss reports.
	pt := pyDescribe(t, path)
	assert.Equal(t, info.TableID, pt.TableID)
	assert.Equal(t, pt.Properties, info.Descriptor.Properties)
	assert.Equal(t, pt.BucketKeys, info.BucketKeys())
}

// Rows appended by pyfluss move the offsets flussql lists.
func TestInteropListOffsetsAfterPyflussAppend(t *testing.T) {
	ctx := testCtx(t)
	admin := connect(t).Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "appended"}
	require.NoError(t, admin.CreateTable(ctx, path, logTable(), false)) // one bucket by default here
	pyfluss(t, "append", db, path.Table, "25")

	latest, err := admin.ListOffsets(ctx, path, "", nil, fluss.OffsetLatest())
	require.NoError(t, err)
	var total int64
	for _, off := range latest {
		total += off
	}
	assert.Equal(t, int64(25), total)
	earliest, err := admin.ListOffsets(ctx, path, "", nil, fluss.OffsetEarliest())
	require.NoError(t, err)
	for b, off := range earliest {
		assert.Zero(t, off, "bucket %d", b)
	}
}
