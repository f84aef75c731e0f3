package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// openTestDB opens the cluster named by FLUSS_BOOTSTRAP_SERVERS with a fresh database
// that is dropped when the test ends. It skips the test when the variable is unset.
func openTestDB(t *testing.T) (*sql.DB, string) {
	t.Helper()
	addrs := realcluster.Addr(t)
	db, err := sql.Open("fluss", "fluss://"+addrs+"/fluss")
	require.NoError(t, err)
	name := fmt.Sprintf("it_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e9)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = db.ExecContext(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" CASCADE")
		assert.NoError(t, err)
		db.Close()
	})
	return db, name
}

func queryStrings(t *testing.T, db *sql.DB, q string, args ...any) [][]string {
	t.Helper()
	rows, err := db.Query(q, args...)
	require.NoError(t, err, q)
	defer rows.Close()
	cols, err := rows.Columns()
	require.NoError(t, err)
	var out [][]string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		require.NoError(t, rows.Scan(ptrs...))
		row := make([]string, len(cols))
		for i, v := range vals {
			if v.Valid {
				row[i] = v.String
			} else {
				row[i] = "NULL"
			}
		}
		out = append(out, row)
	}
	require.NoError(t, rows.Err())
	return out
}

// TestSeedFlowSQL runs every step of the Python client's partitioned-tables page
// (../shared/seeds/partitioned-tables.txt) in SQL through database/sql.
func TestSeedFlowSQL(t *testing.T) {
	db, dbName := openTestDB(t)
	mustExec := func(q string, args ...any) sql.Result {
		t.Helper()
		res, err := db.Exec(q, args...)
		require.NoError(t, err, q)
		return res
	}
	mustExec("USE " + dbName) // only this pooled connection; the statements below name the database
	events := dbName + ".partitioned_events"

	// Creating and managing partitions.
	mustExec(`CREATE TABLE IF NOT EXISTS ` + events + ` (id INT, region STRING, value BIGINT)
		PARTITIONED BY (region) WITH ('bucket.num' = '1')`)
	mustExec(`ALTER TABLE ` + events + ` ADD IF NOT EXISTS PARTITION (region = 'US')`)
	mustExec(`ALTER TABLE ` + events + ` ADD IF NOT EXISTS PARTITION (region = 'EU')`)
	mustExec(`ALTER TABLE ` + events + ` ADD IF NOT EXISTS PARTITION (region = 'EU')`) // idempotent
	parts := queryStrings(t, db, "SHOW PARTITIONS "+events)
	require.Len(t, parts, 2)
	names := []string{parts[0][0], parts[1][0]}
	assert.ElementsMatch(t, []string{"region=US", "region=EU"}, names)

	// Writing: partition values in each row.
	res := mustExec(`INSERT INTO `+events+` (id, region, value) VALUES (1, 'US', 100), (?, ?, ?)`, 2, "EU", int64(200))
	n, err := res.RowsAffected()
	require.NoError(t, err)
	assert.Equal(t, int64(2), n)

	// Reading: all partitions, then one.
	all := queryStrings(t, db, "SELECT id, region, value FROM "+events)
	assert.ElementsMatch(t, [][]string{{"1", "US", "100"}, {"2", "EU", "200"}}, all)
	us := queryStrings(t, db, "SELECT id, value FROM "+events+" WHERE region = 'US'")
	assert.Equal(t, [][]string{{"1", "100"}}, us)
	count := queryStrings(t, db, "SELECT COUNT(*) FROM "+events)
	assert.Equal(t, [][]string{{"2"}}, count)

	// A missing partition fails at once and names the statement to run.
	_, err = db.Exec(`INSERT INTO ` + events + ` VALUES (3, 'APAC', 300)`)
	require.Error(t, err)
	assert.ErrorIs(t, err, fluss.ErrPartitionNotExists)
	assert.Contains(t, err.Error(), "ALTER TABLE")
	assert.Contains(t, err.Error(), "region")
	assert.Len(t, queryStrings(t, db, "SELECT * FROM "+events), 2, "nothing of the failed INSERT was written")

	// Partitioned primary-key tables: partition columns are part of the key.
	users := dbName + ".partitioned_users"
	mustExec(`CREATE TABLE ` + users + ` (user_id INT, region STRING, score BIGINT,
		PRIMARY KEY (user_id, region) NOT ENFORCED) PARTITIONED BY (region)`)
	mustExec(`ALTER TABLE ` + users + ` ADD PARTITION (region = 'US')`)
	mustExec(`UPSERT INTO ` + users + ` VALUES (1, 'US', 1234)`)
	got := queryStrings(t, db, "SELECT user_id, region, score FROM "+users+" WHERE user_id = ? AND region = ?", 1, "US")
	assert.Equal(t, [][]string{{"1", "US", "1234"}}, got)
	// INSERT into a primary-key table upserts; the lookup sees the latest value.
	mustExec(`INSERT INTO ` + users + ` VALUES (1, 'US', 4321)`)
	var score int64
	require.NoError(t, db.QueryRow("SELECT score FROM "+users+" WHERE user_id = 1 AND region = 'US'").Scan(&score))
	assert.Equal(t, int64(4321), score)
	missing := queryStrings(t, db, "SELECT * FROM "+users+" WHERE user_id = 2 AND region = 'US'")
	assert.Empty(t, missing, "a missing key is no row, not an error")

	// Unsubscribing from a partition is dropping it from the query: prune by region.
	mustExec(`ALTER TABLE ` + events + ` DROP PARTITION (region = 'EU')`)
	assert.Equal(t, [][]string{{"region=US"}}, firstColumn(queryStrings(t, db, "SHOW PARTITIONS "+events)))
}

func firstColumn(rows [][]string) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r[:1]
	}
	return out
}

// testServerVersion returns the release line of the cluster named by FLUSS_BOOTSTRAP_SERVERS,
// detected from its ApiVersions answers; when the launcher said what it ran
// (FLUSS_SERVER_VERSION), the two must agree. It skips the test when the variable is unset.
func testServerVersion(t *testing.T) fluss.ServerVersion {
	t.Helper()
	addrs := realcluster.Addr(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: strings.Split(addrs, ",")})
	require.NoError(t, err)
	defer c.Close()
	v, err := c.ServerVersion(ctx)
	require.NoError(t, err)
	if launched := os.Getenv("FLUSS_SERVER_VERSION"); launched != "" {
		want, err := fluss.ParseServerVersion(launched)
		require.NoError(t, err)
		require.Equal(t, want, v, "detected from ApiVersions vs FLUSS_SERVER_VERSION=%s", launched)
	}
	return v
}
