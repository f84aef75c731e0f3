package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest"
)

// memLake is a lake format of the tests: the lake of every table holds ids 0..rows-1 with
// v = id*10, in batches of 3 rows, as the tiering service would have copied the first rows
// of the log.
type memLake struct {
	rows int
	// asked records the requests.
	asked []fluss.LakeScanRequest
}

func (m *memLake) ScanLake(_ context.Context, info *fluss.TableInfo, req fluss.LakeScanRequest) (fluss.LakeScan, error) {
	m.asked = append(m.asked, req)
	return &memLakeScan{info: info, req: req, rows: m.rows}, nil
}

type memLakeScan struct {
	info *fluss.TableInfo
	req  fluss.LakeScanRequest
	rows int
	next int
}

func (s *memLakeScan) Files() []string { return []string{"mem://part-0.parquet"} }

func (s *memLakeScan) Next(context.Context) (arrow.RecordBatch, error) {
	if s.next >= s.rows {
		return nil, io.EOF
	}
	end := min(s.next+3, s.rows)
	var fields []arrow.Field
	var cols []arrow.Array
	for _, c := range s.req.Columns {
		name := s.info.Schema().Columns[c].Name
		switch name {
		case "id":
			b := array.NewInt64Builder(memory.DefaultAllocator)
			for i := s.next; i < end; i++ {
				b.Append(int64(i))
			}
			fields, cols = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}), append(cols, b.NewArray())
		case "v":
			b := array.NewInt32Builder(memory.DefaultAllocator)
			for i := s.next; i < end; i++ {
				b.Append(int32(i * 10))
			}
			fields, cols = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int32, Nullable: true}), append(cols, b.NewArray())
		case "__bucket":
			b := array.NewInt32Builder(memory.DefaultAllocator)
			for range end - s.next {
				b.Append(0)
			}
			fields, cols = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int32, Nullable: true}), append(cols, b.NewArray())
		case "__offset":
			b := array.NewInt64Builder(memory.DefaultAllocator)
			for i := s.next; i < end; i++ {
				b.Append(int64(i))
			}
			fields, cols = append(fields, arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true}), append(cols, b.NewArray())
		case "__timestamp":
			typ := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
			b := array.NewTimestampBuilder(memory.DefaultAllocator, typ)
			for i := s.next; i < end; i++ {
				b.Append(arrow.Timestamp(int64(i) * 1e6))
			}
			fields, cols = append(fields, arrow.Field{Name: name, Type: typ, Nullable: true}), append(cols, b.NewArray())
		}
	}
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(end-s.next))
	for _, c := range cols {
		c.Release()
	}
	s.next = end
	return rec, nil
}

func (s *memLakeScan) Close() error { return nil }

// lakeFixture is a fake with a one-bucket datalake-enabled log table lk whose log holds ids
// 0..19 (v = id*10) at offsets 0..19, and whose lake (format memlake) holds ids 0..9: the
// lake snapshot 7 says the log is tiered up to offset 10. Table nolake has the same log and
// no snapshot.
func lakeFixture(t *testing.T) (*sql.DB, *memLake) {
	t.Helper()
	lake := &memLake{rows: 10}
	fluss.RegisterLakeFormat("memlake", lake)
	db, fc := openFake(t, "")
	fc.ServeLakeSnapshots(func(_, table string) (flusstest.LakeSnapshot, bool) {
		if table != "lk" && table != "unread" {
			return flusstest.LakeSnapshot{}, false
		}
		return flusstest.LakeSnapshot{SnapshotID: 7, Offsets: map[int32]int64{0: 10}}, true
	})
	var vals []string
	for i := range 20 {
		vals = append(vals, fmt.Sprintf("(%d, %d)", i, i*10))
	}
	for _, name := range []string{"lk", "nolake"} {
		mustExec(t, db, "CREATE TABLE "+name+" (id BIGINT, v INT) WITH ('bucket.num' = '1', 'table.datalake.enabled' = 'true', 'table.datalake.format' = 'memlake')",
			"INSERT INTO "+name+" VALUES "+strings.Join(vals, ", "))
	}
	return db, lake
}

