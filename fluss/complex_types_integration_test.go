package fluss_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// TestComplexTypesLogArrow appends ARRAY, MAP and ROW columns (nested in each
// other, with NULL elements, NULL map values and empty collections) to ARROW
// log tables with every compression, reads them back exactly with a
// LogScanner, and reads a server-side projection of nested columns.
func TestComplexTypesLogArrow(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	const rows = 500
	for _, comp := range []string{"NONE", "LZ4_FRAME", "ZSTD"} {
		t.Run(comp, func(t *testing.T) {
			tbl := createLogTable(t, c, db, "nested_"+comp, fluss.TableDescriptor{
				Schema:      types.Schema{Columns: nestedColumns()},
				BucketCount: 3,
				Properties:  map[string]string{fluss.PropArrowCompression: comp},
			})
			ctx := testCtx(t)
			w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{BatchSize: 8 << 10}})
			require.NoError(t, err)
			for i := 0; i < rows; i++ {
				require.NoError(t, w.Append(ctx, nestedRow(i)))
			}
			flushClose(t, w)

			got := readAll(t, c, tbl, nil)
			require.Len(t, got, rows)
			sortByID(got)
			buckets := map[int32]bool{}
			for i, r := range got {
				require.Equal(t, nestedRow(i), r.values, "row %d", i)
				buckets[r.bucket.Bucket] = true
			}
			assert.Greater(t, len(buckets), 1, "several batches over several buckets")

			// The server cuts nested columns out of the batches.
			proj := []int{6, 0, 3} // tags, id, matrix
			got = readAll(t, c, tbl, proj)
			require.Len(t, got, rows)
			sortByIDAt(got, 1)
			for i, r := range got {
				full := nestedRow(i)
				require.Equal(t, []any{full[6], full[0], full[3]}, r.values, "projected row %d", i)
			}
		})
	}
}

// TestComplexTypesPartitioned writes nested columns to two partitions of a
// partitioned log table and reads each row back from its partition.
func TestComplexTypesPartitioned(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	cols := append(nestedColumns(), types.Column{Name: "region", Type: types.NewString().AsNotNull()})
	tbl := createLogTable(t, c, db, "nested_parts", fluss.TableDescriptor{
		Schema: types.Schema{Columns: cols}, PartitionKeys: []string{"region"}, BucketCount: 2,
	})
	ctx := testCtx(t)
	for _, r := range []string{"EU", "US"} {
		require.NoError(t, c.Admin().CreatePartition(ctx, tbl.Path(), fluss.PartitionSpec{"region": r}, false))
	}
	region := func(i int) string { return []string{"EU", "US"}[i%2] }
	row := func(i int) []any { return append(nestedRow(i), region(i)) }
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	require.NoError(t, err)
	const rows = 120
	for i := 0; i < rows; i++ {
		require.NoError(t, w.Append(ctx, row(i)))
	}
	flushClose(t, w)

	got := readAll(t, c, tbl, nil)
	require.Len(t, got, rows)
	sortByID(got)
	for i, r := range got {
		require.Equal(t, row(i), r.values, "row %d", i)
		require.Equal(t, region(i), r.partition, "row %d", i)
	}
}

