package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

func TestParseCopy(t *testing.T) {
	for _, tc := range []struct {
		args string
		want copySpec
		err  string
	}{
		{args: `t FROM 'data.csv'`, want: copySpec{table: "t", from: true, path: "data.csv", format: copyCSV, delim: ','}},
		{args: `db.t from data.parquet`, want: copySpec{table: "db.t", from: true, path: "data.parquet", format: copyParquet, delim: ','}},
		{args: `t TO 'it''s.jsonl'`, want: copySpec{table: "t", path: "it's.jsonl", format: copyJSON, delim: ','}},
		{args: `t FROM 'x.txt' WITH (FORMAT csv, HEADER, DELIMITER ';')`, want: copySpec{table: "t", from: true, path: "x.txt", format: copyCSV, header: true, delim: ';'}},
		{args: `t FROM 'x.csv' (HEADER false, FORMAT 'csv')`, want: copySpec{table: "t", from: true, path: "x.csv", format: copyCSV, delim: ','}},
		{args: `(SELECT a, b FROM t WHERE a > 1 AND b = ')') TO 'out.parquet'`, want: copySpec{query: "SELECT a, b FROM t WHERE a > 1 AND b = ')'", path: "out.parquet", format: copyParquet, delim: ','}},
		{args: `t FROM 'x.parquet' (FORMAT json)`, want: copySpec{table: "t", from: true, path: "x.parquet", format: copyJSON, delim: ','}},
		{args: ``, err: `\copy wants`},
		{args: `t`, err: `FROM or TO and a file are missing`},
		{args: `t INTO 'x'`, err: `want FROM or TO`},
		{args: `t FROM`, err: `file name is missing`},
		{args: `t FROM 'x.csv`, err: `quote is not closed`},
		{args: `(SELECT 1) FROM 'x.csv'`, err: `only be copied TO`},
		{args: `(SELECT 1 TO 'x.csv'`, err: `parenthesis is not closed`},
		{args: `() TO 'x.csv'`, err: `hold no query`},
		{args: `t FROM 'x.csv' (FORMAT xml)`, err: `want csv, parquet or json`},
		{args: `t FROM 'x.csv' (DELIMITER ab)`, err: `one quoted character`},
		{args: `t FROM 'x.csv' (DELIMITER '"')`, err: `one ASCII character`},
		{args: `t FROM 'x.csv' (NULL 'x')`, err: `unknown option NULL`},
		{args: `t FROM 'x.json' (HEADER)`, err: `HEADER and DELIMITER are for csv`},
		{args: `t FROM 'x.csv' FORMAT csv`, err: `options go in parentheses`},
	} {
		t.Run(tc.args, func(t *testing.T) {
			got, err := parseCopy(tc.args)
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestCSVRecords(t *testing.T) {
	in := "a,\"b,c\",\n\n\"x\"\"y\",\"\",z\r\n\"multi\nline\",2,\n"
	r := newCSVRecords(strings.NewReader(in), ',')
	type rec struct {
		fields []string
		quoted []bool
		line   int
	}
	var got []rec
	for {
		f, q, line, err := r.next()
		if err != nil {
			break
		}
		got = append(got, rec{append([]string(nil), f...), append([]bool(nil), q...), line})
	}
	assert.Equal(t, []rec{
		{[]string{"a", "b,c", ""}, []bool{false, true, false}, 1},
		{[]string{`x"y`, "", "z"}, []bool{true, true, false}, 3},
		{[]string{"multi\nline", "2", ""}, []bool{true, false, false}, 4},
	}, got)

	for _, tc := range []struct{ in, err string }{
		{"a,\"b\nc", "line 1: a quoted field is not closed"},
		{"ok\n\"a\"b,c", `line 2: text after a quoted field's closing quote`},
		{"a\"b,c", `line 1: a " in a field that is not quoted`},
	} {
		r := newCSVRecords(strings.NewReader(tc.in), ',')
		var err error
		for err == nil {
			_, _, _, err = r.next()
		}
		assert.ErrorContains(t, err, tc.err, tc.in)
	}
}

// copySchema has a column of each kind the file formats must carry.
var copySchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "price", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
	{Name: "d", Type: arrow.FixedWidthTypes.Date32, Nullable: true},
	{Name: "ok", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
	{Name: "b", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "f", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
}, nil)

// copyRecord builds n rows of copySchema; every fourth row is all NULL (but its id), and
// row 1's strings are empty (an empty string and NULL must stay apart).
func copyRecord(n int) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, copySchema)
	defer b.Release()
	for i := range n {
		b.Field(0).(*array.Int32Builder).Append(int32(i))
		if i%4 == 3 {
			for j := 1; j < len(copySchema.Fields()); j++ {
				b.Field(j).AppendNull()
			}
			continue
		}
		name := []string{"plain", "", `with "quotes", commas`, "multi\nline"}[i%4]
		b.Field(1).(*array.StringBuilder).Append(name)
		b.Field(2).(*array.Decimal128Builder).Append(decimal128.FromI64(int64(i*100 - 5000)))
		b.Field(3).(*array.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000_123 + int64(i)*1000))
		b.Field(4).(*array.Date32Builder).Append(arrow.Date32(19000 + i))
		b.Field(5).(*array.BooleanBuilder).Append(i%2 == 0)
		b.Field(6).(*array.BinaryBuilder).Append([]byte(name))
		b.Field(7).(*array.Float64Builder).Append(float64(i) / 3)
	}
	return b.NewRecordBatch()
}

// TestCopyFilesRoundTrip writes a record with each format's writer and reads it back with
// its reader, more rows than one batch: the values come back equal.
func TestCopyFilesRoundTrip(t *testing.T) {
	rec := copyRecord(copyBatchRows + 100)
	defer rec.Release()
	for _, tc := range []struct {
		file string
		opts string
	}{
		{file: "t.csv"},
		{file: "t.csv", opts: "(HEADER, DELIMITER '|')"},
		{file: "t.json"},
		{file: "t.parquet"},
	} {
		t.Run(tc.file+tc.opts, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.file)
			spec, err := parseCopy("t TO '" + path + "' " + tc.opts)
			require.NoError(t, err)
			f, err := os.Create(path)
			require.NoError(t, err)
			w, err := newCopyWriter(f, copySchema, spec)
			require.NoError(t, err)
			// In two batches, as a scan hands them over.
			for _, part := range []arrow.RecordBatch{rec.NewSlice(0, 10), rec.NewSlice(10, rec.NumRows())} {
				require.NoError(t, w.write(part))
				part.Release()
			}
			require.NoError(t, w.close())
			require.NoError(t, f.Close())

			spec.from = true
			f, err = os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			r, err := openCopyReader(f, copySchema, spec)
			require.NoError(t, err)
			defer r.Release()
			var batches []arrow.RecordBatch
			for r.Next() {
				b := r.RecordBatch()
				assert.True(t, b.Schema().Equal(copySchema), "batches carry the table's schema: %s", b.Schema())
				b.Retain()
				batches = append(batches, b)
			}
			require.NoError(t, r.Err())
			assert.Greater(t, len(batches), 1, "the file is read in batches, not whole")
			got := array.NewTableFromRecords(copySchema, batches)
			defer got.Release()
			want := array.NewTableFromRecords(copySchema, []arrow.RecordBatch{rec})
			defer want.Release()
			require.Equal(t, want.NumRows(), got.NumRows())
			for i := range copySchema.Fields() {
				assert.True(t, array.ChunkedEqual(want.Column(i).Data(), got.Column(i).Data()), "column %s differs", copySchema.Field(i).Name)
			}
			for _, b := range batches {
				b.Release()
			}
		})
	}
}

