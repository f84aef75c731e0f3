package flussmigrate_test

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// testDatabase creates a database of its own for the test on the real cluster (the test
// skips without FLUSS_BOOTSTRAP_SERVERS) and returns a pool on it, its name and the
// migrate URL of it.
func testDatabase(t *testing.T) (*sql.DB, string, string) {
	t.Helper()
	addr := realcluster.Addr(t)
	name := fmt.Sprintf("mig_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e9)
	admin, err := sql.Open("fluss", "fluss://"+addr+"/fluss")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" CASCADE")
		assert.NoError(t, err)
		admin.Close()
	})
	url := "fluss://" + addr + "/" + name
	db, err := sql.Open("fluss", url)
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return db, name, url
}

// tables lists the tables of the pool's database, sorted.
func tables(t *testing.T, db *sql.DB) []string {
	t.Helper()
	rows, err := db.Query("SHOW TABLES")
	require.NoError(t, err)
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		out = append(out, s)
	}
	require.NoError(t, rows.Err())
	sort.Strings(out)
	return out
}
