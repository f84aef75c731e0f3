package planner

import "github.com/flussql/flussql/parser"

// A conjunct of WHERE, or of an INNER JOIN's ON, that names one table's
// columns alone filters that table's read (planTable). Evaluating it again
// over the joined rows selects nothing more, yet it kept its columns in
// every join's output (TPC-H Q9 carried p_name through five joins to test
// p_name LIKE '%green%' once more, Q13 o_comment to a LEFT JOIN's
// residual). So a conjunct a table's plan applies whole is recorded here,
// that table reads no column only that conjunct names, and the query's
// WHERE filter and the joins' residuals leave it out. The same holds for
// an ON conjunct of a LEFT JOIN about its right side: the right rows it
// rejects match no left row.

// onlyThere reports whether every column conjunct c names is t's and no
// other table's of the FROM, so that c, once t's plan applies it, needs no
// column in the joined rows (an unqualified name another table also has is
// ambiguous, an error the joined rows must still raise).
func (b *builder) onlyThere(fp *fromPlan, c parser.Expr, t *parser.TableRef) bool {
	ok := true
	parser.Walk(c, func(x parser.Expr) bool {
		r, isRef := x.(*parser.ColumnRef)
		if !isRef || r.Table.Name != "" || !ok {
			return ok
		}
		if fp.derived {
			ok = false
			return false
		}
		for _, u := range fp.tables {
			if u == t || u.Name() == t.Name() && u.Table == t.Table {
				continue
			}
			info, _, err := b.readTable(u.Table)
			if err != nil || info.Schema().Index(r.Name) >= 0 {
				ok = false
				return false
			}
		}
		return true
	})
	return ok
}

// applyWhole records that a table's plan applies conjunct c whole.
func (b *builder) applyWhole(c parser.Expr) {
	if b.applied == nil {
		b.applied = map[parser.Expr]bool{}
	}
	b.applied[c] = true
}

// notApplied is WHERE without the conjuncts a table's plan applies whole
// (nil when none is left).
func (b *builder) notApplied(where parser.Expr) parser.Expr {
	if len(b.applied) == 0 || where == nil {
		return where
	}
	var rest []parser.Expr
	for _, c := range conjuncts(where) {
		if !b.applied[c] {
			rest = append(rest, c)
		}
	}
	return andAll(rest)
}