// TestFakeLakeUnionRead: a bounded read of a datalake-enabled log table is the lake snapshot
// plus the log from the snapshot's offset: every row once across the boundary, whatever the
// query does on top; t$lake is the lake alone; EXPLAIN names the snapshot, its files and the
// offsets.
func TestFakeLakeUnionRead(t *testing.T) {
	db, lake := lakeFixture(t)
	for _, tt := range []struct {
		query string
		want  [][]string
	}{
		{"SELECT COUNT(*), SUM(v), COUNT(DISTINCT id) FROM lk", [][]string{{"20", "1900", "20"}}},
		{"SELECT COUNT(*) FROM lk WHERE id BETWEEN 8 AND 11", [][]string{{"4"}}},
		{"SELECT id FROM lk WHERE id IN (9, 10) ORDER BY id", [][]string{{"9"}, {"10"}}},
		{"SELECT COUNT(*), SUM(v) FROM `lk$lake`", [][]string{{"10", "450"}}},
		{"SELECT MAX(id) FROM `lk$lake`", [][]string{{"9"}}},
		{"SELECT id, __bucket, __offset FROM `lk$lake` WHERE __offset >= 8 ORDER BY id", [][]string{{"8", "0", "8"}, {"9", "0", "9"}}},
		{"SELECT COUNT(*) FROM nolake", [][]string{{"20"}}},
		{"SELECT COUNT(*) FROM lk a JOIN `lk$lake` b ON a.id = b.id", [][]string{{"10"}}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			assert.Equal(t, tt.want, queryStrings(t, db, tt.query))
		})
	}
	all := queryStrings(t, db, "SELECT id FROM lk")
	require.Len(t, all, 20)
	seen := map[string]int{}
	for _, r := range all {
		seen[r[0]]++
	}
	for i := range 20 {
		assert.Equal(t, 1, seen[fmt.Sprint(i)], "id %d", i)
	}

	lake.asked = nil
	queryStrings(t, db, "SELECT v FROM lk WHERE id > 15")
	require.NotEmpty(t, lake.asked)
	assert.Equal(t, int64(7), lake.asked[0].SnapshotID)
	require.NotNil(t, lake.asked[0].Filter, "the WHERE goes to the lake's planning")
	assert.Equal(t, fluss.PredGreater, lake.asked[0].Filter.Op)

	explain := explainText(t, db, "EXPLAIN SELECT COUNT(*) FROM lk")
	assert.Contains(t, explain, "union read")
	assert.Contains(t, explain, "memlake snapshot 7, 1 data files kept")
	assert.Contains(t, explain, "file mem://part-0.parquet")
	assert.Contains(t, explain, "bucket 0 from 10")

	// 'full' is the default; 'earliest' reads the log alone, as in Flink; so does 'latest'.
	assert.Equal(t, [][]string{{"20"}}, queryStrings(t, db, "SELECT COUNT(*) FROM lk /*+ OPTIONS('scan.startup.mode' = 'full') */"))
	assert.Equal(t, [][]string{{"20"}}, queryStrings(t, db, "SELECT COUNT(*) FROM lk /*+ OPTIONS('scan.startup.mode' = 'earliest') */"))
	assert.NotContains(t, explainText(t, db, "EXPLAIN SELECT COUNT(*) FROM lk /*+ OPTIONS('scan.startup.mode' = 'earliest') */"), "union read")
	assert.Equal(t, [][]string{{"0"}}, queryStrings(t, db, "SELECT COUNT(*) FROM lk /*+ OPTIONS('scan.startup.mode' = 'latest') */"))

	// An unbounded union read: the lake's rows, then the log's from the snapshot's offset,
	// then whatever comes.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, "SELECT id FROM lk /*+ OPTIONS('scan.bounded' = 'false') */")
	require.NoError(t, err)
	var ids []int
	for len(ids) < 20 && rows.Next() {
		var id int
		require.NoError(t, rows.Scan(&id))
		ids = append(ids, id)
	}
	require.NoError(t, rows.Close())
	assert.ElementsMatch(t, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}, ids)
}

// TestFakeLakeErrors: t$lake of a table with no lake, and a lake format nobody registered.
func TestFakeLakeErrors(t *testing.T) {
	db, _ := lakeFixture(t)
	mustExec(t, db, "CREATE TABLE plain (id BIGINT)",
		"CREATE TABLE other (id BIGINT) WITH ('table.datalake.enabled' = 'true', 'table.datalake.format' = 'nosuchlake')")
	_, err := db.Query("SELECT * FROM `plain$lake`")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not datalake-enabled")

	// other has no snapshot (the fake answers lk and unread only): the log holds every row.
	assert.Equal(t, [][]string{{"0"}}, queryStrings(t, db, "SELECT COUNT(*) FROM other"))

	// unread has a snapshot in a format nobody registered: refused, naming the import,
	// rather than the log's rows alone.
	mustExec(t, db, "CREATE TABLE unread (id BIGINT) WITH ('table.datalake.enabled' = 'true', 'table.datalake.format' = 'nosuchlake')")
	_, err = db.Query("SELECT COUNT(*) FROM unread")
	require.ErrorIs(t, err, flussql.ErrNotSupported)
	assert.Contains(t, err.Error(), `import _ "github.com/flussql/flussql/flusslake"`)
}

// TestFakeLakeLimit: LIMIT over a union read still reads the lake (the log alone may hold
// fewer rows than the LIMIT once its early rows passed table.log.ttl).
func TestFakeLakeLimit(t *testing.T) {
	db, _ := lakeFixture(t)
	assert.Contains(t, explainText(t, db, "EXPLAIN SELECT * FROM lk LIMIT 3"), "union read")
	assert.Len(t, queryStrings(t, db, "SELECT * FROM lk LIMIT 25"), 20)
	assert.Len(t, queryStrings(t, db, "SELECT id FROM lk WHERE v >= 0 LIMIT 15"), 15)
}
