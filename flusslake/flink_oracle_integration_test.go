package flusslake_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/internal/flinkgw"
)

// TestLakeFlinkOracle compares flussql's union reads with Flink's, on the local Flink that
// runs the tiering service (make lake-long, LAKE=iceberg or LAKE=paimon): a
// datalake-enabled log table and a primary-key table, written by flussql, tiered by Fluss,
// then written again, so that the answer spans the lake snapshot and the Fluss log after it.
//
// Fluss 0.9.1's Flink connector sets the oracle's limits. A batch read of a log table
// hangs for good when a bucket had no rows at the snapshot: the bucket's split reads from
// the earliest offset (-2) to its end offset (0), and the reader waits for a record that
// never comes; so every bucket gets rows before the table is tiered (a bucket key). A
// batch read of a primary-key table fails on Iceberg (a NullPointerException in
// SortMergeReader when a bucket has no changes after the snapshot and more than one lake
// file; "lake records must instance of sorted view" when it has changes: Fluss's Iceberg
// reader does not sort by key); so on Iceberg the primary-key table's oracle is Flink's
// streaming union read (the snapshot, then the changelog), materialized, until it settles
// on flussql's answer. On Paimon, Flink's
// batch read of the primary-key table works and is the oracle.
func TestLakeFlinkOracle(t *testing.T) {
	if !longLake(t) {
		t.Skip("FLUSSQL_LAKE_LONG is not set: the Flink oracle of the union read runs in make lake-long")
	}
	gw := os.Getenv("FLUSSQL_FLINK_GATEWAY")
	if gw == "" {
		t.Skip("FLUSSQL_FLINK_GATEWAY is not set: no local Flink (make lake-long starts one)")
	}
	l := newLake(t, "lake_oracle", 3*time.Minute)
	ev, pk := l.dbName+".ev", l.dbName+".pk"
	const opts = `'table.datalake.enabled' = 'true', 'table.datalake.freshness' = '1s'`
	l.exec(`CREATE TABLE ` + ev + ` (id INT, name STRING, v BIGINT) WITH ('bucket.num' = '2', 'bucket.key' = 'id', ` + opts + `)`)
	l.exec(`CREATE TABLE ` + pk + ` (id INT, name STRING, v BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '2', ` + opts + `)`)
	insert := func(from, to int) {
		vals := make([]string, 0, to-from)
		for i := from; i < to; i++ {
			vals = append(vals, fmt.Sprintf("(%d, 'n%d', %d)", i, i, i*3))
		}
		l.exec("INSERT INTO " + ev + " VALUES " + strings.Join(vals, ", "))
	}
	state := pkState{}
	insert(0, 200)
	state.upsert(l, pk, ids(0, 200), func(id int) int64 { return int64(id) * 10 })
	l.waitTiered("ev")
	l.waitTiered("pk")
	insert(200, 260)
	state.upsert(l, pk, ids(0, 30), func(id int) int64 { return int64(id)*10 + 7 })
	state.delete(l, pk, ids(30, 50))
	state.upsert(l, pk, ids(200, 240), func(id int) int64 { return int64(id) })

	fl := l.flinkCatalog(gw)
	fev, fpk := fl.catalog+"."+ev, fl.catalog+"."+pk

	// The log table: Flink's batch union read.
	for _, q := range []string{"SELECT COUNT(*), SUM(v), MIN(id), MAX(id) FROM %s", "SELECT id, name, v FROM %s"} {
		want := sortRows(fl.query(fmt.Sprintf(q, fev), "batch"))
		assert.Equal(t, want, sortRows(l.rows(fmt.Sprintf(q, ev))), "flussql and Flink: %s", q)
	}
	assert.Equal(t, [][]string{{"260"}}, l.rows("SELECT COUNT(*) FROM "+ev))

	// The primary-key table: on Paimon, Flink's batch union read; on Iceberg, Flink's
	// streaming union read settles on flussql's answer.
	for _, q := range []string{"SELECT COUNT(*), SUM(v) FROM %s", "SELECT id, name, v FROM %s"} {
		got := sortRows(l.rows(fmt.Sprintf(q, pk)))
		if l.format == "paimon" {
			assert.Equal(t, sortRows(fl.query(fmt.Sprintf(q, fpk), "batch")), got, "flussql and Flink's batch read: %s", q)
			continue
		}
		settled := settle(t, fl.s, fmt.Sprintf(q, fpk), got, 60*time.Second)
		assert.Equal(t, got, settled, "Flink's streaming union read settles on flussql's answer: %s", q)
	}
	assert.Equal(t, [][]string{state.countSum()}, l.rows("SELECT COUNT(*), SUM(v) FROM "+pk), "and both are the state written")
}

