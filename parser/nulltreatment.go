package parser

// Flink's null treatment in an aggregate call, ARRAY_AGG(x IGNORE NULLS) or
// ARRAY_AGG(x RESPECT NULLS): sqlparser reads neither, so before it sees the
// text RESPECT NULLS (the default) is dropped and IGNORE NULLS becomes the
// constant argument 'IGNORE NULLS', which the function's type rule reads
// (engine's ARRAY_AGG).

// ignoreNullsArg is the argument IGNORE NULLS becomes.
const ignoreNullsArg = "'IGNORE NULLS'"

// rewriteNullTreatment adds to rw the edits of the IGNORE NULLS and RESPECT
// NULLS of toks[s:] that close a call's arguments.
func (l *lexed) rewriteNullTreatment(s int, rw *rewrite) {
	for k := s + 1; k+2 < len(l.toks); k++ {
		t, nulls, closing := l.toks[k], l.toks[k+1], l.toks[k+2]
		if closing.typ != ')' || !l.isWord(nulls, "nulls") || t.quoted || nulls.quoted {
			continue
		}
		switch {
		case l.isWord(t, "ignore"):
			rw.add(t.start, nulls.end, ", "+ignoreNullsArg)
		case l.isWord(t, "respect"):
			rw.add(t.start, nulls.end, "")
		}
	}
}
