package fluss_test

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

// TestAlterTableProperties sets and resets a custom property and the
// table options the server under test alters, and reads them back with
// GetTableInfo; an option the server cannot alter is refused with a
// message naming it and what the server does alter. Fluss 0.9.1 alters 3
// 'table.' options, 1.0 alters 12 (table.log.ttl among them) but the
// table.datalake.* ones only on clusters with a datalake format
// (TableDescriptorValidation.validateAlterTableProperties in apache/fluss).
func TestAlterTableProperties(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	admin := c.Admin()
	v := serverVersion(t, c)
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "props"}
	require.NoError(t, admin.CreateTable(ctx, path, fluss.TableDescriptor{
		Schema: types.Schema{Columns: []types.Column{{Name: "a", Type: types.NewInt()}}}, BucketCount: 1,
	}, false))

	on10 := v.AtLeast(1, 0)
	tests := []struct {
		key, value string
		alterable  bool
		errMsg     []string // when not alterable
	}{
		{key: "owner", value: "team-a", alterable: true},
		{key: "table.log.tiered.local-segments", value: "3", alterable: true},
		{key: "table.datalake.freshness", value: "2min", alterable: !on10,
			errMsg: []string{"cannot be altered for tables that were created before the Fluss cluster enabled datalake", "'table.datalake.freshness'"}},
		{key: "table.log.ttl", value: "1d", alterable: on10,
			errMsg: []string{"'table.log.ttl' is not supported to alter", "Fluss 0.9 alters only table.datalake.enabled, table.datalake.freshness, table.log.tiered.local-segments among"}},
		{key: "table.log.format", value: "INDEXED", alterable: false,
			errMsg: []string{"'table.log.format'", "not supported to alter", "Fluss " + v.String() + " alters only", "table.log.tiered.local-segments"}},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			err := admin.AlterTable(ctx, path, false, fluss.SetTableProperty(tt.key, tt.value))
			if !tt.alterable {
				require.ErrorIs(t, err, flusserr.InvalidAlterTableException, "Fluss %s", v)
				for _, m := range tt.errMsg {
					assert.Contains(t, err.Error(), m)
				}
				return
			}
			require.NoError(t, err, "Fluss %s alters %s", v, tt.key)
			info, err := admin.GetTableInfo(ctx, path)
			require.NoError(t, err)
			props, other := info.Descriptor.Properties, info.Descriptor.CustomProperties
			if !strings.HasPrefix(tt.key, "table.") {
				props, other = other, props // keys without the table. prefix are custom properties
			}
			assert.Equal(t, tt.value, props[tt.key])
			assert.NotContains(t, other, tt.key)

			require.NoError(t, admin.AlterTable(ctx, path, false, fluss.ResetTableProperty(tt.key), fluss.ResetTableProperty("never-set")))
			info, err = admin.GetTableInfo(ctx, path)
			require.NoError(t, err)
			assert.NotContains(t, info.Descriptor.Properties, tt.key)
			assert.NotContains(t, info.Descriptor.CustomProperties, tt.key)
			assert.Equal(t, int32(1), info.SchemaID, "property changes keep the schema id")
		})
	}
}

// TestAlterTableErrors covers the refusals: a NOT NULL or existing column,
// a mix of property and column changes, no change, a missing table (and
// ignoreIfNotExists).
func TestAlterTableErrors(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	admin := c.Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "errs"}
	require.NoError(t, admin.CreateTable(ctx, path, fluss.TableDescriptor{
		Schema: types.Schema{Columns: []types.Column{{Name: "a", Type: types.NewInt()}, {Name: "b", Type: types.NewString()}}}, BucketCount: 1,
	}, false))

	var fe *fluss.Error
	tests := []struct {
		name    string
		path    fluss.TablePath
		ignore  bool
		changes []fluss.TableChange
		wantErr error
		wantMsg string
		notSent bool
	}{
		{"not null column", path, false, []fluss.TableChange{fluss.AddColumn(types.Column{Name: "c", Type: types.NewInt().AsNotNull()})},
			flusserr.InvalidAlterTableException, `"c" is NOT NULL`, true},
		{"existing column", path, false, []fluss.TableChange{fluss.AddColumn(types.Column{Name: "b", Type: types.NewInt()})},
			flusserr.InvalidAlterTableException, "Column b already exists", false},
		{"property and column", path, false, []fluss.TableChange{fluss.SetTableProperty("k", "v"), fluss.AddColumn(types.Column{Name: "c", Type: types.NewInt()})},
			flusserr.InvalidAlterTableException, "separate requests", true},
		{"no change", path, false, nil, flusserr.InvalidAlterTableException, "no change", true},
		{"missing table", fluss.TablePath{Database: db, Table: "nope"}, false, []fluss.TableChange{fluss.SetTableProperty("k", "v")},
			fluss.ErrTableNotExist, "nope", false},
		{"missing table ignored", fluss.TablePath{Database: db, Table: "nope"}, true, []fluss.TableChange{fluss.SetTableProperty("k", "v")},
			nil, "", false},
		{"missing column add ignored", fluss.TablePath{Database: db, Table: "nope"}, true, []fluss.TableChange{fluss.AddColumn(types.Column{Name: "c", Type: types.NewInt()})},
			nil, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := admin.AlterTable(ctx, tt.path, tt.ignore, tt.changes...)
			if tt.wantErr == nil {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, tt.wantErr)
			assert.Contains(t, err.Error(), tt.wantMsg)
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tt.notSent, fe.NotSent)
		})
	}
	info, err := admin.GetTableInfo(ctx, path)
	require.NoError(t, err)
	assert.Equal(t, int32(1), info.SchemaID, "no refused change altered the schema")
	assert.Len(t, info.Schema().Columns, 2)
}

