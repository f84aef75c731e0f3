package parser

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/parser")

const goldenDir = "../testdata/parser"

// caseSep separates the cases of a .sql golden input.
const caseSep = "\n====\n"

// goldenCases reads the cases of one golden input file.
func goldenCases(t testing.TB, path string) []string {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []string
	for _, c := range strings.Split(string(data), caseSep) {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

// TestGolden parses every case of testdata/parser/*.sql and compares a dump
// of the statement (or the error) with the matching .golden file. Every
// statement that parses must also survive the round trip through its
// canonical SQL.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(goldenDir, "*.sql"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".sql")
		t.Run(name, func(t *testing.T) {
			var b strings.Builder
			for i, sql := range goldenCases(t, file) {
				fmt.Fprintf(&b, "==== %d\n%s\n----\n", i+1, sql)
				st, err := Parse(sql)
				if err != nil {
					var pe *Error
					require.True(t, errors.As(err, &pe), "error %v is not a *parser.Error", err)
					fmt.Fprintf(&b, "error: %v\n  found: %q\n  expected: %q\n", err, pe.Found, pe.Expected)
					continue
				}
				b.WriteString(dump(st))
				p := Placeholders(st)
				if p.Positional > 0 || len(p.Names) > 0 {
					fmt.Fprintf(&b, "params: positional=%d names=%q\n", p.Positional, p.Names)
				}
				canon := st.String()
				fmt.Fprintf(&b, "canonical: %s\n", canon)
				again, err := Parse(canon)
				require.NoError(t, err, "canonical SQL of case %d does not parse: %s", i+1, canon)
				require.Equal(t, st, again, "round trip of case %d changed the statement", i+1)
				require.Equal(t, canon, again.String())
			}
			golden := filepath.Join(goldenDir, name+".golden")
			if *update {
				require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "run go test ./parser -update to create it")
			if got := b.String(); got != string(want) {
				t.Errorf("%s differs from the parser's output (go test ./parser -update rewrites it):\n%s",
					golden, firstDiff(string(want), got))
			}
		})
	}
}

// firstDiff shows the first differing line of two texts with some context.
func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			from := max(0, i-3)
			return fmt.Sprintf("line %d\ncontext:\n%s\nwant: %s\ngot:  %s", i+1,
				strings.Join(g[from:i], "\n"), wl, gl)
		}
	}
	return ""
}

// dump renders a statement as an indented tree of its non-zero fields.
func dump(v any) string {
	var b strings.Builder
	dumpValue(&b, reflect.ValueOf(v), "")
	b.WriteString("\n")
	return b.String()
}

func dumpValue(b *strings.Builder, v reflect.Value, indent string) {
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		if v.Kind() == reflect.Pointer && v.Elem().Kind() != reflect.Struct {
			b.WriteString("&")
		}
		dumpValue(b, v.Elem(), indent)
	case reflect.Struct:
		b.WriteString(v.Type().Name() + "{")
		inner := indent + "  "
		wrote := false
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			// Kind is always shown: its zero value is a real kind (BOOLEAN, int).
			name := v.Type().Field(i).Name
			if !v.Type().Field(i).IsExported() || f.IsZero() && name != "Kind" {
				continue
			}
			wrote = true
			b.WriteString("\n" + inner + v.Type().Field(i).Name + ": ")
			dumpValue(b, f, inner)
		}
		if wrote {
			b.WriteString("\n" + indent)
		}
		b.WriteString("}")
	case reflect.Slice:
		if v.Len() == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[")
		inner := indent + "  "
		for i := 0; i < v.Len(); i++ {
			b.WriteString("\n" + inner)
			dumpValue(b, v.Index(i), inner)
		}
		b.WriteString("\n" + indent + "]")
	case reflect.Map:
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		b.WriteString("{")
		for _, k := range keys {
			fmt.Fprintf(b, "\n%s  %q: %q", indent, k.String(), v.MapIndex(k).String())
		}
		if len(keys) > 0 {
			b.WriteString("\n" + indent)
		}
		b.WriteString("}")
	case reflect.String:
		fmt.Fprintf(b, "%q", v.String())
	default:
		if s, ok := v.Interface().(fmt.Stringer); ok {
			b.WriteString(s.String())
			return
		}
		fmt.Fprintf(b, "%v", v.Interface())
	}
}
