package planner

import (
	"strings"

	"github.com/flussql/flussql/engine"
)

// shareSubtrees computes once what a query computes twice: a WITH referred to more than
// once is planned at each reference (TPC-H Q15's revenue view, joined with supplier and
// aggregated again for its maximum), and so is any other subquery written twice. Two
// subtrees are the same computation when their operators describe alike, with the same
// columns, down to inputs that read the same rows (the same table, projection, filter and
// partitions: they are read once anyway, Scan.SharesRead). Those that aggregate or remove
// duplicates — work worth keeping, and a result smaller than what they read — become one
// engine.Shared result: the first computes it, the others read its batches, and the inputs
// of those others are dropped from the query. Subtrees with lookup joins or placeholders
// are left alone.
func shareSubtrees(q *Query) {
	if len(q.Inputs) < 2 || q.Root == nil {
		return
	}
	sigs := map[engine.Node]string{}
	count := map[string]int{}
	var sign func(n engine.Node) string
	sign = func(n engine.Node) string {
		var b strings.Builder
		if in, ok := n.(*engine.Input); ok {
			if in.ID < 0 || in.ID >= len(q.Inputs) {
				return "?"
			}
			b.WriteString("input " + q.Inputs[in.ID].String())
		} else {
			b.WriteString(n.Describe())
		}
		for _, c := range n.Columns() {
			b.WriteString("|" + c.Name + " " + c.Type.String())
		}
		for _, k := range n.Inputs() {
			b.WriteString("(" + sign(k) + ")")
		}
		s := b.String()
		sigs[n] = s
		count[s]++
		return s
	}
	sign(q.Root)
	ids := map[string]int{}
	var rewrite func(n engine.Node) engine.Node
	rewrite = func(n engine.Node) engine.Node {
		s := sigs[n]
		if count[s] > 1 && worthSharing(n) && shareable(n) {
			id, seen := ids[s]
			if seen {
				return &engine.Shared{ID: id, Cols: n.Columns()}
			}
			id = len(ids) + 1
			ids[s] = id
			return &engine.Shared{ID: id, Input: n, Cols: n.Columns()}
		}
		kids := n.Inputs()
		if len(kids) == 0 {
			return n
		}
		out := make([]engine.Node, len(kids))
		changed := false
		for i, k := range kids {
			out[i] = rewrite(k)
			changed = changed || out[i] != k
		}
		if !changed {
			return n
		}
		return engine.WithInputs(n, out)
	}
	root := rewrite(q.Root)
	if len(ids) == 0 {
		return
	}
	// The inputs only the dropped copies read go; the others are numbered again.
	var leaves []*engine.Input
	var walk func(n engine.Node)
	walk = func(n engine.Node) {
		if in, ok := n.(*engine.Input); ok {
			leaves = append(leaves, in)
		}
		for _, k := range n.Inputs() {
			walk(k)
		}
	}
	walk(root)
	renum := map[int]int{}
	var inputs []QueryPlan
	for i := range q.Inputs {
		for _, in := range leaves {
			if in.ID == i {
				renum[i] = len(inputs)
				inputs = append(inputs, q.Inputs[i])
				break
			}
		}
	}
	for _, in := range leaves {
		c := *in
		c.ID = renum[in.ID]
		*in = c
	}
	q.Inputs = inputs
	q.Root = root
}

// worthSharing reports whether a subtree aggregates or removes duplicates at its top
// (under projections and filters).
func worthSharing(n engine.Node) bool {
	switch x := n.(type) {
	case *engine.Aggregate, *engine.Distinct:
		return true
	case *engine.Project:
		return worthSharing(x.Input)
	case *engine.Filter:
		return worthSharing(x.Input)
	}
	return false
}

// shareable reports whether a subtree has neither lookup joins (their tables are numbered
// apart) nor placeholders (two alike may be bound to different values).
func shareable(n engine.Node) bool {
	ok := true
	var walk func(n engine.Node)
	walk = func(n engine.Node) {
		if _, isLookup := n.(*engine.LookupJoin); isLookup {
			ok = false
		}
		for _, k := range n.Inputs() {
			walk(k)
		}
	}
	walk(n)
	if !ok {
		return false
	}
	_, _ = engine.MapExprs(n, func(e engine.Expr) (engine.Expr, error) {
		engine.Walk(e, func(x engine.Expr) {
			if _, isParam := x.(*engine.Param); isParam {
				ok = false
			}
		})
		return e, nil
	})
	return ok
}
