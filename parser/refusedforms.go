package parser

// refusedForm returns the ErrNotSupported error for a Flink statement form
// flussql does not run, found in the tokens from i, which would otherwise
// end in a bare syntax error: CREATE TABLE … AS query, INSERT OVERWRITE,
// and GROUP BY ROLLUP / CUBE / GROUPING SETS. nil for anything else.
func (l *lexed) refusedForm(i int) error {
	n := len(l.toks)
	at := func(k int, w string) bool { return k < n && l.isWord(l.toks[k], w) }
	if at(i, "create") && at(i+1, "table") {
		for k := i + 2; k+1 < n; k++ {
			if l.toks[k].typ == '(' {
				if !at(k-1, "with") || l.closing(k) < 0 {
					break // a column list: CREATE TABLE t (…)
				}
				k = l.closing(k) // WITH (options)
				continue
			}
			if at(k, "as") && (at(k+1, "select") || at(k+1, "with") || l.toks[k+1].typ == '(') {
				t := l.toks[k]
				return unsupportedError(l.src, t.start, t.text(l.src),
					"CREATE TABLE … AS SELECT is not supported; create the table with its columns, then INSERT INTO t SELECT …")
			}
		}
	}
	if at(i, "insert") && at(i+1, "overwrite") {
		t := l.toks[i+1]
		return unsupportedError(l.src, t.start, t.text(l.src),
			"INSERT OVERWRITE is not supported (Fluss tables take appends and upserts); write INSERT INTO or UPSERT INTO")
	}
	grouped := false
	for k := i; k < n; k++ {
		t := l.toks[k]
		switch {
		case at(k, "group") && at(k+1, "by"):
			grouped = true
		case !grouped || t.quoted:
		case (l.isWord(t, "rollup") || l.isWord(t, "cube")) && k+1 < n && l.toks[k+1].typ == '(',
			l.isWord(t, "grouping") && at(k+1, "sets"):
			return unsupportedError(l.src, t.start, t.text(l.src),
				"GROUP BY ROLLUP, CUBE and GROUPING SETS are not supported; write one GROUP BY per grouping and combine them with UNION ALL")
		}
	}
	return nil
}
