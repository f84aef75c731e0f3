package planner

import (
	"fmt"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/parser"
)

// setOperation plans a set operation over its inputs, folded from the left:
// UNION ALL as engine.Union, UNION as Distinct over it, INTERSECT and
// EXCEPT [ALL] as engine.SetOp. The inputs' columns are brought to common
// types as for UNION ALL.
func setOperation(op parser.SetKind, ins []*relation) (engine.Node, error) {
	n, err := unionAll(string(op), ins)
	if err != nil {
		return nil, err
	}
	u := n.(*engine.Union)
	var kind engine.SetOpKind
	switch op {
	case parser.UnionAll:
		return u, nil
	case parser.UnionDistinct:
		return &engine.Distinct{Input: u}, nil
	case parser.Intersect:
		kind = engine.IntersectDistinct
	case parser.IntersectAll:
		kind = engine.IntersectAll
	case parser.Except:
		kind = engine.ExceptDistinct
	case parser.ExceptAll:
		kind = engine.ExceptAll
	default:
		return nil, notSupported("planner: set operation %s is not supported", op)
	}
	node := u.Ins[0]
	for _, in := range u.Ins[1:] {
		node = &engine.SetOp{Kind: kind, Left: node, Right: in}
	}
	return node, nil
}

// renameColumns gives a subquery's columns the names of its derived column
// list (FROM (SELECT …) AS t (x, y), WITH t (x, y) AS …).
func renameColumns(node engine.Node, sq *parser.SubqueryRef) (engine.Node, error) {
	if len(sq.Columns) == 0 {
		return node, nil
	}
	cols := node.Columns()
	if len(cols) != len(sq.Columns) {
		return nil, fmt.Errorf("the column list of %s names %d columns, and its query has %d", parser.QuoteIdent(sq.Alias), len(sq.Columns), len(cols))
	}
	p := &engine.Project{Input: node, Names: sq.Columns}
	for i, c := range cols {
		p.Exprs = append(p.Exprs, &engine.Col{Index: i, Name: c.Name, T: c.Type})
	}
	return p, nil
}

// nestedLoopJoin plans a join without an equality between its sides (a
// cross join, or a condition of other comparisons) as a nested-loop join
// that holds the right side in memory; ON, if any, is evaluated on every
// pair.
func (b *builder) nestedLoopJoin(kind engine.JoinKind, left, right *relation, on parser.Expr) (*relation, error) {
	if !right.bounded {
		return nil, needsStreaming("the right side of a nested-loop (cross) join is held in memory and must be bounded; an unbounded scan ('%s' = 'false') can only be joined by a lookup join", HintBounded)
	}
	_, conj, err := equalitiesOf(on, left.scope, right.scope)
	if err != nil {
		return nil, err
	}
	joined := concat(left.scope, right.scope, kind == engine.LeftJoin)
	residual, err := b.residualOf(conj, nil, joined)
	if err != nil {
		return nil, err
	}
	node := &engine.NestedLoopJoin{Kind: kind, Left: left.node, Right: right.node, Residual: residual}
	return &relation{node: node, scope: joined, bounded: left.bounded}, nil
}
