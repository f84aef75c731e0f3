package flussql_test

import (
	"database/sql"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest"
)

// BenchmarkFakeInsertTx is BenchmarkInsertTx10k against the in-memory fake cluster: it
// measures the driver's own cost per row (parse once, bind, buffer, encode at Commit)
// without a server, so a profile shows the client side alone. One op is one row.
func BenchmarkFakeInsertTx(b *testing.B) {
	fc := flusstest.New(b)
	db, err := sql.Open("fluss", "fluss://"+fc.Addr()+"/fluss")
	require.NoError(b, err)
	defer db.Close()
	_, err = db.Exec(`CREATE TABLE t` + benchLogDDL)
	require.NoError(b, err)
	b.ReportAllocs()
	b.ResetTimer()
	for done := 0; done < b.N; {
		tx, err := db.Begin()
		require.NoError(b, err)
		st, err := tx.Prepare(`INSERT INTO t VALUES (?, ?, ?)`)
		require.NoError(b, err)
		for j := 0; j < 10000 && done < b.N; j++ {
			if _, err := st.Exec(done, "name", int64(done)); err != nil {
				b.Fatal(err)
			}
			done++
		}
		require.NoError(b, tx.Commit())
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
