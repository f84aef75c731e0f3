package executor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/planner"
)

// virtualTestTable is a primary-key table (id INT NOT NULL, name STRING).
func virtualTestTable() *fluss.TableInfo {
	return &fluss.TableInfo{
		Path: fluss.TablePath{Database: "db", Table: "t"},
		Descriptor: fluss.TableDescriptor{Schema: types.Schema{
			Columns:    []types.Column{{Name: "id", Type: types.NewInt().AsNotNull()}, {Name: "name", Type: types.NewString()}},
			PrimaryKey: []string{"id"},
		}, BucketCount: 2},
	}
}

// change is one log row of a test batch.
type change struct {
	ct   fluss.ChangeType
	id   int32
	name string // "" is NULL
}

func testScanBatch(t *testing.T, info *fluss.TableInfo, bucket int32, base int64, millis int64, rows ...change) *fluss.ScanBatch {
	t.Helper()
	var fields []arrow.Field
	for _, c := range info.Schema().Columns {
		f, err := types.ArrowField(c.Name, c.Type)
		require.NoError(t, err)
		fields = append(fields, f)
	}
	schema := arrow.NewSchema(fields, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	var cts []fluss.ChangeType
	for _, r := range rows {
		b.Field(0).(*array.Int32Builder).Append(r.id)
		if r.name == "" {
			b.Field(1).AppendNull()
		} else {
			b.Field(1).(*array.StringBuilder).Append(r.name)
		}
		cts = append(cts, r.ct)
	}
	return &fluss.ScanBatch{Bucket: fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: bucket}, Record: b.NewRecordBatch(),
		ChangeTypes: cts, BaseOffset: base, CommitTime: time.UnixMilli(millis)}
}

// renderBatch prints each row of rec as "v1 | v2 | …", ROW values as {f1, f2}.
func renderBatch(rec arrow.RecordBatch) []string {
	var out []string
	for i := range int(rec.NumRows()) {
		var cells []string
		for _, c := range rec.Columns() {
			cells = append(cells, renderCell(c, i))
		}
		out = append(out, strings.Join(cells, " | "))
	}
	return out
}

func renderCell(c arrow.Array, i int) string {
	if c.IsNull(i) {
		return "NULL"
	}
	switch a := c.(type) {
	case *array.Struct:
		var fs []string
		for j := range a.NumField() {
			fs = append(fs, renderCell(a.Field(j), i))
		}
		return "{" + strings.Join(fs, ", ") + "}"
	case *array.Timestamp:
		return fmt.Sprint(int64(a.Value(i)))
	}
	return c.ValueStr(i)
}

func TestVirtualBatches(t *testing.T) {
	info := virtualTestTable()
	I, UB, UA, D := fluss.Insert, fluss.UpdateBefore, fluss.UpdateAfter, fluss.Delete
	tests := []struct {
		name    string
		kind    planner.VirtualTable
		batches [][]change // batch k: bucket 0, base offset 10*k, commit time 1000+k
		buckets []int32    // bucket of batch k (default 0)
		want    [][]string
	}{
		{"changelog keeps every row", planner.Changelog,
			[][]change{{{I, 1, "a"}, {UB, 1, "a"}, {UA, 1, "b"}, {D, 1, "b"}}}, nil,
			[][]string{{"insert | 0 | 1000 | 1 | a", "update_before | 1 | 1000 | 1 | a", "update_after | 2 | 1000 | 1 | b", "delete | 3 | 1000 | 1 | b"}}},
		{"changelog of appended rows", planner.Changelog,
			[][]change{{{fluss.AppendOnly, 5, ""}}}, nil,
			[][]string{{"insert | 0 | 1000 | 5 | NULL"}}},
		{"binlog pairs an update", planner.Binlog,
			[][]change{{{I, 1, "a"}, {UB, 1, "a"}, {UA, 1, "b"}, {D, 1, "b"}, {I, 2, ""}}}, nil,
			[][]string{{"insert | 0 | 1000 | NULL | {1, a}", "update | 1 | 1000 | {1, a} | {1, b}", "delete | 3 | 1000 | {1, b} | NULL", "insert | 4 | 1000 | NULL | {2, NULL}"}}},
		{"binlog update across batches takes the update_before's offset and time", planner.Binlog,
			[][]change{{{I, 1, "a"}, {UB, 1, "a"}}, {{UA, 1, "b"}, {D, 1, "b"}}}, nil,
			[][]string{{"insert | 0 | 1000 | NULL | {1, a}"}, {"update | 1 | 1000 | {1, a} | {1, b}", "delete | 11 | 1001 | {1, b} | NULL"}}},
		{"binlog batch of only an update_before", planner.Binlog,
			[][]change{{{UB, 1, "a"}}, {{UA, 1, "b"}}}, nil,
			[][]string{nil, {"update | 0 | 1000 | {1, a} | {1, b}"}}},
		{"binlog pending update_before is per bucket", planner.Binlog,
			[][]change{{{UB, 1, "a"}}, {{I, 7, "x"}}, {{UA, 1, "b"}}}, []int32{0, 1, 0},
			[][]string{nil, {"insert | 10 | 1001 | NULL | {7, x}"}, {"update | 0 | 1000 | {1, a} | {1, b}"}}},
		{"binlog update_after without its update_before (the scan started between them)", planner.Binlog,
			[][]change{{{UA, 1, "b"}}}, nil,
			[][]string{{"update | 0 | 1000 | NULL | {1, b}"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := newVirtualBatches(&planner.Scan{Table: info, Virtual: tc.kind})
			require.NoError(t, err)
			defer v.close()
			cols := planner.VirtualMeta()
			if tc.kind == planner.Binlog {
				img := planner.BinlogImageType(info)
				cols = append(cols, types.Column{Name: "before", Type: img}, types.Column{Name: "after", Type: img})
			} else {
				cols = append(cols, info.Schema().Columns...)
			}
			for k, rows := range tc.batches {
				bucket := int32(0)
				if tc.buckets != nil {
					bucket = tc.buckets[k]
				}
				sb := testScanBatch(t, info, bucket, int64(10*k), int64(1000+k), rows...)
				rec, err := v.convert(context.Background(), sb)
				require.NoError(t, err)
				assert.Equal(t, tc.want[k], renderBatch(rec), "batch %d", k)
				// The batches have exactly the Arrow types of the virtual table's columns.
				require.Equal(t, len(cols), int(rec.NumCols()))
				for i, c := range cols {
					want, err := types.ArrowType(c.Type)
					require.NoError(t, err)
					assert.True(t, arrow.TypeEqual(want, rec.Column(i).DataType()), "column %s is %s, want %s", c.Name, rec.Column(i).DataType(), want)
					assert.Equal(t, c.Name, rec.Schema().Field(i).Name)
				}
				rec.Release()
				sb.Release()
			}
		})
	}
}
