package parser

// Params describes the placeholders of a statement. A statement uses either
// '?' (Positional is their count, ordinals 1..Positional) or ':name'
// (Names lists each distinct name once, in order of first use), never both.
type Params struct {
	Positional int
	Names      []string
}

// NumInput is what database/sql's driver.Stmt.NumInput should return: the
// number of '?' placeholders, or -1 when the statement uses named ones
// (database/sql then skips its count check).
func (p Params) NumInput() int {
	if len(p.Names) > 0 {
		return -1
	}
	return p.Positional
}

// Placeholders returns the placeholders used by s.
func Placeholders(s Statement) Params {
	var p Params
	seen := map[string]bool{}
	var visit func(e Expr) bool
	visit = func(e Expr) bool {
		if sq := SubqueryOf(e); sq != nil {
			for _, x := range statementExprs(sq) {
				Walk(x, visit)
			}
		}
		if ph, ok := e.(*Placeholder); ok {
			if ph.Name != "" {
				if !seen[ph.Name] {
					seen[ph.Name] = true
					p.Names = append(p.Names, ph.Name)
				}
			} else if ph.Ordinal > p.Positional {
				p.Positional = ph.Ordinal
			}
		}
		return true
	}
	for _, e := range statementExprs(s) {
		Walk(e, visit)
	}
	return p
}

// statementExprs lists the top-level expressions of s in source order.
func statementExprs(s Statement) []Expr {
	var out []Expr
	partition := func(spec []PartitionValue) {
		for _, pv := range spec {
			out = append(out, pv.Value)
		}
	}
	switch n := s.(type) {
	case *AlterTableAddPartition:
		partition(n.Partition)
	case *AlterTableDropPartition:
		partition(n.Partition)
	case *ShowPartitions:
		partition(n.Partition)
	case *ShowOffsets:
		partition(n.Partition)
	case *ShowKvSnapshots:
		partition(n.Partition)
	case *Insert:
		for _, row := range n.Rows {
			out = append(out, row...)
		}
		if n.Query != nil {
			out = append(out, statementExprs(n.Query)...)
		}
	case *Delete:
		out = append(out, n.Where)
	case *Update:
		for _, a := range n.Set {
			out = append(out, a.Value)
		}
		out = append(out, n.Where)
	case *Select:
		for _, it := range n.Items {
			out = append(out, it.Expr)
		}
		if n.From != nil {
			out = append(out, fromExprs(n.From)...)
		}
		out = append(out, n.Where)
		out = append(out, n.GroupBy...)
		out = append(out, n.Having)
		for _, o := range n.OrderBy {
			out = append(out, o.Expr)
		}
		out = append(out, n.Limit, n.Offset)
	case *Union:
		for _, sel := range n.Selects {
			out = append(out, statementExprs(sel)...)
		}
	case *Explain:
		out = statementExprs(n.Statement)
	}
	return out
}
