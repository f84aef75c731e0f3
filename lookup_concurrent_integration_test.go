package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Point lookups from many goroutines over many connections (their lookups share one
// Lookuper per table and are merged per bucket leader): every caller gets its own row,
// missing keys stay missing, a cancelled caller fails alone, and after ALTER TABLE … ADD (or
// DROP and CREATE) the same unprepared text sees the new columns.
func TestLookupConcurrentQueryRow(t *testing.T) {
	db, name := openTestDB(t)
	ctx := context.Background()
	_, err := db.Exec(`CREATE TABLE ` + name + `.kv (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')`)
	require.NoError(t, err)
	const keys = 500
	tx, err := db.Begin()
	require.NoError(t, err)
	st, err := tx.Prepare(`UPSERT INTO ` + name + `.kv VALUES (?, ?, ?)`)
	require.NoError(t, err)
	for i := range keys {
		_, err := st.Exec(i, fmt.Sprintf("name-%d", i), int64(i)*7)
		require.NoError(t, err)
	}
	require.NoError(t, tx.Commit())
	db.SetMaxOpenConns(16)

	prepared, err := db.Prepare(`SELECT name, score FROM ` + name + `.kv WHERE id = ?`)
	require.NoError(t, err)
	unprepared := `SELECT name, score FROM ` + name + `.kv WHERE id = ?`
	const callers = 48
	var wg sync.WaitGroup
	errs := make(chan error, callers)
	for g := range callers {
		wg.Go(func() {
			for j := range 40 {
				id := (g*41 + j*7) % (keys + 20) // some ids were never written
				var nm string
				var score int64
				var err error
				if g%2 == 0 {
					err = prepared.QueryRowContext(ctx, id).Scan(&nm, &score)
				} else {
					err = db.QueryRowContext(ctx, unprepared, id).Scan(&nm, &score)
				}
				switch {
				case id >= keys && err != sql.ErrNoRows:
					errs <- fmt.Errorf("id %d was never written: got %q %d, err %v", id, nm, score, err)
					return
				case id < keys && (err != nil || nm != fmt.Sprintf("name-%d", id) || score != int64(id)*7):
					errs <- fmt.Errorf("id %d: got %q %d, err %v", id, nm, score, err)
					return
				}
			}
		})
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	var score int64
	assert.ErrorIs(t, db.QueryRowContext(cctx, unprepared, 1).Scan(new(string), &score), context.Canceled)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	_, err = db.Exec(`ALTER TABLE ` + name + `.kv ADD COLUMN extra STRING`)
	require.NoError(t, err)
	_, err = db.Exec(`UPSERT INTO `+name+`.kv VALUES (?, ?, ?, ?)`, 3, "three", int64(21), "x")
	require.NoError(t, err)
	var extra sql.NullString
	q := `SELECT * FROM ` + name + `.kv WHERE id = ?`
	var nm string
	require.NoError(t, db.QueryRow(q, 3).Scan(new(int32), &nm, &score, &extra))
	assert.Equal(t, "x", extra.String)
	require.NoError(t, db.QueryRow(q, 4).Scan(new(int32), &nm, &score, &extra))
	assert.Equal(t, "name-4", nm)
	assert.False(t, extra.Valid, "a row written before ADD COLUMN has NULL there")

	// The table dropped and created again with other columns: the same text plans anew.
	_, err = db.Exec(`DROP TABLE ` + name + `.kv`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + name + `.kv (id INT, flag BOOLEAN, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	_, err = db.Exec(`UPSERT INTO `+name+`.kv VALUES (?, ?)`, 3, true)
	require.NoError(t, err)
	results := make(chan error, 16*5)
	for range 16 { // concurrently, so over many of the pool's connections and their cached plans
		wg.Go(func() {
			for range 5 {
				var id int32
				var flag bool
				if err := db.QueryRow(q, 3).Scan(&id, &flag); err != nil || !flag {
					results <- fmt.Errorf("id 3 after CREATE: flag %v, err %v", flag, err)
					continue
				}
				results <- db.QueryRow(q, 4).Scan(&id, &flag)
			}
		})
	}
	wg.Wait()
	close(results)
	for err := range results {
		assert.ErrorIs(t, err, sql.ErrNoRows)
	}
}
