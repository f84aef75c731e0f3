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

// TestSubqueryLimitPlaceholder binds placeholders in a subquery's LIMIT and OFFSET: each
// Bind puts its own arguments into the subquery's TopN (or limit scan) and leaves the
// built plan, which a statement cache reuses, untouched.
func TestSubqueryLimitPlaceholder(t *testing.T) {
	build := func(sql string) Plan {
		st, err := parser.Parse(sql)
		require.NoError(t, err)
		p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss", Location: time.UTC})
		require.NoError(t, err)
		return p
	}
	args := func(vs ...any) []Arg {
		var out []Arg
		for i, v := range vs {
			out = append(out, Arg{Ordinal: i + 1, Value: v})
		}
		return out
	}
	findSort := func(n engine.Node) *engine.Sort {
		for n != nil {
			if s, ok := n.(*engine.Sort); ok {
				return s
			}
			kids := n.Inputs()
			if len(kids) == 0 {
				return nil
			}
			n = kids[0]
		}
		return nil
	}
	p := build(`SELECT x.id FROM (SELECT id FROM logs ORDER BY id DESC LIMIT ? OFFSET ?) AS x WHERE x.id > ?`)
	for _, tc := range []struct{ limit, offset int64 }{{3, 1}, {10, 0}} {
		bp, err := Bind(p, args(tc.limit, tc.offset, int64(0)))
		require.NoError(t, err)
		s := findSort(bp.(*Query).Root)
		require.NotNil(t, s)
		require.Nil(t, s.Pending)
		require.Equal(t, tc.limit, s.Limit)
		require.Equal(t, tc.offset, s.Offset)
	}
	require.NotNil(t, findSort(p.(*Query).Root).Pending, "the built plan keeps its placeholders")
	_, err := Bind(p, args(int64(-1), int64(0), int64(0)))
	require.ErrorContains(t, err, "LIMIT of a subquery")
	_, err = engine.Build(context.Background(), p.(*Query).Root, nil, engine.Options{})
	require.ErrorContains(t, err, "placeholder was not bound")

	// A primary-key table read with a limit scan reads LIMIT + OFFSET rows of each bucket.
	p = build(`SELECT * FROM (SELECT user_id FROM users LIMIT ? OFFSET ?) AS u`)
	bp, err := Bind(p, args(int64(4), int64(2)))
	require.NoError(t, err)
	ls, ok := bp.(*Query).Inputs[0].(*LimitScan)
	require.True(t, ok, "%T", bp.(*Query).Inputs[0])
	require.Equal(t, int64(6), ls.Limit)
}
