package fluss

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// The two schemas of the tests: v1 (id, name) and v2 after ADD COLUMN
// score, as the 0.9.1 server returns them from GET_TABLE_SCHEMA.
const (
	schemaV1JSON = `{"version":1,"columns":[{"name":"id","data_type":{"type":"INTEGER","nullable":false},"id":0},{"name":"name","data_type":{"type":"STRING"},"id":1}],"highest_field_id":1}`
	schemaV2JSON = `{"version":1,"columns":[{"name":"id","data_type":{"type":"INTEGER","nullable":false},"id":0},{"name":"name","data_type":{"type":"STRING"},"id":1},{"name":"score","data_type":{"type":"BIGINT"},"comment":"new","id":2}],"highest_field_id":2}`
)

func TestParseSchemaVersion(t *testing.T) {
	tests := []struct {
		name    string
		js      string
		names   []string
		ids     []int32
		wantErr string
	}{
		{"with ids", schemaV2JSON, []string{"id", "name", "score"}, []int32{0, 1, 2}, ""},
		{"ids out of order", `{"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":7},{"name":"b","data_type":{"type":"STRING"},"id":3}]}`,
			[]string{"a", "b"}, []int32{7, 3}, ""},
		{"without ids", `{"columns":[{"name":"a","data_type":{"type":"INTEGER"}},{"name":"b","data_type":{"type":"STRING"}}]}`,
			[]string{"a", "b"}, []int32{0, 1}, ""},
		{"some ids", `{"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":0},{"name":"b","data_type":{"type":"STRING"}}]}`,
			nil, nil, "1 of 2 columns carry an id"},
		{"repeated id", `{"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":1},{"name":"b","data_type":{"type":"STRING"},"id":1}]}`,
			nil, nil, "repeats column id 1"},
		{"not JSON", `{"columns":[`, nil, nil, "JSON"},
		{"no columns", `{"version":1}`, nil, nil, "columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := parseSchemaVersion(4, []byte(tt.js))
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, int16(4), v.id)
			assert.Equal(t, tt.names, v.schema.ColumnNames())
			assert.Equal(t, tt.ids, v.colIDs)
		})
	}
}

func mustSchema(t testing.TB, id int16, js string) *schemaVersion {
	v, err := parseSchemaVersion(id, []byte(js))
	require.NoError(t, err)
	return v
}

