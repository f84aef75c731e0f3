package planner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// TestWindowQueriesRun runs every single-input Query of
// testdata/planner/window.sql over sample rows: the engine checks each
// operator's output against the column types the plan gave it, so a window
// column read at the wrong index fails here.
func TestWindowQueriesRun(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(goldenDir, "window.sql"))
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
		if !ok || len(q.Inputs) > 1 {
			continue
		}
		var windows int
		var walk func(n engine.Node)
		walk = func(n engine.Node) {
			if _, ok := n.(*engine.Window); ok {
				windows++
			}
			for _, k := range n.Inputs() {
				walk(k)
			}
		}
		walk(q.Root)
		require.Positive(t, windows, c)
		rows, err := queryRows(q)
		require.NoError(t, err, c)
		require.NotNil(t, rows, c)
		ran++
	}
	require.Greater(t, ran, 15)
}
