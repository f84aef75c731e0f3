package planner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// TestFunctionExamples runs the example of every scalar function of the registry, "call =
// value", as SELECT (call) = (value) (or IS NULL), through the parser, the planner and the
// engine: the README's table shows what the functions answer.
func TestFunctionExamples(t *testing.T) {
	ran := 0
	for _, d := range engine.Functions() {
		// CARDINALITY's ARRAY[…] is no query expression without FROM.
		if d.Volatile || strings.Contains(d.Example, "…") || d.Name == "CARDINALITY" || d.Kind != engine.ScalarFunc && d.Build == nil {
			continue
		}
		lhs, rhs, ok := strings.Cut(d.Example, " = ")
		require.True(t, ok, "%s: the example %q is not call = value", d.Name, d.Example)
		sql := "SELECT (" + lhs + ") = (" + rhs + ")"
		if rhs == "NULL" {
			sql = "SELECT (" + lhs + ") IS NULL"
		}
		got, err := runScalar(sql)
		if assert.NoError(t, err, "%s: %s", d.Name, sql) {
			assert.Equal(t, true, got, "%s: %s", d.Name, sql)
		}
		ran++
	}
	assert.Greater(t, ran, 50)
}

// runScalar runs a one-row, one-column SELECT without FROM and returns its value.
func runScalar(sql string) (any, error) {
	st, err := parser.Parse(sql)
	if err != nil {
		return nil, err
	}
	p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss", Location: time.UTC})
	if err != nil {
		return nil, err
	}
	q := p.(*Query)
	op, err := engine.Build(context.Background(), q.Root, nil, engine.Options{})
	if err != nil {
		return nil, err
	}
	var out any
	err = engine.Drain(op, func(b arrow.RecordBatch) error {
		if b.NumRows() > 0 && b.Column(0).IsValid(0) {
			if c, ok := b.Column(0).(*array.Boolean); ok {
				out = c.Value(0)
			}
		}
		return nil
	})
	return out, err
}