func TestColumnMapping(t *testing.T) {
	v1, v2 := mustSchema(t, 1, schemaV1JSON), mustSchema(t, 2, schemaV2JSON)
	// Same ids at other positions, and a column whose type changed.
	moved := mustSchema(t, 3, `{"columns":[{"name":"score","data_type":{"type":"BIGINT","nullable":false},"id":2},{"name":"id","data_type":{"type":"INTEGER"},"id":0}]}`)
	retyped := mustSchema(t, 4, `{"columns":[{"name":"id","data_type":{"type":"BIGINT"},"id":0}]}`)
	renamed := mustSchema(t, 5, `{"columns":[{"name":"ident","data_type":{"type":"INTEGER"},"id":0},{"name":"label","data_type":{"type":"STRING"},"id":1}]}`)

	tests := []struct {
		name     string
		from, to *schemaVersion
		wanted   []int
		want     []int
		wantErr  string
	}{
		{"same schema", v2, v2, []int{0, 1, 2}, []int{0, 1, 2}, ""},
		{"old schema lacks the added column", v1, v2, []int{0, 1, 2}, []int{0, 1, -1}, ""},
		{"projection in another order", v1, v2, []int{2, 1}, []int{-1, 1}, ""},
		{"newer schema read by an old handle", v2, v1, []int{0, 1}, []int{0, 1}, ""},
		{"by id, not by position; nullability aside", moved, v2, []int{0, 1, 2}, []int{1, -1, 0}, ""},
		{"by id, not by name", renamed, v1, []int{1, 0}, []int{1, 0}, ""},
		{"type changed", retyped, v2, []int{0}, nil, `column "id" (id 0) is INT NOT NULL in schema 2 but BIGINT in schema 4`},
		{"wanted column out of range", v1, v2, []int{3}, nil, "column 3 is not in schema 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := columnMapping(tt.from, tt.to, tt.wanted)
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

// schemaCacheClient is a closed client whose schema cache holds v1 and v2 of
// table 7: schema lookups hit the cache, anything else fails with ErrClosed.
func schemaCacheClient(t testing.TB) *Client {
	closed := make(chan struct{})
	close(closed)
	c := &Client{meta: newMetadataCache(), closed: closed}
	c.meta.schemas[schemaKey{7, 1}] = mustSchema(t, 1, schemaV1JSON)
	c.meta.schemas[schemaKey{7, 2}] = mustSchema(t, 2, schemaV2JSON)
	return c
}

// offlineTable returns a handle on table 7 as of schema id (1 or 2).
func offlineTable(t testing.TB, c *Client, id int16, format string) *Table {
	v := c.meta.schemas[schemaKey{7, id}]
	info := &TableInfo{Path: TablePath{Database: "db", Table: "t"}, TableID: 7, SchemaID: int32(id),
		Descriptor: TableDescriptor{Schema: v.schema, BucketCount: 1, Properties: map[string]string{PropLogFormat: format}}}
	tbl, err := c.TableOf(info)
	require.NoError(t, err)
	return tbl
}

// encodeLogBatch encodes rows as one log batch of tbl's schema, schema id
// and format with the append writer's code.
func encodeLogBatch(t testing.TB, tbl *Table, rows [][]any) []byte {
	cols := tbl.info.Schema().Columns
	w := &AppendWriter{t: tbl, schemaID: int16(tbl.info.SchemaID), format: tbl.info.LogFormat()}
	var err error
	w.codec, err = newRowCodec(cols, tbl.schema)
	require.NoError(t, err)
	if w.format == "ARROW" {
		w.encoders = newArrowEncoderPool(func() (*logbatch.ArrowEncoder, error) {
			return logbatch.NewArrowEncoder(tbl.schema, logbatch.CompressionZstd)
		})
	} else {
		f, err := row.ParseFormat(w.format)
		require.NoError(t, err)
		w.rowEnc, err = row.NewEncoder(f, row.FieldTypes(cols))
		require.NoError(t, err)
	}
	bc, err := w.newContent()
	require.NoError(t, err)
	content := bc.(*logContent)
	defer content.release()
	for _, r := range rows {
		require.NoError(t, content.put(r))
	}
	data, err := content.seal()
	require.NoError(t, err)
	return data
}

// scanOffline decodes a log with a scanner of tbl (projection cols) and
// returns the rows and whether the scanner kept projection pushdown.
// makeLog gets the columns the server would send (nil: all).
func scanOffline(t *testing.T, tbl *Table, cols []int, makeLog func(fetch []int) []byte) ([][]any, bool) {
	s, err := tbl.NewLogScanner(ScannerOptions{Projection: cols, Allocator: memory.DefaultAllocator})
	require.NoError(t, err)
	defer s.Close()
	require.NoError(t, s.checkPushdown(context.Background()))
	var fetch []int
	if s.proj.pushdown {
		fetch = s.proj.fetch
	}
	dec := s.decs.get()
	defer s.decs.put(dec)
	batches, _, err := s.decodeRecords(context.Background(), dec, &bucketFetch{offset: 0, end: -1}, makeLog(fetch), 0)
	require.NoError(t, err)
	var out [][]any
	for _, b := range batches {
		for i := range b.NumRows() {
			vals, err := RowValues(b.Record, s.ColumnTypes(), i)
			require.NoError(t, err)
			out = append(out, vals)
		}
		b.Release()
	}
	return out, s.proj.pushdown
}

// offlineLog returns a log of two batches, rows 1 and 2 written under
// schema 1 and row 3 under schema 2. With fetch, each batch holds only
// those column positions, as the server sends it with projection pushdown.
func offlineLog(t testing.TB, c *Client, format string, fetch []int) []byte {
	var log []byte
	for i, part := range []struct {
		id   int16
		rows [][]any
	}{
		{1, [][]any{{int32(1), "a"}, {int32(2), nil}}},
		{2, [][]any{{int32(3), "c", int64(30)}}},
	} {
		tbl := offlineTable(t, c, part.id, format)
		rows := part.rows
		if fetch != nil {
			info := *tbl.info
			info.Descriptor.Schema = types.Schema{}
			rows = nil
			for _, f := range fetch {
				info.Descriptor.Schema.Columns = append(info.Descriptor.Schema.Columns, tbl.info.Schema().Columns[f])
			}
			for _, r := range part.rows {
				rows = append(rows, project(r, fetch))
			}
			var err error
			tbl, err = c.TableOf(&info)
			require.NoError(t, err)
		}
		b := encodeLogBatch(t, tbl, rows)
		binary.LittleEndian.PutUint64(b, uint64(2*i)) // base offset, outside the CRC
		log = append(log, b...)
	}
	return log
}

func project(row []any, cols []int) []any {
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = row[c]
	}
	return out
}

// TestScanBatchesOfOtherSchemas decodes a log of batches written under
// schema 1 and schema 2 with handles of both schemas, for each log format
// and several projections: the columns map by id, a column the batch's
// schema lacks is NULL, and projection pushdown stays on only when the
// projected positions exist in schema 1.
func TestScanBatchesOfOtherSchemas(t *testing.T) {
	for _, format := range []string{"ARROW", "INDEXED", "COMPACTED"} {
		t.Run(format, func(t *testing.T) {
			c := schemaCacheClient(t)
			v1, v2 := offlineTable(t, c, 1, format), offlineTable(t, c, 2, format)
			makeLog := func(fetch []int) []byte { return offlineLog(t, c, format, fetch) }
			tests := []struct {
				name     string
				tbl      *Table
				cols     []int
				want     [][]any
				pushdown bool
			}{
				{"new handle, all columns", v2, nil,
					[][]any{{int32(1), "a", nil}, {int32(2), nil, nil}, {int32(3), "c", int64(30)}}, false},
				{"new handle, new column first", v2, []int{2, 0},
					[][]any{{nil, int32(1)}, {nil, int32(2)}, {int64(30), int32(3)}}, false},
				{"new handle, old columns", v2, []int{1, 0},
					[][]any{{"a", int32(1)}, {nil, int32(2)}, {"c", int32(3)}}, format == "ARROW"},
				{"new handle, new column only", v2, []int{2},
					[][]any{{nil}, {nil}, {int64(30)}}, false},
				{"new handle, one old column", v2, []int{1},
					[][]any{{"a"}, {nil}, {"c"}}, format == "ARROW"},
				{"old handle drops the new column", v1, nil,
					[][]any{{int32(1), "a"}, {int32(2), nil}, {int32(3), "c"}}, false},
				{"old handle, one column", v1, []int{1},
					[][]any{{"a"}, {nil}, {"c"}}, format == "ARROW"},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					got, pushdown := scanOffline(t, tt.tbl, tt.cols, makeLog)
					assert.Equal(t, tt.want, got)
					assert.Equal(t, tt.pushdown, pushdown, "projection pushdown")
				})
			}
		})
	}
}

