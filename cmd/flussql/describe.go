package main

import (
	"context"
	"fmt"
	"strings"
)

// describe is \d t: DESCRIBE's table, then the table's DDL from SHOW CREATE TABLE, which
// carries the primary key, partition keys, bucket count and properties, formatted over
// lines (formatDDL).
func (s *shell) describe(ctx context.Context, table string) error {
	_, err := s.describeDDL(ctx, table)
	return err
}

// describeDDL is describe, returning the DDL it printed ("" when there was none).
func (s *shell) describeDDL(ctx context.Context, table string) (string, error) {
	if err := s.runQuery(ctx, "DESCRIBE "+table); err != nil {
		return "", err
	}
	ddl, ok, err := s.queryText(ctx, "SHOW CREATE TABLE "+table)
	if err != nil || !ok {
		return "", err
	}
	fmt.Fprintf(s.out, "%s\n\n", formatDDL(strings.TrimRight(ddl, "\n")))
	return ddl, nil
}

// formatDDL spreads a one-line CREATE TABLE over lines as psql's \d and SHOW CREATE TABLE in
// MySQL do: one column or constraint per line inside the parentheses, each clause after them
// (PARTITIONED BY, COMMENT, WITH) on a line of its own, and one WITH option per line. Text
// that already spans lines, or that it cannot follow, is returned as it is.
func formatDDL(ddl string) string {
	if strings.Contains(ddl, "\n") {
		return ddl
	}
	open := indexTop(ddl, 0, func(i int) bool { return ddl[i] == '(' })
	if open < 0 {
		return ddl
	}
	end := closeParen(ddl, open)
	if end < 0 {
		return ddl
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(ddl[:open]) + " (\n")
	writeList(&b, ddl[open+1:end])
	b.WriteString(")")
	rest := strings.TrimSpace(ddl[end+1:])
	for rest != "" {
		if word, after, ok := cutWord(rest, "WITH"); ok && strings.HasPrefix(after, "(") {
			if e := closeParen(after, 0); e > 0 {
				b.WriteString("\n" + word + " (\n")
				writeList(&b, after[1:e])
				b.WriteString(")")
				rest = strings.TrimSpace(after[e+1:])
				continue
			}
		}
		// Any other clause runs to the next clause word outside quotes and parentheses.
		next := indexTop(rest, 1, func(i int) bool { return clauseStart(rest, i) })
		if next < 0 {
			next = len(rest)
		}
		b.WriteString("\n" + strings.TrimSpace(rest[:next]))
		rest = strings.TrimSpace(rest[next:])
	}
	return b.String()
}

// ddlClauses are the words that start a clause after a CREATE TABLE's column list.
var ddlClauses = []string{"PARTITIONED BY", "COMMENT", "WITH", "DISTRIBUTED BY"}

// clauseStart reports whether one of ddlClauses starts s at i as a whole word.
func clauseStart(s string, i int) bool {
	if i > 0 && s[i-1] != ' ' {
		return false
	}
	for _, c := range ddlClauses {
		if _, _, ok := cutWord(s[i:], c); ok {
			return true
		}
	}
	return false
}

// cutWord reports whether s starts with word (any case) followed by a space, '(' or the
// end, and returns it as written and what follows it, trimmed.
func cutWord(s, word string) (string, string, bool) {
	if len(s) < len(word) || !strings.EqualFold(s[:len(word)], word) {
		return "", "", false
	}
	if len(s) > len(word) && s[len(word)] != ' ' && s[len(word)] != '(' {
		return "", "", false
	}
	return s[:len(word)], strings.TrimSpace(s[len(word):]), true
}

// writeList writes the items of a comma-separated list, one per line, indented.
func writeList(b *strings.Builder, list string) {
	var items []string
	start := 0
	for {
		i := indexTop(list, start, func(i int) bool { return list[i] == ',' })
		if i < 0 {
			items = append(items, strings.TrimSpace(list[start:]))
			break
		}
		items = append(items, strings.TrimSpace(list[start:i]))
		start = i + 1
	}
	for i, it := range items {
		sep := ","
		if i == len(items)-1 {
			sep = ""
		}
		b.WriteString("  " + it + sep + "\n")
	}
}

// indexTop returns the first index from start at which at holds, outside quotes ('…',
// `…`, "…"), parentheses and angle brackets (MAP<K, V>); -1 when there is none.
func indexTop(s string, start int, at func(int) bool) int {
	return scanTop(s, func(i, depth int) bool { return i >= start && depth == 0 && at(i) })
}

// closeParen returns the index of the ')' that closes the '(' at open, or -1.
func closeParen(s string, open int) int {
	return scanTop(s, func(i, depth int) bool { return i > open && depth == 1 && s[i] == ')' })
}

// scanTop calls at for each byte of s outside quotes with the nesting depth of brackets
// before it, and returns the first index at which at holds; -1 when there is none.
func scanTop(s string, at func(i, depth int) bool) int {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if quote != 0 {
			if c == quote {
				if i+1 < len(s) && s[i+1] == quote { // a doubled quote stays inside
					i++
				} else {
					quote = 0
				}
			}
			continue
		}
		if at(i, depth) {
			return i
		}
		switch c {
		case '\'', '`', '"':
			quote = c
		case '(', '<':
			depth++
		case ')', '>':
			depth--
		}
	}
	return -1
}
