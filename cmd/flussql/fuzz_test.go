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