// TestComplexTypesOtherLogFormats: ARRAY/MAP/ROW columns in COMPACTED and
// INDEXED log tables are written and read by the row encoders and decoders
// and read back equal.
func TestComplexTypesOtherLogFormats(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	cols := []types.Column{
		{Name: "id", Type: types.NewInt().AsNotNull()},
		{Name: "ints", Type: types.NewArray(types.NewInt())},
		{Name: "counts", Type: types.NewMap(types.NewString(), types.NewInt())},
		{Name: "addr", Type: types.NewRow(types.Field{Name: "city", Type: types.NewString()}, types.Field{Name: "tags", Type: types.NewArray(types.NewString())})},
	}
	row := func(i int) []any {
		return []any{int32(i), []any{int32(i), nil}, []datum.MapEntry{{Key: fmt.Sprint("k", i), Value: int32(i)}, {Key: "z", Value: nil}},
			[]any{fmt.Sprint("city-", i), []any{"a string longer than seven", nil}}}
	}
	const rows = 10
	for _, format := range []string{"COMPACTED", "INDEXED"} {
		t.Run(format, func(t *testing.T) {
			tbl := createLogTable(t, c, db, "nested_"+format, fluss.TableDescriptor{
				Schema: types.Schema{Columns: cols}, BucketCount: 1,
				Properties: map[string]string{fluss.PropLogFormat: format},
			})
			ctx := testCtx(t)
			w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
			require.NoError(t, err)
			for i := 0; i < rows; i++ {
				require.NoError(t, w.Append(ctx, row(i)))
			}
			flushClose(t, w)

			s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
			require.NoError(t, err)
			defer s.Close()
			require.NoError(t, s.Subscribe(ctx, 0, fluss.EarliestOffset))
			var got [][]any
			for len(got) < rows {
				b, err := s.Poll(ctx)
				require.NoError(t, err)
				for i := 0; i < b.NumRows(); i++ {
					v, err := fluss.RowValues(b.Record, s.ColumnTypes(), i)
					require.NoError(t, err)
					got = append(got, v)
				}
				b.Release()
			}
			for i, r := range got {
				require.Equal(t, row(i), r, "row %d", i)
			}
		})
	}
}

// TestComplexTypesPrimaryKey upserts ARRAY, MAP and ROW value columns into
// a primary-key table, looks rows up, overwrites and deletes some, and reads
// the changelog (ARROW batches the server writes from the KV rows) back with
// the LogScanner: +I, -U/+U and -D carry the nested values exactly.
func TestComplexTypesPrimaryKey(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	ctx := testCtx(t)
	path := fluss.TablePath{Database: db, Table: "nested_pk"}
	schema := types.Schema{Columns: nestedColumns(), PrimaryKey: []string{"id"}}
	require.NoError(t, c.Admin().CreateTable(ctx, path, fluss.TableDescriptor{Schema: schema, BucketCount: 1}, false))
	tb := openTable(t, c, path)
	w := newUpsertWriter(t, tb, fluss.UpsertWriterOptions{})
	const rows = 8
	for i := 0; i < rows; i++ {
		require.NoError(t, w.Upsert(ctx, nestedRow(i)))
	}
	require.NoError(t, w.Flush(ctx))

	l, err := tb.NewLookuper()
	require.NoError(t, err)
	for i := 0; i < rows; i++ {
		got, found, err := l.Lookup(ctx, []any{int32(i)})
		require.NoError(t, err)
		require.True(t, found, "id %d", i)
		require.Equal(t, nestedRow(i), got, "lookup %d", i)
	}

	// Row 1 takes row 2's values, row 3 is deleted.
	changed := nestedRow(2)
	changed[0] = int32(1)
	require.NoError(t, w.Upsert(ctx, changed))
	require.NoError(t, w.DeleteKey(ctx, []any{int32(3)}))
	require.NoError(t, w.Flush(ctx))
	got, found, err := l.Lookup(ctx, []any{int32(1)})
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, changed, got)
	_, found, err = l.Lookup(ctx, []any{int32(3)})
	require.NoError(t, err)
	require.False(t, found)

	var want []change
	for i := 0; i < rows; i++ {
		want = append(want, change{"+I", nestedRow(i)})
	}
	want = append(want, change{"-U", nestedRow(1)}, change{"+U", changed}, change{"-D", nestedRow(3)})
	s, err := tb.NewLogScanner(fluss.ScannerOptions{Bounded: true})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.Subscribe(ctx, 0, fluss.EarliestOffset))
	require.Equal(t, want, drainChanges(t, s))
}

// change is one changelog row: its change type and values.
type change struct {
	kind   string
	values []any
}

