package engine

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/types"
)

// Node is one operator of a query plan, as data. The leaves are Input (the
// batches the driver feeds) and OneRow (SELECT without FROM).
type Node interface {
	// Columns are the names and types of the node's output columns.
	Columns() []Column
	// Inputs are the child nodes.
	Inputs() []Node
	// Describe is a one-line description for EXPLAIN.
	Describe() string
	// Streaming reports whether the operator needs no state that grows
	// with its input, so that it can run over an unbounded scan.
	Streaming() bool
}

// Column is one output column of a node.
type Column struct {
	Name string
	Type types.DataType
}

// Input is the leaf that the driver feeds: batches with Cols, produced by
// what From describes (a scan or lookup, run by the server). ID tells the
// inputs of a tree with several apart (see Options.Inputs).
type Input struct {
	Cols []Column
	From string
	ID   int
}

// OneRow is the leaf of SELECT without FROM: one row without columns.
type OneRow struct{}

// Filter keeps the rows for which Cond is TRUE.
type Filter struct {
	Input Node
	Cond  Expr
}

// Project computes Exprs, named Names, for every row.
type Project struct {
	Input Node
	Exprs []Expr
	Names []string
}

// Aggregate groups rows by Keys (one group without keys, also over no rows)
// and computes Aggs per group; its output columns are the keys, then the
// aggregates.
type Aggregate struct {
	Input Node
	Keys  []Expr
	Names []string // of the keys
	Aggs  []*Agg
}

// SortKey is one ORDER BY key: an input column.
type SortKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// Sort orders rows by Keys; with Limit ≥ 0 it keeps only rows Offset ..
// Offset+Limit-1 of the order, in a bounded heap (top-N), never sorting
// everything. Ties keep input order.
type Sort struct {
	Input  Node
	Keys   []SortKey
	Limit  int64 // -1: all
	Offset int64
	// Pending, when set, is a LIMIT or OFFSET that is still a placeholder
	// (the planner's, opaque here): the planner binds it into Limit and
	// Offset, and Build refuses a node that still has one.
	Pending any
}

// Limit passes rows Offset .. Offset+Limit-1 (Limit -1: all after Offset)
// and stops reading its input once it has them.
type Limit struct {
	Input  Node
	Limit  int64
	Offset int64
	// Pending is as Sort's.
	Pending any
}

// Distinct passes the first of every set of equal rows.
type Distinct struct {
	Input Node
}

// Columns implements Node.
func (n *Input) Columns() []Column { return n.Cols }

// Columns implements Node.
func (n *OneRow) Columns() []Column { return nil }

// Columns implements Node.
func (n *Filter) Columns() []Column { return n.Input.Columns() }

// Columns implements Node.
func (n *Project) Columns() []Column {
	out := make([]Column, len(n.Exprs))
	for i, e := range n.Exprs {
		out[i] = Column{Name: n.Names[i], Type: e.Type()}
	}
	return out
}

// Columns implements Node.
func (n *Aggregate) Columns() []Column {
	var out []Column
	for i, k := range n.Keys {
		out = append(out, Column{Name: n.Names[i], Type: k.Type()})
	}
	for _, a := range n.Aggs {
		out = append(out, Column{Name: a.String(), Type: a.T})
	}
	return out
}

// Columns implements Node.
func (n *Sort) Columns() []Column { return n.Input.Columns() }

// Columns implements Node.
func (n *Limit) Columns() []Column { return n.Input.Columns() }

// Columns implements Node.
func (n *Distinct) Columns() []Column { return n.Input.Columns() }

// Inputs implements Node.
func (n *Input) Inputs() []Node { return nil }

// Inputs implements Node.
func (n *OneRow) Inputs() []Node { return nil }

// Inputs implements Node.
func (n *Filter) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Project) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Aggregate) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Sort) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Limit) Inputs() []Node { return []Node{n.Input} }

// Inputs implements Node.
func (n *Distinct) Inputs() []Node { return []Node{n.Input} }

// Streaming implements Node.
func (n *Input) Streaming() bool { return true }

// Streaming implements Node.
func (n *OneRow) Streaming() bool { return true }

// Streaming implements Node.
func (n *Filter) Streaming() bool { return true }

// Streaming implements Node.
func (n *Project) Streaming() bool { return true }

// Streaming implements Node.
func (n *Aggregate) Streaming() bool { return false }

// Streaming implements Node.
func (n *Sort) Streaming() bool { return false }

// Streaming implements Node.
func (n *Limit) Streaming() bool { return true }

// Streaming implements Node.
func (n *Distinct) Streaming() bool { return false }

// Describe implements Node.
func (n *Input) Describe() string {
	if n.ID > 0 {
		return fmt.Sprintf("Input %d (%s): %s", n.ID, n.From, columnNames(n.Cols))
	}
	return "Input (" + n.From + "): " + columnNames(n.Cols)
}

// Describe implements Node.
func (n *OneRow) Describe() string { return "OneRow (no FROM)" }

// Describe implements Node.
func (n *Filter) Describe() string { return "Filter " + n.Cond.String() }

// Describe implements Node.
func (n *Project) Describe() string {
	parts := make([]string, len(n.Exprs))
	for i, e := range n.Exprs {
		parts[i] = e.String()
		if s := quoteIdent(n.Names[i]); s != parts[i] {
			parts[i] += " AS " + s
		}
	}
	return "Project " + strings.Join(parts, ", ")
}