// TestAlterTableAddColumnLogTable appends rows, adds a column, appends
// rows with and without it (through handles from after and before the
// ALTER), and reads the whole log back with several projections: rows
// written before the ALTER (or through the old handle) read NULL in the
// new column.
func TestAlterTableAddColumnLogTable(t *testing.T) {
	for _, format := range []string{"ARROW", "COMPACTED", "INDEXED"} {
		t.Run(format, func(t *testing.T) {
			c := connect(t)
			ctx := testCtx(t)
			admin := c.Admin()
			db := tempDatabase(t, admin)
			oldTbl := createLogTable(t, c, db, "events", fluss.TableDescriptor{
				Schema: types.Schema{Columns: []types.Column{
					{Name: "id", Type: types.NewInt().AsNotNull()},
					{Name: "name", Type: types.NewString()},
				}},
				BucketCount: 2,
				Properties:  map[string]string{fluss.PropLogFormat: format},
			})
			path := oldTbl.Path()
			w, err := oldTbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
			require.NoError(t, err)
			for i := 1; i <= 3; i++ {
				require.NoError(t, w.Append(ctx, []any{int32(i), fmt.Sprintf("old-%d", i)}))
			}
			require.NoError(t, w.Flush(ctx))

			require.NoError(t, admin.AlterTable(ctx, path, false,
				fluss.AddColumn(types.Column{Name: "score", Type: types.NewBigInt(), Comment: "added later"})))
			newTbl, err := c.Table(ctx, path)
			require.NoError(t, err)
			require.Equal(t, int32(2), newTbl.Info().SchemaID)
			require.Equal(t, []string{"id", "name", "score"}, newTbl.Info().Schema().ColumnNames())
			assert.Equal(t, "added later", newTbl.Info().Schema().Columns[2].Comment)

			// The handle from before the ALTER still writes (schema id 1).
			require.NoError(t, w.Append(ctx, []any{int32(4), "old-handle"}))
			flushClose(t, w)
			nw, err := newTbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
			require.NoError(t, err)
			require.NoError(t, nw.Append(ctx, []any{int32(5), "new-5", int64(50)}))
			require.NoError(t, nw.Append(ctx, []any{int32(6), nil, nil}))
			flushClose(t, nw)

			full := map[int32][]any{
				1: {int32(1), "old-1", nil}, 2: {int32(2), "old-2", nil}, 3: {int32(3), "old-3", nil},
				4: {int32(4), "old-handle", nil}, 5: {int32(5), "new-5", int64(50)}, 6: {int32(6), nil, nil},
			}
			projections := []struct {
				name string
				cols []int
			}{
				{"all columns", nil},
				{"new column first", []int{2, 0}},
				{"old columns only", []int{1, 0}},
				{"id and new column", []int{0, 2}},
			}
			for _, p := range projections {
				t.Run(p.name, func(t *testing.T) {
					rows := readAll(t, c, newTbl, p.cols)
					require.Len(t, rows, len(full))
					for _, r := range rows {
						id := idOf(t, r.values, p.cols)
						want := full[id]
						if p.cols != nil {
							want = project(want, p.cols)
						}
						assert.Equal(t, want, r.values, "row %d", id)
					}
				})
			}
			t.Run("old handle reads new rows without the new column", func(t *testing.T) {
				rows := readAll(t, c, oldTbl, nil)
				require.Len(t, rows, len(full))
				for _, r := range rows {
					id := r.values[0].(int32)
					assert.Equal(t, full[id][:2], r.values, "row %d", id)
				}
			})
		})
	}
}

// idOf returns the id (table column 0) of a row read with projection cols.
func idOf(t *testing.T, vals []any, cols []int) int32 {
	t.Helper()
	if cols == nil {
		return vals[0].(int32)
	}
	for i, c := range cols {
		if c == 0 {
			return vals[i].(int32)
		}
	}
	t.Fatalf("projection %v has no id column", cols)
	return 0
}

func project(row []any, cols []int) []any {
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = row[c]
	}
	return out
}

