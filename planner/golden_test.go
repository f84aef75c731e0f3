package planner

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/parser"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/planner")

const goldenDir = "../testdata/planner"

// TestGolden plans every case of testdata/planner/*.sql against the test
// catalog and compares the EXPLAIN text (or the error) with the .golden
// file. Cases are separated by a line "====". Directives in SQL comments:
//
//	-- bind: 1, 'US', NULL, :name=2   bind these arguments and print the result
//	-- database: none                 plan without a current database
//	-- server: kvscan                 the server offers SCAN_KV (Session.KvScan)
//
// A case the parser refuses prints the parse error. Query plans also print their result columns; DESCRIBE and SHOW CREATE
// TABLE print their rows.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.sql"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sql")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			var b strings.Builder
			for i, c := range strings.Split(string(data), "\n====\n") {
				if c = strings.TrimSpace(c); c != "" {
					fmt.Fprintf(&b, "==== %d\n%s\n----\n%s", i+1, c, runCase(t, c))
				}
			}
			golden := filepath.Join(goldenDir, name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./planner -update to create it")
			if got := b.String(); got != string(want) {
				t.Errorf("%s differs (go test ./planner -update rewrites it):\n%s", golden, firstDiff(string(want), got))
			}
		})
	}
}

func runCase(t *testing.T, c string) string {
	sess := Session{Database: "fluss", Location: time.UTC}
	var binds [][]Arg
	for _, line := range strings.Split(c, "\n") {
		line = strings.TrimSpace(line)
		if v, ok := strings.CutPrefix(line, "-- bind:"); ok {
			args, err := parseArgs(strings.TrimSpace(v))
			require.NoError(t, err, line)
			binds = append(binds, args)
		}
		if v, ok := strings.CutPrefix(line, "-- database:"); ok && strings.TrimSpace(v) == "none" {
			sess.Database = ""
		}
		if v, ok := strings.CutPrefix(line, "-- server:"); ok && strings.TrimSpace(v) == "kvscan" {
			sess.KvScan = true
		}
	}
	st, err := parser.Parse(c)
	if err != nil {
		return "parse error: " + err.Error() + "\n"
	}
	p, err := Build(context.Background(), st, testCatalog(), sess)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	if _, rows := p.(QueryPlan); rows != parser.ReturnsRows(st) {
		// The shell decides by the statement (parser.ReturnsRows), the driver by the plan.
		return fmt.Sprintf("MISMATCH: parser.ReturnsRows = %v but the plan %T returns rows = %v\n", parser.ReturnsRows(st), p, rows)
	}
	out := describePlan(p)
	for _, args := range binds {
		out += "---- bind " + formatArgs(args) + "\n"
		bp, err := Bind(p, args)
		if err != nil {
			out += "error: " + err.Error() + "\n"
			continue
		}
		out += describePlan(bp)
	}
	return out
}

// describePlan is the plan's EXPLAIN text plus what the driver sees.
func describePlan(p Plan) string {
	out := p.String()
	if q, ok := p.(QueryPlan); ok {
		var cols []string
		for _, c := range q.ResultColumns() {
			cols = append(cols, parser.QuoteIdent(c.Name)+" "+c.Type.String())
		}
		out += "result: " + strings.Join(cols, ", ") + "\n"
	}
	var rows [][]any
	switch r := p.(type) {
	case *Describe:
		rows = r.Rows()
	case *ShowCreateTable:
		rows = r.Rows()
	}
	for _, row := range rows {
		parts := make([]string, len(row))
		for i, v := range row {
			parts[i] = FormatValue(v)
		}
		out += "row: " + strings.Join(parts, " | ") + "\n"
	}
	return out
}

// parseArgs reads a bind directive: comma-separated integers, floats,
// 'strings', NULL, TRUE, FALSE or time:RFC3339, each optionally :name=.
func parseArgs(s string) ([]Arg, error) {
	var args []Arg
	for s != "" {
		a := Arg{Ordinal: len(args) + 1}
		if strings.HasPrefix(s, ":") {
			name, rest, ok := strings.Cut(s[1:], "=")
			if !ok {
				return nil, fmt.Errorf("bad named argument %q", s)
			}
			a.Name, s = name, rest
		}
		var tok string
		if strings.HasPrefix(s, "'") {
			end := strings.Index(s[1:], "'")
			if end < 0 {
				return nil, fmt.Errorf("unterminated string in %q", s)
			}
			a.Value, s = s[1:end+1], s[end+2:]
		} else {
			tok, s, _ = strings.Cut(s, ",")
			tok = strings.TrimSpace(tok)
			switch {
			case strings.EqualFold(tok, "NULL"):
				a.Value = nil
			case strings.EqualFold(tok, "TRUE"), strings.EqualFold(tok, "FALSE"):
				a.Value = strings.EqualFold(tok, "TRUE")
			case strings.HasPrefix(tok, "time:"):
				ts, err := time.Parse(time.RFC3339Nano, tok[5:])
				if err != nil {
					return nil, err
				}
				a.Value = ts
			default:
				if n, err := strconv.ParseInt(tok, 10, 64); err == nil {
					a.Value = n
				} else if f, err := strconv.ParseFloat(tok, 64); err == nil {
					a.Value = f
				} else {
					return nil, fmt.Errorf("bad argument %q", tok)
				}
			}
		}
		args = append(args, a)
		s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), ","))
	}
	return args, nil
}

func formatArgs(args []Arg) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = fmt.Sprintf("%T %s", a.Value, FormatValue(a.Value))
		if a.Name != "" {
			parts[i] = ":" + a.Name + "=" + parts[i]
		}
	}
	return strings.Join(parts, ", ")
}

// firstDiff shows the first line where want and got differ.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\n  want: %s\n  got:  %s", i+1, wl, gl)
		}
	}
	return "(no difference)"
}
