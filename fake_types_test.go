package flussql_test

import (
	"database/sql"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var sprintf = fmt.Sprintf

const typesDDL = `(
	b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INT NOT NULL, i64 BIGINT, f32 FLOAT, f64 DOUBLE,
	d DECIMAL(10, 2), c CHAR(3), s STRING, bin BINARY(2), by BYTES, dt DATE, tm TIME(3),
	ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(6)%s)`

const typesRow = `(true, 1, 2, 3, 4, 1.5, 2.25, 12.34, 'abc', 'str', x'0102', x'ff', DATE '2024-02-29',
	TIME '12:34:56.789', TIMESTAMP '2024-02-29 12:34:56.789', TIMESTAMP '2024-02-29 12:34:56.123456')`

const typesNulls = `(NULL, NULL, NULL, 5, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)`

// Every scalar type written and read back, from a scan (Arrow batches) and from a lookup
// (compacted rows), with the column types database/sql reports.
func TestFakeColumnTypes(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db,
		"CREATE TABLE logs "+sprintf(typesDDL, ""),
		"CREATE TABLE kv "+sprintf(typesDDL, ", PRIMARY KEY (i32) NOT ENFORCED"),
		"INSERT INTO logs VALUES "+typesRow+", "+typesNulls,
		"INSERT INTO kv VALUES "+typesRow+", "+typesNulls,
	)
	for _, q := range []string{
		"SELECT * FROM logs WHERE i32 = 3",     // scan, filtered on the client
		"SELECT * FROM logs LIMIT 1",           // scan, straight from Arrow
		"SELECT * FROM kv WHERE i32 = 3",       // lookup
		"SELECT * FROM kv WHERE i32 IN (3, 5)", // lookup of two keys
	} {
		t.Run(q, func(t *testing.T) {
			rows, err := db.QueryContext(fakeCtx(t), q)
			require.NoError(t, err)
			defer rows.Close()
			cts, err := rows.ColumnTypes()
			require.NoError(t, err)
			require.Len(t, cts, 16)
			assert.Equal(t, "DECIMAL", cts[7].DatabaseTypeName())
			prec, scale, ok := cts[7].DecimalSize()
			assert.True(t, ok)
			assert.Equal(t, [2]int64{10, 2}, [2]int64{prec, scale})
			l, ok := cts[8].Length()
			assert.True(t, ok)
			assert.Equal(t, int64(3), l)
			nullable, ok := cts[3].Nullable()
			assert.True(t, ok)
			assert.False(t, nullable, "INT NOT NULL")
			assert.Equal(t, reflect.TypeOf(int32(0)), cts[3].ScanType())
			assert.Equal(t, reflect.TypeOf(sql.NullInt64{}), cts[4].ScanType())

			var (
				b       bool
				i8, i16 int8
				i32     int32
				i64     int64
				f32     float32
				f64     float64
				d, c, s string
				bin, by []byte
				dt, ts  time.Time
				ltz     time.Time
				tm      string
			)
			require.True(t, rows.Next(), rows.Err())
			require.NoError(t, rows.Scan(&b, &i8, &i16, &i32, &i64, &f32, &f64, &d, &c, &s, &bin, &by, &dt, &tm, &ts, &ltz))
			assert.Equal(t, []any{true, int8(1), int8(2), int32(3), int64(4), float32(1.5), 2.25, "12.34", "abc", "str", []byte{1, 2}, []byte{0xff}},
				[]any{b, i8, i16, i32, i64, f32, f64, d, c, s, bin, by})
			assert.Equal(t, time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC), dt)
			assert.Equal(t, "12:34:56.789", tm)
			assert.Equal(t, time.Date(2024, 2, 29, 12, 34, 56, 789e6, time.UTC), ts)
			assert.Equal(t, time.Date(2024, 2, 29, 12, 34, 56, 123456e3, time.UTC), ltz.UTC())
			if rows.Next() { // the NULL row
				vals := make([]any, 16)
				ptrs := make([]any, 16)
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				require.NoError(t, rows.Scan(ptrs...))
				for i, v := range vals {
					if i != 3 {
						assert.Nil(t, v, "column %d", i)
					}
				}
			}
			assert.False(t, rows.Next())
			require.NoError(t, rows.Err())
		})
	}
}
