package parser

import "github.com/xwb1989/sqlparser"

// Named windows,
//
//	SELECT ROW_NUMBER() OVER w, SUM(x) OVER w FROM t WINDOW w AS (PARTITION BY k ORDER BY ts)
//
// are inlined in the text before anything else reads it: each OVER w
// becomes OVER (PARTITION BY k ORDER BY ts) and the WINDOW clause goes.
// Errors after that point into the inlined text.

// inlineWindows returns the statement's text with its named windows
// inlined, ok false when it has none.
func (l *lexed) inlineWindows() (string, bool, error) {
	specs := map[string]string{}
	rw := &rewrite{src: l.src}
	for k := 0; k < len(l.toks); k++ {
		if !l.isWord(l.toks[k], "window") || l.toks[k].quoted || !l.namedWindowAt(k+1) {
			continue
		}
		start := k
		for j := k + 1; l.namedWindowAt(j); {
			name, _ := l.identValue(l.toks[j])
			closing := l.closing(j + 2)
			if closing < 0 {
				t := l.toks[j+2]
				return "", false, newError(l.src, t.start, t.text(l.src), "", "this WINDOW "+name+" AS ( is never closed")
			}
			if _, dup := specs[name]; dup {
				t := l.toks[j]
				return "", false, newError(l.src, t.start, t.text(l.src), "", "the window "+name+" is defined twice")
			}
			for _, t := range l.toks[j+2 : closing] {
				if t.typ == sqlparser.VALUE_ARG {
					return "", false, newError(l.src, t.start, t.text(l.src), "", "placeholders are not supported in a named window; write the window inline: OVER (…)")
				}
			}
			specs[name] = l.src[l.toks[j+2].start:l.toks[closing].end]
			k = closing
			if closing+1 < len(l.toks) && l.toks[closing+1].typ == ',' && l.namedWindowAt(closing+2) {
				j = closing + 2
				continue
			}
			break
		}
		rw.add(l.toks[start].start, l.toks[k].end, "")
	}
	if len(specs) == 0 {
		return "", false, nil
	}
	for k := 0; k+1 < len(l.toks); k++ {
		t, next := l.toks[k], l.toks[k+1]
		if !l.isWord(t, "over") || t.quoted || k == 0 || l.toks[k-1].typ != ')' || !l.isWordTok(next) || isKeyword(next.text(l.src)) {
			continue // not OVER name after a call (OVER ( is read later)
		}
		name, ok := l.identValue(next)
		spec, known := specs[name]
		if !ok || !known {
			return "", false, newError(l.src, next.start, next.text(l.src), "", "OVER "+next.text(l.src)+" names no window of the WINDOW clause: WINDOW w AS (PARTITION BY … ORDER BY …)")
		}
		rw.add(next.start, next.end, spec)
	}
	return rw.text(), true, nil
}

// namedWindowAt reports whether name AS ( starts at token j.
func (l *lexed) namedWindowAt(j int) bool {
	return j+2 < len(l.toks) && l.isWordTok(l.toks[j]) && l.isWord(l.toks[j+1], "as") && l.toks[j+2].typ == '('
}
