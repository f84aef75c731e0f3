package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/flussql/flussql/parser"
)

// Tab completion at the interactive prompt: SQL keywords (keywords.go), backslash
// commands, and database, table and column names from the catalog. What is offered
// depends on the word before the cursor's word where that is cheap to tell: after FROM,
// JOIN, INTO, TABLE, UPDATE, DESCRIBE → tables; after USE, DATABASE, SHOW TABLES FROM →
// databases; db. → that database's tables; elsewhere keywords and the columns of the
// tables the statement names. Names come from SHOW DATABASES, SHOW TABLES and DESCRIBE on
// the session's connection, are kept for the session and dropped after DDL.

// catalog caches what completion has fetched.
type catalog struct {
	// query returns the first column of every row of a statement ("" on error).
	query     func(ctx context.Context, q string) ([]string, error)
	databases []string
	tables    map[string][]string // by database
	columns   map[string][]string // by table as written (db.t or t) in the current database
	columnsDB string              // the database columns was filled in
}

// catalogTimeout bounds each catalog query made for a Tab.
const catalogTimeout = 3 * time.Second

func newCatalog(query func(ctx context.Context, q string) ([]string, error)) *catalog {
	c := &catalog{query: query}
	c.reset()
	return c
}

// reset forgets everything (after DDL).
func (c *catalog) reset() {
	if c == nil {
		return
	}
	c.databases = nil
	c.tables = map[string][]string{}
	c.columns = map[string][]string{}
}

func (c *catalog) fetch(q string) ([]string, bool) {
	ctx, cancel := context.WithTimeout(context.Background(), catalogTimeout)
	defer cancel()
	names, err := c.query(ctx, q)
	return names, err == nil
}

func (c *catalog) databaseNames() []string {
	if c.databases == nil {
		if names, ok := c.fetch("SHOW DATABASES"); ok {
			c.databases = names
		}
	}
	return c.databases
}

func (c *catalog) tableNames(db string) []string {
	if names, ok := c.tables[db]; ok {
		return names
	}
	q := "SHOW TABLES"
	if db != "" {
		q += " FROM " + quoteIdent(db)
	}
	names, ok := c.fetch(q)
	if ok {
		c.tables[db] = names
	}
	return names
}

func (c *catalog) columnNames(currentDB, table string) []string {
	if c.columnsDB != currentDB {
		c.columns, c.columnsDB = map[string][]string{}, currentDB
	}
	if names, ok := c.columns[table]; ok {
		return names
	}
	names, ok := c.fetch("DESCRIBE " + table) // as the statement writes it: valid SQL
	if ok {
		c.columns[table] = names
	}
	return names
}

