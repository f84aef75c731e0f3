package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/parser"
)

// completionShell is a shell whose catalog answers from fixed names and counts its queries.
func completionShell(queries map[string]int) *shell {
	answers := map[string][]string{
		"SHOW DATABASES":               {"fluss", "analytics"},
		"SHOW TABLES FROM `fluss`":     {"orders", "order_items", "users"},
		"SHOW TABLES FROM `analytics`": {"events"},
		"DESCRIBE orders":              {"order_id", "amount", "user_id", "region"},
		"DESCRIBE users":               {"user_id", "name"},
		"DESCRIBE analytics.events":    {"event_id", "kind"},
	}
	s := &shell{database: "fluss"}
	s.catalog = newCatalog(func(_ context.Context, q string) ([]string, error) {
		queries[q]++
		return answers[q], nil
	})
	return s
}

func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		name, typed string
		line        string // | marks the cursor, else it is at the end
		want        []string
		head, tail  string
	}{
		{name: "keyword", line: "SEL", want: []string{"SELECT "}},
		{name: "keyword in lower case", line: "sel", want: []string{"select "}},
		{name: "keywords with a common start", line: "SELECT * FROM orders WHERE a IS NOT NU", want: []string{"NULL", "NULLIF"}, head: "SELECT * FROM orders WHERE a IS NOT "},
		{name: "table after FROM", line: "SELECT * FROM us", want: []string{"users "}, head: "SELECT * FROM "},
		{name: "tables and databases after FROM", line: "SELECT * FROM ", want: []string{"analytics.", "fluss.", "order_items", "orders", "users"}, head: "SELECT * FROM "},
		{name: "several tables", line: "INSERT INTO ord", want: []string{"orders", "order_items"}, head: "INSERT INTO "},
		{name: "table of another database", line: "SELECT * FROM analytics.ev", want: []string{"analytics.events "}, head: "SELECT * FROM "},
		{name: "columns of the table named", line: "SELECT ord| FROM orders", want: []string{"order", "order_id"}, head: "SELECT ", tail: " FROM orders"},
		{name: "columns of a qualified table", line: "SELECT ev| FROM analytics.events", want: []string{"event_id "}, head: "SELECT ", tail: " FROM analytics.events"},
		{name: "a column before the functions of the same start", line: "SELECT * FROM orders WHERE reg", want: []string{"region "}, head: "SELECT * FROM orders WHERE "},
		{name: "a function where no column matches", line: "SELECT * FROM orders WHERE regexp_r", want: []string{"regexp_replace "}, head: "SELECT * FROM orders WHERE "},
		{name: "columns in WHERE", line: "SELECT * FROM orders JOIN users ON user", want: []string{"user_id "}, head: "SELECT * FROM orders JOIN users ON "},
		{name: "columns of a statement over lines", typed: "SELECT *\nFROM users\n", line: "WHERE na", want: []string{"name "}, head: "WHERE "},
		{name: "database after USE", line: "USE ana", want: []string{"analytics "}, head: "USE "},
		{name: "database after SHOW TABLES FROM", line: "SHOW TABLES FROM f", want: []string{"fluss "}, head: "SHOW TABLES FROM "},
		{name: "backslash command", line: `\con`, want: []string{`\conninfo `}},
		{name: "ACL statements (and the function ACOS: keywords are not filtered by position)", line: "SHOW AC", want: []string{"ACL", "ACLS", "ACOS", "ACTIVE"}, head: "SHOW "},
		{name: "backslash commands", line: `\d`, want: []string{`\dt`, `\d`, `\d+`, `\dp`, `\dA`}},
		{name: "new backslash commands", line: `\w`, want: []string{`\watch `}},
		{name: "table after \\d+", line: `\d+ us`, want: []string{"users "}, head: `\d+ `},
		{name: "table after \\copy", line: `\copy us`, want: []string{"users "}, head: `\copy `},
		{name: "direction after \\copy t", line: `\copy users F`, want: []string{"FROM "}, head: `\copy users `},
		{name: "copy options", line: `\copy users FROM 'x.csv' (FORMAT par`, want: []string{"parquet "}, head: `\copy users FROM 'x.csv' (FORMAT `},
		{name: "statement after \\h", line: `\h CREATE T`, want: []string{"TABLE "}, head: `\h CREATE `},
		{name: "first words after \\h", line: `\h DR`, want: []string{"DROP "}, head: `\h `},
		{name: "x auto", line: `\x a`, want: []string{"auto "}, head: `\x `},
		{name: "table after \\d", line: `\d ord`, want: []string{"orders", "order_items"}, head: `\d `},
		{name: "database after \\c", line: `\c an`, want: []string{"analytics "}, head: `\c `},
		{name: "pager setting", line: `\pset pager of`, want: []string{"off "}, head: `\pset pager `},
		{name: "text after the cursor stays", line: "SELECT * FROM us| WHERE 1", want: []string{"users "}, head: "SELECT * FROM ", tail: " WHERE 1"},
		{name: "text that is not ASCII before the cursor", line: "SELECT 'é…', na| FROM users", want: []string{"name "}, head: "SELECT 'é…', ", tail: " FROM users"},
		{name: "nothing", line: "SELECT zzz", head: "SELECT "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := completionShell(map[string]int{})
			s.typed = tc.typed
			line, pos := tc.line, utf8.RuneCountInString(tc.line) // the line editor counts runes
			if i := strings.IndexByte(line, '|'); i >= 0 {
				line, pos = line[:i]+line[i+1:], utf8.RuneCountInString(line[:i])
			}
			head, got, tail := s.complete(line, pos)
			assert.Equal(t, tc.head, head)
			assert.ElementsMatch(t, tc.want, got)
			assert.Equal(t, tc.tail, tail)
		})
	}
}

func TestCompleteFile(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "script.sql"), nil, 0o644))
	s := completionShell(map[string]int{})
	line := `\i ` + filepath.Join(dir, "scr")
	head, got, _ := s.complete(line, len(line))
	assert.Equal(t, `\i `, head)
	assert.Equal(t, []string{filepath.Join(dir, "script.sql") + " "}, got)
}

// The catalog is fetched once per session and again after DDL.
func TestCatalogCache(t *testing.T) {
	queries := map[string]int{}
	s := completionShell(queries)
	for range 3 {
		s.complete("SELECT * FROM o", len("SELECT * FROM o"))
		s.complete("SELECT am FROM orders", len("SELECT am")) // columns: the table is after the cursor
	}
	assert.Equal(t, map[string]int{"SHOW TABLES FROM `fluss`": 1, "SHOW DATABASES": 1, "DESCRIBE orders": 1}, queries)

	st, err := parser.Parse("CREATE TABLE t2 (a INT)")
	require.NoError(t, err)
	require.True(t, changesCatalog(st))
	s.catalog.reset()
	s.complete("SELECT * FROM o", len("SELECT * FROM o"))
	assert.Equal(t, 2, queries["SHOW TABLES FROM `fluss`"], "fetched again after DDL")

	st, err = parser.Parse("SELECT * FROM t2")
	require.NoError(t, err)
	assert.False(t, changesCatalog(st))
}
