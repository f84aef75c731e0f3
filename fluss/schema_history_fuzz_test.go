package fluss

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzParseSchemaVersion feeds arbitrary schema JSON to the parser of
// GET_TABLE_SCHEMA answers: an error is fine, a panic is not, and a parsed
// schema has one unique id per column.
func FuzzParseSchemaVersion(f *testing.F) {
	f.Add([]byte(schemaV1JSON))
	f.Add([]byte(schemaV2JSON))
	f.Add([]byte(`{"columns":[{"name":"a","data_type":{"type":"ROW","fields":[{"name":"x","field_type":{"type":"INTEGER"},"field_id":3}]}}]}`))
	f.Add([]byte(`{"columns":[{"name":"a","data_type":{"type":"INTEGER"},"id":-1}]}`))
	f.Fuzz(func(t *testing.T, js []byte) {
		v, err := parseSchemaVersion(1, js)
		if err != nil {
			return
		}
		require.Len(t, v.colIDs, len(v.schema.Columns))
		seen := map[int32]bool{}
		for _, id := range v.colIDs {
			require.False(t, seen[id], "repeated column id %d", id)
			seen[id] = true
		}
	})
}

// FuzzDecodeOtherSchemaRecords feeds arbitrary bytes, seeded with logs of
// batches of schema 1 and 2, to a scanner of schema 2 (with and without a
// projection, for every log format): an error is fine, a panic or a row of
// the wrong width is not.
func FuzzDecodeOtherSchemaRecords(f *testing.F) {
	formats := []string{"ARROW", "INDEXED", "COMPACTED"}
	c := schemaCacheClient(f)
	for i, format := range formats {
		f.Add(uint8(i), false, offlineLog(f, c, format, nil))
		f.Add(uint8(i), true, offlineLog(f, c, format, nil))
	}
	f.Add(uint8(0), true, offlineLog(f, c, "ARROW", []int{0, 1}))
	f.Fuzz(func(t *testing.T, format uint8, projected bool, records []byte) {
		tbl := offlineTable(t, c, 2, formats[int(format)%len(formats)])
		var cols []int
		if projected {
			cols = []int{1, 0} // pushdown stays on for ARROW
		}
		s, err := tbl.NewLogScanner(ScannerOptions{Projection: cols})
		require.NoError(t, err)
		defer s.Close()
		require.NoError(t, s.checkPushdown(context.Background()))
		dec := s.decs.get()
		defer s.decs.put(dec)
		batches, _, err := s.decodeRecords(context.Background(), dec, &bucketFetch{offset: 0, end: -1}, records, 0)
		if err != nil {
			require.Empty(t, batches)
			return
		}
		for _, b := range batches {
			require.Equal(t, len(s.ColumnTypes()), int(b.Record.NumCols()))
			for i := 0; i < b.NumRows(); i++ {
				_, err := RowValues(b.Record, s.ColumnTypes(), i)
				require.NoError(t, err)
			}
			b.Release()
		}
	})
}