// firstColumn runs q on the session's connection (idle while the prompt waits) and returns
// the first column of its rows as text.
func (s *shell) firstColumn(ctx context.Context, q string) ([]string, error) {
	rows, err := s.conn.QueryContext(ctx, q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil || len(cols) == 0 {
		return nil, err
	}
	var names []string
	for rows.Next() {
		dest := make([]any, len(cols))
		for i := range dest {
			dest[i] = new(any)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		text, _ := render(*dest[0].(*any), nil)
		names = append(names, text)
	}
	return names, rows.Err()
}

// tableWords are the words after which a table name comes.
var tableWords = map[string]bool{"FROM": true, "JOIN": true, "INTO": true, "TABLE": true,
	"UPDATE": true, "DESCRIBE": true, "DESC": true, "PARTITIONS": true}

// databaseWords are the words after which a database name comes.
var databaseWords = map[string]bool{"USE": true, "DATABASE": true}

// complete is the line editor's word completer: line is the line being edited, pos the
// cursor (in runes); it returns the text before the word, the candidates for the word, and the text
// after the cursor.
func (s *shell) complete(line string, pos int) (string, []string, string) {
	// The line editor counts the cursor in runes.
	runes := []rune(line)
	pos = len(string(runes[:min(max(pos, 0), len(runes))]))
	start := pos
	for start > 0 && isNameByte(line[start-1]) {
		start--
	}
	head, word, tail := line[:start], line[start:pos], line[pos:]
	if strings.TrimSpace(s.typed) == "" && strings.HasPrefix(strings.TrimLeft(line, " \t"), `\`) {
		return s.completeCommand(head, word, tail)
	}
	before := words(s.typed + head)
	candidates := s.completeSQL(before, word, s.typed+line)
	return head, finish(candidates), tail
}

// completeCommand completes a backslash command or its argument.
func (s *shell) completeCommand(head, word, tail string) (string, []string, string) {
	fields := strings.Fields(head)
	if len(fields) == 0 { // the command itself: word holds what follows the backslash
		return head, finish(matching(backslashCommands, word, false)), tail
	}
	var names []string
	switch fields[0] {
	case `\d`, `\d+`, `\dp`:
		names = s.tableCandidates(word)
	case `\c`, `\dt`:
		names = s.catalog.databaseNames()
	case `\timing`:
		names = []string{"on", "off"}
	case `\x`:
		names = []string{"on", "off", "auto"}
	case `\copy`:
		switch len(fields) {
		case 1:
			names = s.tableCandidates(word)
		case 2:
			names = []string{"FROM", "TO"}
		case 3:
			return s.completeFile(head, word, tail)
		default:
			names = []string{"FORMAT", "HEADER", "DELIMITER", "csv", "parquet", "json"}
		}
	case `\h`, `\help`:
		for _, h := range statementHelps {
			w := strings.Fields(h.name)
			if len(fields) <= len(w) && strings.EqualFold(strings.Join(fields[1:], " "), strings.Join(w[:len(fields)-1], " ")) {
				names = append(names, w[len(fields)-1])
			}
		}
		names = slices.Compact(names)
	case `\g`:
		return s.completeFile(head, word, tail)
	case `\format`:
		names = []string{formatTable, formatCSV, formatTSV, formatJSON}
	case `\pset`:
		if len(fields) == 1 {
			names = []string{"pager"}
		} else {
			names = []string{"on", "off", "auto", "always"}
		}
	case `\i`, `\include`, `\o`, `\out`:
		return s.completeFile(head, word, tail)
	}
	return head, finish(matching(names, word, false)), tail
}

// completeSQL returns the candidates for word in a statement whose words before it are
// before and whose whole text (as far as typed) is text.
func (s *shell) completeSQL(before []string, word, text string) []string {
	prev, prev2 := "", ""
	if n := len(before); n > 0 {
		prev = strings.ToUpper(before[n-1])
		if n > 1 {
			prev2 = strings.ToUpper(before[n-2])
		}
	}
	switch {
	case prev == "FROM" && (prev2 == "TABLES" || prev2 == "IN"), databaseWords[prev]:
		return matching(s.catalog.databaseNames(), word, false)
	case tableWords[prev]:
		return s.tableCandidates(word)
	}
	var columns []string
	for _, t := range tablesNamed(words(text)) {
		columns = append(columns, matching(s.catalog.columnNames(s.database, t), word, false)...)
	}
	out := append(matching(sqlKeywords, word, true), columns...)
	// Function names come after the statement's columns: with a column that matches
	// (WHERE reg → region), the few hundred functions (REGEXP, …) would make every
	// prefix ambiguous.
	if len(columns) == 0 {
		out = append(out, matching(functionWords, word, true)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// tableCandidates are the tables of the current database that match word, or with db. in
// word that database's tables, each as db.t.
func (s *shell) tableCandidates(word string) []string {
	if db, prefix, ok := strings.Cut(word, "."); ok {
		var out []string
		for _, t := range matching(s.catalog.tableNames(strings.Trim(db, "`")), prefix, false) {
			out = append(out, db+"."+t)
		}
		return out
	}
	out := matching(s.catalog.tableNames(s.database), word, false)
	// A database name is the start of a qualified table name.
	for _, db := range matching(s.catalog.databaseNames(), word, false) {
		out = append(out, db+".")
	}
	return out
}

// completeFile completes a file name for \i and \o.
func (s *shell) completeFile(head, word, tail string) (string, []string, string) {
	matches, _ := filepath.Glob(word + "*")
	var out []string
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && st.IsDir() {
			m += string(filepath.Separator)
		}
		out = append(out, m)
	}
	return head, finish(out), tail
}

// finish adds a space after a single candidate that is complete (not a db. or folder).
func finish(candidates []string) []string {
	if len(candidates) == 1 && !strings.HasSuffix(candidates[0], ".") && !strings.HasSuffix(candidates[0], string(filepath.Separator)) {
		return []string{candidates[0] + " "}
	}
	return candidates
}

// matching returns the names that start with word, ignoring case. Keywords take the case
// of what was typed (lower case when word is).
func matching(names []string, word string, keywords bool) []string {
	lower := keywords && word != "" && strings.ToLower(word) == word && strings.ToUpper(word) != word
	var out []string
	for _, n := range names {
		if len(n) >= len(word) && strings.EqualFold(n[:len(word)], word) {
			if lower {
				n = strings.ToLower(n)
			}
			out = append(out, n)
		}
	}
	return out
}

// isNameByte reports whether b can be part of a word being completed: a name, db.t, a
// backquoted name, a backslash command or a file name.
func isNameByte(b byte) bool {
	return b == '_' || b == '.' || b == '`' || b == '\\' || b == '/' ||
		b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= 0x80
}

// words splits text into words: names (with dots and backquotes) and keywords; other
// characters separate them.
func words(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '.' || r == '`')
	})
}

// tablesNamed returns the names that follow a table word in a statement's words.
func tablesNamed(ws []string) []string {
	var out []string
	for i := 0; i+1 < len(ws); i++ {
		if tableWords[strings.ToUpper(ws[i])] && !isKeyword(ws[i+1]) && !slices.Contains(out, ws[i+1]) {
			out = append(out, ws[i+1])
		}
	}
	return out
}

// isKeyword reports whether w is one of sqlKeywords or a function's name.
func isKeyword(w string) bool {
	is := func(k string) bool { return strings.EqualFold(k, w) }
	return slices.ContainsFunc(sqlKeywords, is) || slices.ContainsFunc(functionWords, is)
}

// changesCatalog reports whether a statement may add, drop or change databases, tables or
// columns, after which completion fetches the catalog again.
func changesCatalog(st parser.Statement) bool {
	switch st.(type) {
	case *parser.CreateDatabase, *parser.DropDatabase, *parser.CreateTable, *parser.DropTable,
		*parser.AlterTableAddColumns, *parser.AlterTableAddPartition, *parser.AlterTableDropPartition:
		return true
	}
	return false
}
