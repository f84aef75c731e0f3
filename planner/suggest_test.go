package planner

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/parser"
)

// listingCatalog is the test catalog with name listing, as AdminCatalog has.
type listingCatalog struct{ *memCatalog }

func (c listingCatalog) ListDatabases(context.Context) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for p := range c.tables {
		if !seen[p.Database] {
			seen[p.Database] = true
			out = append(out, p.Database)
		}
	}
	return out, nil
}

func (c listingCatalog) ListTables(_ context.Context, db string) ([]string, error) {
	var out []string
	for p := range c.tables {
		if p.Database == db {
			out = append(out, p.Table)
		}
	}
	if out == nil {
		return nil, &fluss.Error{Code: flusserr.DatabaseNotExist}
	}
	return out, nil
}

func TestMissingTableSuggestions(t *testing.T) {
	cat := listingCatalog{testCatalog()}
	for _, tc := range []struct{ sql, want string }{
		{"SELECT * FROM log", "table fluss.log does not exist (did you mean logs?)"},
		{"SELECT * FROM LOGS", "table fluss.LOGS does not exist (did you mean logs?)"},
		{"INSERT INTO lgs VALUES (1)", "table fluss.lgs does not exist (did you mean logs?)"},
		{"SELECT * FROM zzzzzz", "table fluss.zzzzzz does not exist"},
		{"SELECT * FROM flus.logs", "table flus.logs does not exist: there is no database flus (did you mean fluss?)"},
		{"SELECT * FROM nodb_at_all.logs", "table nodb_at_all.logs does not exist: there is no database nodb_at_all (SHOW DATABASES lists them)"},
	} {
		t.Run(tc.sql, func(t *testing.T) {
			st, err := parser.Parse(tc.sql)
			require.NoError(t, err)
			_, err = Build(context.Background(), st, cat, Session{Database: "fluss"})
			require.EqualError(t, err, tc.want)
			assert.True(t, errors.Is(err, fluss.ErrTableNotExist), "still matches the sentinel")
		})
	}
}

func TestClosestNames(t *testing.T) {
	names := []string{"orders", "order_items", "customers", "Orders2", "events", "my table"}
	for _, tc := range []struct {
		want string
		got  []string
	}{
		{"orders", []string{"orders", "Orders2"}},
		{"order", []string{"orders", "Orders2", "order_items"}},
		{"ordrs", []string{"orders"}},
		{"customer", []string{"customers"}},
		{"xyz", nil},
		{"mytable", []string{"my table"}},
		{"ev", []string{}},
	} {
		got := closestNames(tc.want, names)
		if len(tc.got) == 0 {
			assert.Empty(t, got, tc.want)
			continue
		}
		assert.Equal(t, tc.got, got, tc.want)
	}
	assert.Equal(t, "`my table`", suggestionText([]string{"my table"}))
	assert.Equal(t, "a, b or `c d`", suggestionText([]string{"a", "b", "c d"}))
}