// TestCopyReaderBadLine: a line that does not fit stops the reader with an error naming
// the line and column; the batches before its batch were yielded, its batch is not.
func TestCopyReaderBadLine(t *testing.T) {
	var b strings.Builder
	for i := range copyBatchRows + 5 {
		b.WriteString(itoa(int64(i)) + ",n\n")
	}
	b.WriteString("12,n,extra\n")
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}, {Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}}, nil)
	for _, tc := range []struct {
		name, file, err string
		rows            int64
	}{
		{name: "too many fields", file: b.String(), err: "line 8198: 3 fields, the table has 2 columns", rows: copyBatchRows},
		{name: "not a number", file: "1,a\nx,b\n", err: `line 2, column id (int64): "x"`},
		{name: "json not an object", file: "{\"id\": 1}\n[1]\n", err: "line 2: not a JSON object"},
		{name: "json unknown key", file: "{\"id\": 1, \"nope\": 2}\n", err: `line 1: key "nope" is not a column`},
		{name: "json wrong type", file: "\n{\"id\": \"abc\"}\n", err: "line 2, column id (int64)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := copySpec{format: copyCSV, delim: ','}
			if strings.HasPrefix(tc.name, "json") {
				spec.format = copyJSON
			}
			path := filepath.Join(t.TempDir(), "f")
			require.NoError(t, os.WriteFile(path, []byte(tc.file), 0o644))
			f, err := os.Open(path)
			require.NoError(t, err)
			defer f.Close()
			r, err := openCopyReader(f, schema, spec)
			require.NoError(t, err)
			defer r.Release()
			var rows int64
			for r.Next() {
				rows += r.RecordBatch().NumRows()
			}
			assert.ErrorContains(t, r.Err(), tc.err)
			assert.Equal(t, tc.rows, rows)
		})
	}
}

func TestCopyOutcome(t *testing.T) {
	assert.Equal(t, "COPY: no rows written.", copyOutcome(0, errNotWrittenForTest))
	assert.Equal(t, "COPY: 5 rows written; the rest of the file was not written.", copyOutcome(5, errPartialForTest))
	assert.Contains(t, copyOutcome(1, errUnknownForTest), "COPY: 1 row written; the outcome of the rows sent after them is unknown")
}

var (
	errNotWrittenForTest = fmt.Errorf("refused: %w", flussql.ErrNotWritten)
	errPartialForTest    = fmt.Errorf("half: %w", flussql.ErrPartiallyWritten)
	errUnknownForTest    = fmt.Errorf("lost: %w", flussql.ErrOutcomeUnknown)
)