// settle runs a streaming query in Flink and materializes its changelog until it equals want
// or timeout passes; it returns the last materialized result.
func settle(t *testing.T, s *flinkgw.Session, q string, want [][]string, timeout time.Duration) [][]string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	op, err := s.Execute(ctx, q, map[string]string{"execution.runtime-mode": "streaming"})
	require.NoError(t, err, q)
	defer func() {
		cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer ccancel()
		_ = op.Cancel(cctx)
		_ = op.Close(cctx)
	}()
	var changes []flinkgw.Row
	var last [][]string
	start := time.Now()
	for {
		rows, err := op.Next(ctx)
		if err != nil {
			t.Logf("%s: %d changes, stopped after %s: %v", q, len(changes), time.Since(start).Round(time.Millisecond), err)
			return last
		}
		changes = append(changes, rows...)
		last = last[:0]
		for _, r := range flinkgw.Materialize(changes) {
			last = append(last, r.Strings("NULL"))
		}
		last = sortRows(last)
		if slices.EqualFunc(last, want, slices.Equal) {
			t.Logf("%s: settled after %d changes, %s", q, len(changes), time.Since(start).Round(time.Millisecond))
			return last
		}
	}
}

// sortRows sorts rows by their cells, numbers by value.
func sortRows(rows [][]string) [][]string {
	slices.SortFunc(rows, func(a, b []string) int {
		for i := range min(len(a), len(b)) {
			var x, y float64
			_, ex := fmt.Sscan(a[i], &x)
			_, ey := fmt.Sscan(b[i], &y)
			switch {
			case ex == nil && ey == nil && x != y:
				if x < y {
					return -1
				}
				return 1
			case a[i] != b[i]:
				return strings.Compare(a[i], b[i])
			}
		}
		return len(a) - len(b)
	})
	return rows
}

// lakeFlink is a Flink SQL Gateway session with a Fluss catalog over a lake test's cluster.
type lakeFlink struct {
	l       *testLake
	s       *flinkgw.Session
	catalog string
}

// flinkCatalog opens a session at gw and creates the catalog, both dropped at the test's end.
func (l *testLake) flinkCatalog(gw string) *lakeFlink {
	l.t.Helper()
	s, err := flinkgw.New(gw, nil).OpenSession(l.ctx, "flussql-"+l.dbName, nil)
	require.NoError(l.t, err)
	f := &lakeFlink{l: l, s: s, catalog: "lk_" + l.dbName}
	l.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if op, err := s.Execute(ctx, "DROP CATALOG IF EXISTS "+f.catalog, nil); err == nil {
			_, _ = op.All(ctx)
		}
		_ = s.Close(ctx)
	})
	f.query(fmt.Sprintf("CREATE CATALOG %s WITH ('type' = 'fluss', 'bootstrap.servers' = '%s')", f.catalog, strings.Split(realcluster.Addr(l.t), ",")[0]), "batch")
	return f
}

// query runs q in the runtime mode ("batch", "streaming") and returns its rows.
func (f *lakeFlink) query(q, mode string) [][]string {
	t, ctx := f.l.t, f.l.ctx
	t.Helper()
	op, err := f.s.Execute(ctx, q, map[string]string{"execution.runtime-mode": mode})
	require.NoError(t, err, q)
	defer op.Close(context.WithoutCancel(ctx))
	rows, err := op.All(ctx)
	require.NoError(t, err, q)
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = r.Strings("NULL")
	}
	return out
}