// Describe implements Node.
func (n *Aggregate) Describe() string {
	aggs := make([]string, len(n.Aggs))
	for i, a := range n.Aggs {
		aggs[i] = a.String()
	}
	s := "HashAggregate " + strings.Join(aggs, ", ")
	if len(n.Keys) > 0 {
		keys := make([]string, len(n.Keys))
		for i, k := range n.Keys {
			keys[i] = k.String()
		}
		s += " GROUP BY " + strings.Join(keys, ", ")
	}
	return s
}

// Describe implements Node.
func (n *Sort) Describe() string {
	cols := n.Input.Columns()
	keys := make([]string, len(n.Keys))
	for i, k := range n.Keys {
		keys[i] = quoteIdent(cols[k.Col].Name)
		if k.Desc {
			keys[i] += " DESC"
		}
		if k.NullsFirst {
			keys[i] += " NULLS FIRST"
		} else {
			keys[i] += " NULLS LAST"
		}
	}
	if n.Pending != nil {
		return fmt.Sprintf("TopN %v ORDER BY %s (bounded heap, or a sort without LIMIT)", n.Pending, strings.Join(keys, ", "))
	}
	if n.Limit >= 0 {
		return fmt.Sprintf("TopN %d%s ORDER BY %s (bounded heap)", n.Limit, offsetText(n.Offset), strings.Join(keys, ", "))
	}
	return fmt.Sprintf("Sort ORDER BY %s%s", strings.Join(keys, ", "), offsetText(n.Offset))
}

func offsetText(o int64) string {
	if o > 0 {
		return fmt.Sprintf(" OFFSET %d", o)
	}
	return ""
}

// Describe implements Node.
func (n *Limit) Describe() string {
	if n.Pending != nil {
		return fmt.Sprintf("Limit %v (stops reading its input)", n.Pending)
	}
	if n.Limit < 0 {
		return fmt.Sprintf("Limit OFFSET %d", n.Offset)
	}
	return fmt.Sprintf("Limit %d%s (stops reading its input)", n.Limit, offsetText(n.Offset))
}

// Describe implements Node.
func (n *Distinct) Describe() string { return "Distinct (hash set)" }

func columnNames(cols []Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = quoteIdent(c.Name)
	}
	return strings.Join(names, ", ")
}

// Format renders the tree, one node per line, children indented below
// their parent, each line prefixed with prefix.
func Format(n Node, prefix string) string {
	var b strings.Builder
	var walk func(n Node, depth int)
	walk = func(n Node, depth int) {
		b.WriteString(prefix + strings.Repeat("  ", depth) + n.Describe() + "\n")
		for _, c := range n.Inputs() {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// Streaming reports whether every operator of the tree is streaming.
func Streaming(n Node) bool {
	if !n.Streaming() {
		return false
	}
	for _, c := range n.Inputs() {
		if !Streaming(c) {
			return false
		}
	}
	return true
}

// MapExprs returns a copy of the tree with f applied to every expression
// (Bind uses it to fill placeholders) and g to every Limit/Sort bound
// (nil keeps them).
func MapExprs(n Node, f func(Expr) (Expr, error)) (Node, error) {
	var kids []Node
	for _, c := range n.Inputs() {
		k, err := MapExprs(c, f)
		if err != nil {
			return nil, err
		}
		kids = append(kids, k)
	}
	all := func(es []Expr) ([]Expr, error) {
		out := make([]Expr, len(es))
		for i, e := range es {
			x, err := f(e)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	}
	switch x := n.(type) {
	case *Filter:
		c, err := f(x.Cond)
		return &Filter{Input: kids[0], Cond: c}, err
	case *Project:
		es, err := all(x.Exprs)
		return &Project{Input: kids[0], Exprs: es, Names: x.Names}, err
	case *Aggregate:
		ks, err := all(x.Keys)
		if err != nil {
			return nil, err
		}
		out := &Aggregate{Input: kids[0], Keys: ks, Names: x.Names}
		for _, a := range x.Aggs {
			c := *a
			if a.Arg != nil {
				if c.Arg, err = f(a.Arg); err != nil {
					return nil, err
				}
			}
			out.Aggs = append(out.Aggs, &c)
		}
		return out, nil
	case *Sort:
		c := *x
		c.Input = kids[0]
		return &c, nil
	case *Limit:
		c := *x
		c.Input = kids[0]
		return &c, nil
	case *Distinct:
		return &Distinct{Input: kids[0]}, nil
	case *HashJoin:
		c := *x
		c.Left, c.Right = kids[0], kids[1]
		var err error
		if c.LeftKeys, err = all(x.LeftKeys); err != nil {
			return nil, err
		}
		if c.RightKeys, err = all(x.RightKeys); err != nil {
			return nil, err
		}
		if x.Residual != nil {
			c.Residual, err = f(x.Residual)
		}
		return &c, err
	case *LookupJoin:
		c := *x
		c.Left = kids[0]
		var err error
		if c.KeyExprs, err = all(x.KeyExprs); err != nil {
			return nil, err
		}
		if x.Residual != nil {
			c.Residual, err = f(x.Residual)
		}
		return &c, err
	case *Union:
		return &Union{Ins: kids}, nil
	case *Window:
		return x.mapExprs(kids[0], f)
	case *NestedLoopJoin:
		c := *x
		c.Left, c.Right = kids[0], kids[1]
		var err error
		if x.Residual != nil {
			c.Residual, err = f(x.Residual)
		}
		return &c, err
	case *SetOp:
		return &SetOp{Kind: x.Kind, Left: kids[0], Right: kids[1]}, nil
	case *SingleRowJoin:
		return &SingleRowJoin{Left: kids[0], Right: kids[1]}, nil
	case *Shared:
		return WithInputs(x, kids), nil
	}
	return n, nil
}
