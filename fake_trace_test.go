package flussql_test

import (
	"database/sql"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest"
)

// TestTracerBytes: a statement's trace counts the bytes it exchanged with the cluster, and
// more rows cost more bytes — for writes (their batches) and for reads (the fetches).
func TestTracerBytes(t *testing.T) {
	fc := flusstest.New(t)
	cfg, err := flussql.ParseDSN("fluss://" + fc.Addr() + "/fluss")
	require.NoError(t, err)
	tr := &recordingTracer{} // tx_integration_test.go
	cfg.Tracer = tr
	connector, err := flussql.NewConnector(cfg)
	require.NoError(t, err)
	db := sql.OpenDB(connector)
	defer db.Close()
	mustExec(t, db, `CREATE TABLE t (id INT, name STRING) WITH ('bucket.num' = '1')`,
		`CREATE TABLE kv (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')`)
	values := func(n int) string {
		s := ""
		for i := range n {
			if i > 0 {
				s += ", "
			}
			s += fmt.Sprintf("(%d, 'name-%d')", i, i)
		}
		return s
	}
	mustExec(t, db, `INSERT INTO t VALUES `+values(1), `INSERT INTO t VALUES `+values(500), `INSERT INTO kv VALUES `+values(10))
	var name string
	require.NoError(t, db.QueryRow(`SELECT name FROM kv WHERE id = 3`).Scan(&name))
	rows, err := db.Query(`SELECT * FROM t`)
	require.NoError(t, err)
	n := 0
	for rows.Next() {
		n++
	}
	require.NoError(t, rows.Close())
	require.Equal(t, 501, n)

	tr.mu.Lock()
	defer tr.mu.Unlock()
	require.Len(t, tr.ends, 7)
	one, many, upsert, lookup, scan := tr.ends[2], tr.ends[3], tr.ends[4], tr.ends[5], tr.ends[6]
	for _, e := range tr.ends {
		assert.Positive(t, e.Bytes, "%s", e)
	}
	assert.Greater(t, many.Bytes, one.Bytes, "500 rows cost more than one (the first write also reads the table's metadata)")
	assert.Greater(t, scan.Bytes, many.Bytes/2, "the scan read the 501 rows' batches back: %d vs %d written", scan.Bytes, many.Bytes)
	assert.Equal(t, "Write", upsert.Plan)
	assert.Equal(t, "Lookup", lookup.Plan)
}