// TestAlterTableAddColumnPKTable upserts, adds a column, upserts more
// (through handles from after and before the ALTER), then checks lookups,
// prefix lookups, a limit scan and the changelog: values stored under the
// old schema read NULL in the new column.
func TestAlterTableAddColumnPKTable(t *testing.T) {
	c := connect(t)
	ctx := testCtx(t)
	admin := c.Admin()
	db := tempDatabase(t, admin)
	path := fluss.TablePath{Database: db, Table: "kv"}
	require.NoError(t, admin.CreateTable(ctx, path, fluss.TableDescriptor{
		Schema: types.Schema{Columns: []types.Column{
			{Name: "k", Type: types.NewInt().AsNotNull()},
			{Name: "sub", Type: types.NewInt().AsNotNull()},
			{Name: "v", Type: types.NewString()},
		}, PrimaryKey: []string{"k", "sub"}},
		BucketKeys:  []string{"k"},
		BucketCount: 1,
	}, false))
	oldTbl := openTable(t, c, path)
	ow := newUpsertWriter(t, oldTbl, fluss.UpsertWriterOptions{})
	require.NoError(t, ow.Upsert(ctx, []any{int32(1), int32(1), "a"}))
	require.NoError(t, ow.Upsert(ctx, []any{int32(1), int32(2), "b"}))
	require.NoError(t, ow.Upsert(ctx, []any{int32(2), int32(1), "c"}))
	require.NoError(t, ow.Flush(ctx))

	require.NoError(t, admin.AlterTable(ctx, path, false, fluss.AddColumn(types.Column{Name: "extra", Type: types.NewBigInt()})))
	newTbl := openTable(t, c, path)
	require.Equal(t, int32(2), newTbl.Info().SchemaID)
	nw := newUpsertWriter(t, newTbl, fluss.UpsertWriterOptions{})
	require.NoError(t, nw.Upsert(ctx, []any{int32(1), int32(3), "d", int64(30)}))
	require.NoError(t, nw.Upsert(ctx, []any{int32(1), int32(1), "a2", int64(10)}))
	require.NoError(t, nw.Flush(ctx))
	// The old handle writes a value under schema id 1 after the ALTER.
	require.NoError(t, ow.Upsert(ctx, []any{int32(2), int32(2), "e"}))
	require.NoError(t, ow.Flush(ctx))

	want := [][]any{
		{int32(1), int32(1), "a2", int64(10)},
		{int32(1), int32(2), "b", nil},
		{int32(1), int32(3), "d", int64(30)},
		{int32(2), int32(1), "c", nil},
		{int32(2), int32(2), "e", nil},
	}

	t.Run("lookup", func(t *testing.T) {
		l, err := newTbl.NewLookuper()
		require.NoError(t, err)
		for _, w := range want {
			got, found, err := l.Lookup(ctx, w[:2])
			require.NoError(t, err)
			require.True(t, found, "key %v", w[:2])
			assert.Equal(t, w, got)
		}
		ol, err := oldTbl.NewLookuper()
		require.NoError(t, err)
		got, found, err := ol.Lookup(ctx, []any{int32(1), int32(3)})
		require.NoError(t, err)
		require.True(t, found)
		assert.Equal(t, []any{int32(1), int32(3), "d"}, got, "the old handle drops the new column")
	})
	t.Run("prefix lookup", func(t *testing.T) {
		pl, err := newTbl.NewPrefixLookuper([]string{"k"})
		require.NoError(t, err)
		got, err := pl.Lookup(ctx, []any{int32(1)})
		require.NoError(t, err)
		sortRows(got)
		assert.Equal(t, want[:3], got)
	})
	t.Run("limit scan", func(t *testing.T) {
		got, err := newTbl.LimitScan(ctx, "", 0, 100)
		require.NoError(t, err)
		sortRows(got)
		assert.Equal(t, want, got)
	})
	t.Run("changelog", func(t *testing.T) {
		s, err := newTbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
		require.NoError(t, err)
		defer s.Close()
		require.NoError(t, s.Subscribe(ctx, 0, fluss.EarliestOffset))
		var got []string
		for {
			b, err := s.Poll(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			require.NoError(t, err)
			for i := range b.NumRows() {
				vals, err := fluss.RowValues(b.Record, s.ColumnTypes(), i)
				require.NoError(t, err)
				got = append(got, fmt.Sprintf("%s %v", b.ChangeType(i), vals))
			}
			b.Release()
		}
		assert.Equal(t, []string{
			"+I [1 1 a <nil>]",
			"+I [1 2 b <nil>]",
			"+I [2 1 c <nil>]",
			"+I [1 3 d 30]",
			"-U [1 1 a <nil>]",
			"+U [1 1 a2 10]",
			"+I [2 2 e <nil>]",
		}, got)
	})
}

// sortRows orders rows by their first two INT columns.
func sortRows(rows [][]any) {
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a[0].(int32) != b[0].(int32) {
			return a[0].(int32) < b[0].(int32)
		}
		return a[1].(int32) < b[1].(int32)
	})
}