// TestScanBatchOfUnknownSchema: a batch whose schema cannot be fetched is
// an error naming the batch, not a panic or wrong rows.
func TestScanBatchOfUnknownSchema(t *testing.T) {
	c := schemaCacheClient(t)
	v2 := offlineTable(t, c, 2, "ARROW")
	info := *v2.info
	info.SchemaID = 3
	v3, err := c.TableOf(&info)
	require.NoError(t, err)
	s, err := v3.NewLogScanner(ScannerOptions{})
	require.NoError(t, err)
	defer s.Close()
	dec := s.decs.get()
	defer s.decs.put(dec)
	_, _, err = s.decodeRecords(context.Background(), dec, &bucketFetch{offset: 0, end: -1}, offlineLog(t, c, "ARROW", nil), 0)
	require.ErrorContains(t, err, "offset 0 (schema id 1)")
	require.ErrorIs(t, err, ErrClosed)
}

// TestValueReaderOfOtherSchemas decodes stored KV values of schema 1 and 2
// with readers of both schemas.
func TestValueReaderOfOtherSchemas(t *testing.T) {
	c := schemaCacheClient(t)
	v1 := mustSchema(t, 1, schemaV1JSON)
	v2 := mustSchema(t, 2, schemaV2JSON)
	encode := func(v *schemaVersion, vals []any) []byte {
		enc, err := row.NewEncoder(row.Compacted, row.FieldTypes(v.schema.Columns))
		require.NoError(t, err)
		b, err := enc.Append(nil, vals)
		require.NoError(t, err)
		return kvbatch.AppendValue(nil, v.id, b)
	}
	old := encode(v1, []any{int32(1), "a"})
	cur := encode(v2, []any{int32(2), "b", int64(20)})
	tests := []struct {
		name   string
		reader *schemaVersion
		value  []byte
		want   []any
	}{
		{"old value, new reader", v2, old, []any{int32(1), "a", nil}},
		{"new value, new reader", v2, cur, []any{int32(2), "b", int64(20)}},
		{"new value, old reader", v1, cur, []any{int32(2), "b"}},
		{"old value, old reader", v1, old, []any{int32(1), "a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info := &TableInfo{Path: TablePath{Database: "db", Table: "t"}, TableID: 7, SchemaID: int32(tt.reader.id),
				Descriptor: TableDescriptor{Schema: tt.reader.schema}}
			got, err := newValueReader(c, info.Path, info, row.Compacted).decode(tt.value)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
