package planner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// TestGoldenQueriesRun runs every Query of testdata/planner/query.sql over sample rows
// (see runQuery) and expects each to produce its result without an error.
func TestGoldenQueriesRun(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(goldenDir, "query.sql"))
	require.NoError(t, err)
	ran := 0
	for _, c := range strings.Split(string(data), "\n====\n") {
		st, err := parser.Parse(c)
		if err != nil {
			continue
		}
		p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss", Location: time.UTC})
		if err != nil {
			continue
		}
		var args []Arg
		for i := range parser.Placeholders(st).Positional {
			args = append(args, Arg{Ordinal: i + 1, Value: int64(2)})
		}
		bp, err := Bind(p, args)
		require.NoError(t, err, c)
		q, ok := bp.(*Query)
		if !ok {
			continue
		}
		rows, err := queryRows(q)
		require.NoError(t, err, c)
		require.NotNil(t, rows, c)
		ran++
	}
	require.Greater(t, ran, 20)
}

// queryRows is runQuery returning the number of result rows.
func queryRows(q *Query) (*int, error) {
	var input engine.Operator
	if in := queryInput(q.Root); in != nil {
		rec, err := sampleBatch(in)
		if err != nil {
			return nil, err
		}
		input = &oneBatch{rec: rec}
	}
	op, err := engine.Build(context.Background(), q.Root, input, engine.Options{})
	if err != nil {
		return nil, err
	}
	n := 0
	err = engine.Drain(op, func(b arrow.RecordBatch) error { n += int(b.NumRows()); return nil })
	return &n, err
}
