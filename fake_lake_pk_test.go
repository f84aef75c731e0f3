package flussql_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest"
)

// lakePKFixture is a fake (Fluss 0.9: no KV scan) with a one-bucket datalake-enabled
// primary-key table pk (id BIGINT, v INT) whose lake holds ids 0..9 with
// v = id*10, tiered up to changelog offset 10 (snapshot 7), and whose changelog after that
// updates id 3 to 333, deletes id 5, inserts id 20 and updates it to 201, and updates id 7
// to 70000 and back to 70: the table is ids 0..9 but 5, and 20, with id 3's v 333 and id
// 20's v 201.
func lakePKFixture(t *testing.T, dsn string) (*memLake, func(q string) [][]string, func(q string) error) {
	t.Helper()
	lake := &memLake{rows: 10}
	// The format must be one whose keys the client can encode; flusslake, which registers
	// the real Iceberg reader, is not in this module's tests.
	fluss.RegisterLakeFormat("iceberg", lake)
	db, fc := openFake(t, dsn)
	fc.ServeLakeSnapshots(func(_, table string) (flusstest.LakeSnapshot, bool) {
		return flusstest.LakeSnapshot{SnapshotID: 7, Offsets: map[int32]int64{0: 10}}, table == "pk"
	})
	var vals []string
	for i := range 10 {
		vals = append(vals, fmt.Sprintf("(%d, %d)", i, i*10))
	}
	mustExec(t, db, "CREATE TABLE pk (id BIGINT, v INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1', 'table.datalake.enabled' = 'true', 'table.datalake.format' = 'iceberg')",
		"UPSERT INTO pk VALUES "+strings.Join(vals, ", "),
		"UPSERT INTO pk VALUES (3, 333)",
		"DELETE FROM pk WHERE id = 5",
		"UPSERT INTO pk VALUES (20, 200)",
		"UPSERT INTO pk VALUES (20, 201)",
		"UPSERT INTO pk VALUES (7, 70000)",
		"UPSERT INTO pk VALUES (7, 70)")
	query := func(q string) [][]string { t.Helper(); return queryStrings(t, db, q) }
	run := func(q string) error {
		rows, err := db.Query(q)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
		}
		return rows.Err()
	}
	return lake, query, run
}

// TestFakeLakePrimaryKeyUnionRead: on a server without KV scan, a whole-table read of a
// datalake-enabled primary-key table is the lake snapshot merged by key with the changelog
// after the snapshot's offset: the latest change of a key wins, deleted keys are gone,
// keys inserted after the snapshot are there, whatever the query does on top; a WHERE
// that the lake row of a key passes and its latest change fails drops the key.
func TestFakeLakePrimaryKeyUnionRead(t *testing.T) {
	lake, query, _ := lakePKFixture(t, "")
	for _, tt := range []struct {
		query string
		want  [][]string
	}{
		{"SELECT COUNT(*), SUM(v), MIN(id), MAX(id) FROM pk", [][]string{{"10", fmt.Sprint(450 - 30 - 50 + 333 + 201), "0", "20"}}},
		{"SELECT COUNT(*) FROM pk", [][]string{{"10"}}},
		{"SELECT id, v FROM pk WHERE id IN (3, 5, 7, 20) OR v > 300 ORDER BY id", [][]string{{"3", "333"}, {"7", "70"}, {"20", "201"}}},
		{"SELECT id FROM pk WHERE v = 30", nil},
		{"SELECT id FROM pk WHERE v >= 60 AND v < 100 ORDER BY id", [][]string{{"6"}, {"7"}, {"8"}, {"9"}}},
		{"SELECT v FROM pk ORDER BY v DESC LIMIT 2", [][]string{{"333"}, {"201"}}},
		{"SELECT COUNT(*) FROM pk a JOIN pk b ON a.id = b.id", [][]string{{"10"}}},
		{"SELECT COUNT(*), SUM(v) FROM `pk$lake`", [][]string{{"10", "450"}}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			assert.Equal(t, tt.want, query(tt.query))
		})
	}
	all := query("SELECT * FROM pk")
	require.Len(t, all, 10)
	assert.ElementsMatch(t, [][]string{{"0", "0"}, {"1", "10"}, {"2", "20"}, {"3", "333"}, {"4", "40"}, {"6", "60"}, {"7", "70"}, {"8", "80"}, {"9", "90"}, {"20", "201"}}, all)

	lake.asked = nil
	query("SELECT v FROM pk WHERE v > 15")
	require.NotEmpty(t, lake.asked)
	assert.Equal(t, []int{0, 1}, lake.asked[0].Columns, "the lake read holds the primary key, which the merge needs")
	require.NotNil(t, lake.asked[0].Filter, "the WHERE goes to the lake's planning")

	explain := strings.Join(flat(query("EXPLAIN SELECT COUNT(*) FROM pk")), "\n")
	assert.Contains(t, explain, "merged by primary key")
	assert.Contains(t, explain, "iceberg snapshot 7")
	assert.Contains(t, explain, "bucket 0 from 10")

	// A point lookup stays a lookup; a plain LIMIT a limit scan (the current rows).
	assert.Equal(t, [][]string{{"333"}}, query("SELECT v FROM pk WHERE id = 3"))
	assert.NotContains(t, strings.Join(flat(query("EXPLAIN SELECT * FROM pk LIMIT 3")), "\n"), "union read")
	assert.Len(t, query("SELECT * FROM pk LIMIT 3"), 3)
}

// TestFakeLakePrimaryKeyMemory: the changed keys the merge holds count in query_memory.
func TestFakeLakePrimaryKeyMemory(t *testing.T) {
	_, _, run := lakePKFixture(t, "query_memory=200")
	err := run("SELECT COUNT(*) FROM pk")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "union read's changed keys")
	assert.Contains(t, err.Error(), "query_memory")
}

// flat joins the rows of one column.
func flat(rows [][]string) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.Join(r, " ")
	}
	return out
}