// drainChanges reads a bounded scanner to the end.
func drainChanges(t *testing.T, s *fluss.LogScanner) []change {
	t.Helper()
	ctx := testCtx(t)
	var out []change
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		for i := 0; i < b.NumRows(); i++ {
			v, err := fluss.RowValues(b.Record, s.ColumnTypes(), i)
			require.NoError(t, err)
			out = append(out, change{b.ChangeType(i).String(), v})
		}
		b.Release()
	}
}

// sortByIDAt orders rows by the INT id in column col.
func sortByIDAt(rows []scannedRow, col int) {
	for i := range rows {
		rows[i].values[0], rows[i].values[col] = rows[i].values[col], rows[i].values[0]
	}
	sortByID(rows)
	for i := range rows {
		rows[i].values[0], rows[i].values[col] = rows[i].values[col], rows[i].values[0]
	}
}

// neutralNested renders a value-model value in the JSON form of
// testdata/interop/pyfluss_nested.py.
func neutralNested(v any) any {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = neutralNested(x[i])
		}
		return out
	case []datum.MapEntry:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = []any{neutralNested(e.Key), neutralNested(e.Value)}
		}
		return out
	}
	return neutral(v)
}

// canonicalJSON decodes JSON with numbers kept as written, so values of
// both sides compare exactly.
func canonicalJSON(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

func runPyNested(t *testing.T, args ...string) []byte {
	t.Helper()
	return runPython(t, "pyfluss_nested.py", args...)
}

// TestComplexTypesInteropPyfluss checks ARRAY/MAP/ROW columns both ways with
// the official Python client (pyfluss 1.0.0, Arrow batches): rows our writer
// appended are read by pyfluss, rows pyfluss appended are read by our
// scanner, for every ARROW compression.
func TestComplexTypesInteropPyfluss(t *testing.T) {
	c := connect(t)
	db := tempDatabase(t, c.Admin())
	const rows = 60
	want := make([]any, rows)
	for i := range want {
		want[i] = neutralNested(nestedRow(i))
	}
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	for _, comp := range []string{"NONE", "LZ4_FRAME", "ZSTD"} {
		t.Run(comp, func(t *testing.T) {
			desc := fluss.TableDescriptor{Schema: types.Schema{Columns: nestedColumns()}, BucketCount: 2,
				Properties: map[string]string{fluss.PropArrowCompression: comp}}

			// Go writes, pyfluss reads.
			name := "nested_go_to_py_" + strings.ToLower(comp)
			tbl := createLogTable(t, c, db, name, desc)
			ctx := testCtx(t)
			w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
			require.NoError(t, err)
			for i := 0; i < rows; i++ {
				require.NoError(t, w.Append(ctx, nestedRow(i)))
			}
			flushClose(t, w)
			var read struct {
				Schema string          `json:"schema"`
				Rows   json.RawMessage `json:"rows"`
			}
			require.NoError(t, json.Unmarshal(runPyNested(t, "read", db, name), &read))
			got, ok := canonicalJSON(t, read.Rows).([]any)
			require.True(t, ok)
			require.Len(t, got, rows)
			sort.Slice(got, func(i, j int) bool {
				a, _ := got[i].([]any)[0].(json.Number).Int64()
				b, _ := got[j].([]any)[0].(json.Number).Int64()
				return a < b
			})
			exp := canonicalJSON(t, wantJSON).([]any)
			for i := range got {
				require.Equal(t, exp[i], got[i], "row %d read by pyfluss (its schema: %s)", i, read.Schema)
			}

			// pyfluss writes, Go reads.
			name = "nested_py_to_go_" + strings.ToLower(comp)
			tbl = createLogTable(t, c, db, name, desc)
			file := filepath.Join(t.TempDir(), "rows.json")
			require.NoError(t, os.WriteFile(file, wantJSON, 0o600))
			runPyNested(t, "write", db, name, file)
			back := readAll(t, c, tbl, nil)
			require.Len(t, back, rows)
			sortByID(back)
			for i, r := range back {
				require.Equal(t, nestedRow(i), r.values, "row %d written by pyfluss", i)
			}
		})
	}
}
