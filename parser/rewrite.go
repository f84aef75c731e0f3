package parser

import (
	"sort"
	"strings"
)

// edit replaces src[start:end] with repl.
type edit struct {
	start, end int
	repl       string
}

// rewrite is the statement text as handed to sqlparser: the original with
// a few token-span edits (UPSERT→INSERT, typed literals, the EXPLAIN
// prefix). It maps offsets in the rewritten text back to the original so
// that sqlparser's errors point at what the user wrote.
type rewrite struct {
	src   string
	edits []edit
}

func (r *rewrite) add(start, end int, repl string) {
	r.edits = append(r.edits, edit{start, end, repl})
}

// text applies the edits; they must not overlap (an insertion, start ==
// end, goes before an edit that starts where it does).
func (r *rewrite) text() string {
	sort.SliceStable(r.edits, func(i, j int) bool {
		a, b := r.edits[i], r.edits[j]
		return a.start < b.start || a.start == b.start && a.end < b.end
	})
	var b strings.Builder
	pos := 0
	for _, e := range r.edits {
		b.WriteString(r.src[pos:e.start])
		b.WriteString(e.repl)
		pos = e.end
	}
	b.WriteString(r.src[pos:])
	return b.String()
}

// toOrig maps an offset in the rewritten text to the original; an offset
// inside a replacement maps to the start of the replaced span.
func (r *rewrite) toOrig(off int) int {
	delta := 0
	for _, e := range r.edits {
		rs := e.start + delta // start of the replacement in the rewritten text
		if off < rs {
			break
		}
		if off < rs+len(e.repl) {
			return e.start
		}
		delta += len(e.repl) - (e.end - e.start)
	}
	return off - delta
}
