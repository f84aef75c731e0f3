package main

import (
	"context"
	"strings"
	"testing"
	"time"
)

// FuzzScript feeds arbitrary scripts through the shell's input loop (splitting, backslash
// commands, error positions with caret lines) over the fake driver: it must end, never
// panic, and report errors with a position inside the script.
func FuzzScript(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM numbers LIMIT 2;",
		"SELECT * FROM numbers LIMIT 1; SELECT\n FROM x;\n",
		"-- c\n/* open\n", "\\dt\n\\d numbers\n\\x\nSELECT * FROM numbers;",
		"SELECT 'unterminated\n;", "\t日本 FORM x;", "\\c\n\\format csv\nSELECT * FROM numbers;",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script string) {
		upper := strings.ToUpper(script)
		if strings.Contains(upper, "ENDLESS") || strings.Contains(upper, "STALL") {
			t.Skip("the fake driver's unbounded tables never end")
		}
		// Commands that run programs (\!, also spelled through a \set variable), repeat
		// until Ctrl-C (\watch) or write files (\copy, \g file) are fuzzed on their own.
		for _, c := range []string{`\!`, `\SET`, `\WATCH`, `\COPY`, `\G`} {
			if strings.Contains(upper, c) {
				t.Skip("not run on arbitrary input: " + c)
			}
		}
		var out lockedBuffer
		e := fakeEnv(&out, script)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		code := run(ctx, e)
		if code != exitOK && code != exitError {
			t.Fatalf("exit %d:\n%s", code, out.String())
		}
		lines := strings.Count(script, "\n") + 1
		for _, l := range strings.Split(out.String(), "\n") {
			if rest, ok := strings.CutPrefix(l, "<stdin>:"); ok {
				var n int
				for _, r := range rest {
					if r < '0' || r > '9' {
						break
					}
					n = n*10 + int(r-'0')
				}
				if n < 1 || n > lines {
					t.Fatalf("error line %d outside the script's %d lines: %q", n, lines, l)
				}
			}
		}
	})
}

// FuzzCodeStart: the first code position is always inside the text.
func FuzzCodeStart(f *testing.F) {
	f.Add("-- a\n /* b */ SELECT")
	f.Fuzz(func(t *testing.T, text string) {
		line, col := codeStart(text)
		if line < 1 || col < 1 || line > strings.Count(text, "\n")+1 {
			t.Fatalf("codeStart(%q) = %d:%d", text, line, col)
		}
	})
}

// FuzzParseCopy: \copy's argument parser never panics, and what it accepts names a table
// or a query and a known format.
func FuzzParseCopy(f *testing.F) {
	for _, s := range []string{
		`t FROM 'a.csv' (FORMAT csv, HEADER, DELIMITER ';')`, `(SELECT ')' FROM t) TO 'x.parquet'`,
		`t TO x.json WITH (HEADER false)`, `(`, `t FROM ''''`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args string) {
		c, err := parseCopy(args)
		if err != nil {
			return
		}
		if c.table == "" && c.query == "" || c.format != copyCSV && c.format != copyParquet && c.format != copyJSON {
			t.Fatalf("parseCopy(%q) = %+v", args, c)
		}
	})
}

// FuzzCSVRecords: the CSV reader never panics, and a record written with the CSV writer's
// quoting reads back as the same fields, an empty string told apart from NULL.
func FuzzCSVRecords(f *testing.F) {
	f.Add("a,\"b\"\"c\"\n\"multi\nline\",", "x\x00y", "")
	f.Fuzz(func(t *testing.T, text, a, b string) {
		r := newCSVRecords(strings.NewReader(text), ',')
		for i := 0; i < 1000; i++ {
			if _, _, _, err := r.next(); err != nil {
				break
			}
		}
		if strings.ContainsRune(a+b, '\r') {
			return // a CR before a LF inside a quoted field reads as a line ending
		}
		w := &csvFileWriter{delim: ","}
		line := w.field(a) + "," + w.field(b) + "\n"
		got, quoted, _, err := newCSVRecords(strings.NewReader(line), ',').next()
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if len(got) != 2 || got[0] != a || got[1] != b {
			t.Fatalf("%q read back as %q", line, got)
		}
		for i, v := range []string{a, b} {
			if v == "" && !quoted[i] {
				t.Fatalf("an empty string came back as NULL from %q", line)
			}
		}
	})
}

// FuzzInterpolate: with no variables set, interpolation leaves every line as it is.
func FuzzInterpolate(f *testing.F) {
	f.Add("SELECT :a, ':b', x::INT -- :c")
	f.Fuzz(func(t *testing.T, line string) {
		s := &shell{}
		if got := s.interpolate(line, &interpolation{}); got != line {
			t.Fatalf("interpolate(%q) = %q", line, got)
		}
		s.vars = map[string]string{"a": "1"}
		_ = s.interpolate(line, &interpolation{})
	})
}
