package planner

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// FuzzBuild plans and binds arbitrary statements: any input is an error or
// a plan, never a panic, and plans evaluate their filters on sample rows.
func FuzzBuild(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.sql"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range strings.Split(string(data), "\n====\n") {
			f.Add(c, int64(1), "US")
		}
	}
	cat := testCatalog()
	sample := []any{int64(1), "US", fluss.Date(19723), int32(3), []byte("x")}
	f.Fuzz(func(t *testing.T, sql string, n int64, s string) {
		st, err := parser.Parse(sql)
		if err != nil {
			return
		}
		p, err := Build(context.Background(), st, cat, Session{Database: "fluss", Location: time.UTC})
		if err != nil {
			return
		}
		_ = p.String()
		ph := parser.Placeholders(st)
		var args []Arg
		for i := range ph.Positional {
			var v any = n
			switch i % 3 {
			case 1:
				v = s
			case 2:
				v = nil
			}
			args = append(args, Arg{Ordinal: i + 1, Value: v})
		}
		for i, name := range ph.Names {
			args = append(args, Arg{Ordinal: i + 1, Name: name, Value: s})
		}
		bp, err := Bind(p, args)
		if err != nil {
			return
		}
		_ = bp.String()
		var out *Output
		switch x := bp.(type) {
		case *Scan:
			out = &x.Output
		case *Lookup:
			out = &x.Output
		case *PrefixLookup:
			out = &x.Output
		case *LimitScan:
			out = &x.Output
		}
		if out != nil {
			row := make([]any, 32)
			copy(row, sample)
			res := out.Begin()
			_, _ = res.Add(row)
			_, _ = res.Add(make([]any, 32))
			_ = res.Finish()
		}
	})
}

// FuzzMatchLike checks LIKE against a regular expression built from the
// pattern.
func FuzzMatchLike(f *testing.F) {
	f.Add("hello", "h%o")
	f.Add("abab", "%ab%ab")
	f.Add("héllo", "h_llo")
	f.Add("", "%_%")
	f.Fuzz(func(t *testing.T, s, p string) {
		if len(s) > 64 || len(p) > 16 {
			return
		}
		var re strings.Builder
		re.WriteString(`(?s)\A`)
		for _, r := range p {
			switch r {
			case '%':
				re.WriteString(`.*`)
			case '_':
				re.WriteString(`.`)
			default:
				re.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		re.WriteString(`\z`)
		want := regexp.MustCompile(re.String()).MatchString(s)
		if got := matchLike(s, p); got != want {
			t.Fatalf("%q LIKE %q = %v, want %v", s, p, got, want)
		}
	})
}
