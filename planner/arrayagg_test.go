package planner

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// TestArrayAggNullTreatment runs ARRAY_AGG with RESPECT NULLS (the default), IGNORE NULLS
// and DISTINCT, and ARRAY[…] over a derived table's column, through parser, planner and engine.
func TestArrayAggNullTreatment(t *testing.T) {
	const rows = "FROM (VALUES (1), (NULL), (2), (1)) AS v(x)"
	for _, tc := range []struct{ sql, want string }{
		{"SELECT ARRAY_AGG(x) " + rows, "[[1 (null) 2 1]]"},
		{"SELECT ARRAY_AGG(x RESPECT NULLS) " + rows, "[[1 (null) 2 1]]"},
		{"SELECT ARRAY_AGG(x IGNORE NULLS) " + rows, "[[1 2 1]]"},
		{"SELECT ARRAY_AGG(DISTINCT x) " + rows, "[[1 (null) 2]]"},
		{"SELECT ARRAY_AGG(DISTINCT x IGNORE NULLS) " + rows, "[[1 2]]"},
		{"SELECT ARRAY_AGG(x IGNORE NULLS) FROM (VALUES (CAST(NULL AS INT))) AS v(x)", "[(null)]"},
		{"SELECT ARRAY[x, x + 1][2] " + rows, "[2][(null)][3][2]"},
	} {
		st, err := parser.Parse(tc.sql)
		require.NoError(t, err, tc.sql)
		p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss", Location: time.UTC})
		require.NoError(t, err, tc.sql)
		op, err := engine.Build(context.Background(), p.(*Query).Root, nil, engine.Options{})
		require.NoError(t, err, tc.sql)
		var got string
		require.NoError(t, engine.Drain(op, func(b arrow.RecordBatch) error { got += b.Column(0).String(); return nil }))
		assert.Equal(t, tc.want, got, tc.sql)
	}
}
