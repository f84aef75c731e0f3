package flussql_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/internal/flinkgw"
)

// flinkSession is a gateway session with a Fluss catalog for the cluster under test.
type flinkSession struct {
	s *flinkgw.Session
}

// openFlinkSession opens a session on the gateway at addr and creates in it a Fluss catalog
// "flussql_<dbName>" for the cluster the test runs against; both go when the test ends (the
// local Flink keeps catalogs in a file store, so the catalog is dropped explicitly).
func openFlinkSession(ctx context.Context, t *testing.T, addr, dbName string) *flinkSession {
	t.Helper()
	s, err := flinkgw.New(addr, nil).OpenSession(ctx, "flussql-"+dbName, nil)
	require.NoError(t, err, "opening a session on the Flink SQL Gateway at %s", addr)
	fl := &flinkSession{s: s}
	catalog := "flussql_" + dbName
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if op, err := s.Execute(ctx, "DROP CATALOG IF EXISTS "+catalog, nil); err == nil {
			_, _ = op.All(ctx)
		}
		_ = s.Close(ctx)
	})
	bootstrap := strings.Split(realcluster.Addr(t), ",")[0]
	fl.exec(ctx, t, fmt.Sprintf("CREATE CATALOG %s WITH ('type' = 'fluss', 'bootstrap.servers' = '%s')", catalog, bootstrap), nil)
	return fl
}

// exec runs a statement that must succeed and returns its rows.
func (fl *flinkSession) exec(ctx context.Context, t *testing.T, stmt string, config map[string]string) []flinkgw.Row {
	t.Helper()
	op, err := fl.s.Execute(ctx, stmt, config)
	require.NoError(t, err, stmt)
	defer op.Close(context.WithoutCancel(ctx))
	rows, err := op.All(ctx)
	require.NoError(t, err, stmt)
	return rows
}

// answer runs a query in batch mode and returns its column types and rows.
func (fl *flinkSession) answer(ctx context.Context, q string) (answer, error) {
	return fl.answerWith(ctx, q, nil)
}

// answerWith is answer with more session options for this statement (a time zone, say).
func (fl *flinkSession) answerWith(ctx context.Context, q string, options map[string]string) (answer, error) {
	config := map[string]string{"execution.runtime-mode": "batch", "execution.batch-shuffle-mode": "ALL_EXCHANGES_BLOCKING"}
	for k, v := range options {
		config[k] = v
	}
	op, err := fl.s.Execute(ctx, q, config)
	if err != nil {
		return answer{}, err
	}
	defer op.Close(context.WithoutCancel(ctx))
	rows, err := op.All(ctx)
	if err != nil {
		return answer{}, err
	}
	var a answer
	for _, c := range op.Columns {
		typ := strings.TrimSuffix(c.LogicalType.String(), " NOT NULL")
		a.types = append(a.types, typ)
	}
	for _, r := range rows {
		a.rows = append(a.rows, r.Strings("NULL"))
	}
	return a, nil
}

// streamed is what streamRows read: the columns (name and Flink type) and the rows.
type streamed struct {
	names, types []string
	rows         [][]string
}

// streamRows runs a streaming query and stops it after n rows (a Fluss table read in
// streaming mode never ends on its own), within 2 minutes.
func (fl *flinkSession) streamRows(ctx context.Context, t *testing.T, q string, n int) streamed {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	op, err := fl.s.Execute(ctx, q, map[string]string{"execution.runtime-mode": "streaming"})
	require.NoError(t, err, q)
	// Closing the operation stops its streaming job (Cancel would fail: the operation is
	// FINISHED once the job runs).
	defer op.Close(context.WithoutCancel(ctx))
	var out streamed
	for len(out.rows) < n {
		rows, err := op.Next(ctx)
		require.NoError(t, err, "%s: %d of %d rows read", q, len(out.rows), n)
		for _, r := range rows {
			require.Equal(t, "INSERT", r.Kind, "a log table's rows are inserts")
			out.rows = append(out.rows, r.Strings("NULL"))
		}
	}
	for _, c := range op.Columns {
		out.names = append(out.names, c.Name)
		out.types = append(out.types, strings.TrimSuffix(c.LogicalType.String(), " NOT NULL"))
	}
	return out
}

// valuesView is a CREATE TEMPORARY VIEW of name over VALUES holding the rows, each value a
// CAST to its column's type so that the view has the table's column types.
func valuesView(name string, s streamed) string {
	var rows []string
	for _, r := range s.rows {
		cells := make([]string, len(r))
		for i, v := range r {
			lit := "NULL"
			if v != "NULL" {
				lit = "'" + strings.ReplaceAll(v, "'", "''") + "'"
			}
			cells[i] = fmt.Sprintf("CAST(%s AS %s)", lit, s.types[i])
		}
		rows = append(rows, "("+strings.Join(cells, ", ")+")")
	}
	return fmt.Sprintf("CREATE TEMPORARY VIEW %s AS SELECT * FROM (VALUES %s) AS v(%s)",
		name, strings.Join(rows, ", "), strings.Join(s.names, ", "))
}
