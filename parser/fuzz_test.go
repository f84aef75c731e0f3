package parser

import (
	"errors"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

// FuzzParse checks that no input panics, that every error is a well-formed
// *Error, that every statement survives the round trip through its
// canonical SQL, and that Split returns pieces of the input.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.sql"))
	for _, file := range files {
		for _, c := range goldenCases(f, file) {
			f.Add(c)
		}
	}
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sql string) {
		st, err := Parse(sql)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("%q: error %v is not a *parser.Error", sql, err)
			}
			if pe.Line < 1 || pe.Column < 1 || pe.Offset < 0 || pe.Offset > len(sql) || pe.Found == "" {
				t.Fatalf("%q: malformed error %+v", sql, pe)
			}
		} else {
			canon := st.String()
			again, err := Parse(canon)
			if err != nil {
				t.Fatalf("%q: canonical %q does not parse: %v", sql, canon, err)
			}
			if again.String() != canon {
				t.Fatalf("%q: round trip changed %q into %q", sql, canon, again.String())
			}
		}
		for _, p := range Split(sql) {
			if p.Offset < 0 || p.Offset+len(p.Text) > len(sql) || sql[p.Offset:p.Offset+len(p.Text)] != p.Text {
				t.Fatalf("%q: piece %+v is not part of the input", sql, p)
			}
			if p.Line < 1 || p.Column < 1 || utf8.ValidString(sql) && p.Column > utf8.RuneCountInString(sql)+1 {
				t.Fatalf("%q: piece %+v has a bad position", sql, p)
			}
		}
	})
}

// fuzzSeeds are extra inputs, among them crashers found by earlier runs.
var fuzzSeeds = []string{
	// A scalar subquery after a comma that is not a FROM list's; x[i].f; UNNEST and LATERAL.
	"SELECT COALESCE(a, (SELECT MAX(b) FROM t2)), MAP['m', (SELECT 1)] FROM t, (SELECT 1) AS s",
	"SELECT a[1].f, m['k'][2].`g`.h, f(x)[1].key FROM t WHERE a[1].f[2].g = 1",
	"SELECT x FROM t CROSS JOIN UNNEST(a) AS u(x), LATERAL (SELECT 1)",
	// CALL: names that need backticks, "=>" split by a space, NULL, keywords as names.
	"CALL `a``b`.sys.`x y`(`n` => NULL, 'v')",
	"CALL sys.x(a = > 'v')",
	"CALL sys.select(null => 'x', 'y', NULL)",
	"call SYS.X()",
	"SELECT * FROM t WHERE a = - - - 1",
	"CREATE TABLE t (a MAP<INT, ARRAY<ROW<x INT>>>)",
	"SELECT * FROM t /*+ OPTIONS('a*\\/'='b') */",
	"SELECT A.A/*!*/00000", // sqlparser's tokenizer panicked on an empty /*!*/
	// The alias given to a subquery without one ran into a token written
	// right after the ), making an identifier in the reserved namespace.
	"SELECT * FROM (SELECT a FROM t UNION ALL SELECT b FROM u)0x WHERE x.a > 1",
	// A hint between a database and its table's name marked the database as hinted.
	"SELECT 0 FROM A000/*+OPTIONS(''='')*/.A",
	// The same for VALUES in FROM: its stand-in alias ran into a number written after the ).
	"INSERT INTO A SELECT*FROM(VALUES (0,'0'), (0,'0'))0",
	"SELECT*FROM(VALUES (''))AS",
	// A function name in backquotes that is no word lost its quotes in the canonical text.
	"SELECT `(a)* FRO8 t JOIN u jSING`(a)",
}
