package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
)

// Query is a SELECT that the client finishes: Source reads rows on the
// server (a *Scan, *Lookup, *PrefixLookup or *LimitScan with every
// pushdown it allows; nil without FROM) and Root, an engine operator tree,
// runs in the driver over Source's rows. Root's Input leaf receives, for a
// Scan, batches of its projected columns, and for the other sources full
// table rows as batches.
type Query struct {
	Source QueryPlan
	Root   engine.Node
	// Inputs, for a FROM with joins, subqueries or UNION ALL (Source is then
	// nil), are the server reads feeding Root's Input leaves: Inputs[i]
	// feeds the leaf with ID i.
	Inputs []QueryPlan
	// Lookups are the tables of Root's LookupJoin nodes (Lookups[ID]).
	Lookups []*LookupTable
	// LimitValue and OffsetValue are LIMIT and OFFSET as written (nil when
	// absent); Bind puts their values into Root's Sort or Limit node.
	LimitValue, OffsetValue *Value
	// Limit and Offset are the bound values (-1 and 0 when absent).
	Limit, Offset int64
	Placeholders
}

// ResultColumns implements QueryPlan.
func (q *Query) ResultColumns() []ResultColumn {
	cols := q.Root.Columns()
	out := make([]ResultColumn, len(cols))
	for i, c := range cols {
		out[i] = ResultColumn{Name: c.Name, Type: c.Type}
	}
	return out
}

// String describes the plan for EXPLAIN: the operators the client runs,
// then the read the server does.
func (q *Query) String() string {
	var b strings.Builder
	b.WriteString("Query\n  client (flussql engine, over Arrow batches):\n")
	b.WriteString(engine.Format(q.Root, "    "))
	switch {
	case len(q.Inputs) > 0 || len(q.Lookups) > 0:
		for i, in := range q.Inputs {
			fmt.Fprintf(&b, "  server, input %d:\n", i)
			for _, line := range strings.Split(strings.TrimRight(in.String(), "\n"), "\n") {
				b.WriteString("    " + line + "\n")
			}
			if j := q.SharedWith(i); j >= 0 {
				fmt.Fprintf(&b, "    read once with input %d: one scan of the columns of both\n", j)
			}
		}
		for i, l := range q.Lookups {
			fmt.Fprintf(&b, "  server, lookup join %d: %s\n", i, l)
		}
	case q.Source == nil:
		b.WriteString("  server: nothing (no FROM)\n")
	default:
		b.WriteString("  server:\n")
		for _, line := range strings.Split(strings.TrimRight(q.Source.String(), "\n"), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	d := &desc{}
	d.pending(q.Placeholders)
	b.WriteString(d.String())
	return b.String()
}

// SharedWith returns the first input before Inputs[i] that reads the same rows (see
// Scan.SharesRead), which the driver reads once for both; -1 when there is none.
func (q *Query) SharedWith(i int) int {
	s, ok := q.Inputs[i].(*Scan)
	if !ok {
		return -1
	}
	for j := range i {
		if o, ok := q.Inputs[j].(*Scan); ok && o.SharesRead(s) {
			return j
		}
	}
	return -1
}

func (*Query) plan() {}

func (q *Query) bind(bd *binder) (Plan, error) {
	out := *q
	if q.Source != nil {
		src, err := q.Source.(bindable).bind(bd)
		if err != nil {
			return nil, err
		}
		out.Source = src.(QueryPlan)
		src.(bindable).placeholders().bound = true
	}
	out.Inputs = make([]QueryPlan, len(q.Inputs))
	for i, in := range q.Inputs {
		src, err := in.(bindable).bind(bd)
		if err != nil {
			return nil, err
		}
		src.(bindable).placeholders().bound = true
		out.Inputs[i] = src.(QueryPlan)
	}
	var err error
	out.Limit, out.Offset = -1, 0
	if q.LimitValue != nil {
		if out.Limit, err = bindCount(bd, "LIMIT", q.LimitValue); err != nil {
			return nil, err
		}
	}
	if q.OffsetValue != nil {
		if out.Offset, err = bindCount(bd, "OFFSET", q.OffsetValue); err != nil {
			return nil, err
		}
	}
	root, err := engine.MapExprs(q.Root, func(e engine.Expr) (engine.Expr, error) {
		return engine.Bind(e, func(p *engine.Param) (engine.Expr, error) { return bindParam(bd, p) })
	})
	if err != nil {
		return nil, err
	}
	if err := bindPending(bd, root); err != nil {
		return nil, err
	}
	if q.LimitValue != nil || q.OffsetValue != nil {
		setBounds(root, out.Limit, out.Offset)
	}
	out.Root = root
	if ls, ok := out.Source.(*LimitScan); ok && out.Limit >= 0 {
		// A limit scan reads LIMIT + OFFSET rows from each bucket.
		c := *ls
		c.Limit = out.Limit + out.Offset
		out.Source = &c
	}
	if ks, ok := out.Source.(*KvScan); ok && ks.PushLimit && out.Limit >= 0 {
		c := *ks // LIMIT + OFFSET rows of each bucket are enough
		c.Limit = out.Limit + out.Offset
		out.Source = &c
	}
	return &out, nil
}

func bindCount(bd *binder, what string, v *Value) (int64, error) {
	b, err := bd.value(*v)
	if err != nil {
		return 0, err
	}
	n, ok := b.Const.(int64)
	if !ok || n < 0 {
		return 0, fmt.Errorf("%s must be a non-negative integer, not %s", what, b)
	}
	return n, nil
}

// setBounds puts LIMIT and OFFSET into the tree's Sort or Limit node (the
// nodes are the copies MapExprs made).
func setBounds(n engine.Node, limit, offset int64) {
	switch x := n.(type) {
	case *engine.Sort:
		x.Limit, x.Offset = limit, offset
		return
	case *engine.Limit:
		x.Limit, x.Offset = limit, offset
		return
	}
	for _, c := range n.Inputs() {
		setBounds(c, limit, offset)
	}
}

// pendingBounds are a subquery's LIMIT and OFFSET with a placeholder, kept
// in its Sort or Limit node (engine's Pending) until the statement binds.
type pendingBounds struct{ limit, offset *Value }

// String renders the bounds as written, e.g. "?1 OFFSET ?2".
func (p *pendingBounds) String() string {
	var parts []string
	if p.limit != nil {
		parts = append(parts, p.limit.String())
	}
	if p.offset != nil {
		parts = append(parts, "OFFSET "+p.offset.String())
	}
	return strings.Join(parts, " ")
}

// setPending marks the Sort or Limit node that setBounds would set.
func setPending(n engine.Node, p *pendingBounds) {
	switch x := n.(type) {
	case *engine.Sort:
		x.Pending = p
		return
	case *engine.Limit:
		x.Pending = p
		return
	}
	for _, c := range n.Inputs() {
		setPending(c, p)
	}
}

// bindPending binds the pending bounds of root, a copy made by
// engine.MapExprs (whose Sort and Limit nodes are copies too).
func bindPending(bd *binder, n engine.Node) error {
	var pb *pendingBounds
	var limit, offset *int64
	switch x := n.(type) {
	case *engine.Sort:
		pb, _ = x.Pending.(*pendingBounds)
		limit, offset = &x.Limit, &x.Offset
		x.Pending = nil
	case *engine.Limit:
		pb, _ = x.Pending.(*pendingBounds)
		limit, offset = &x.Limit, &x.Offset
		x.Pending = nil
	}
	if pb != nil {
		var err error
		*limit, *offset = -1, 0
		if pb.limit != nil {
			if *limit, err = bindCount(bd, "LIMIT", pb.limit); err != nil {
				return fmt.Errorf("LIMIT of a subquery: %w", err)
			}
		}
		if pb.offset != nil {
			if *offset, err = bindCount(bd, "OFFSET", pb.offset); err != nil {
				return fmt.Errorf("OFFSET of a subquery: %w", err)
			}
		}
	}
	for _, c := range n.Inputs() {
		if err := bindPending(bd, c); err != nil {
			return err
		}
	}
	return nil
}

// LookupTable is the table a LookupJoin looks its keys up in: by the
// primary key, or by a prefix (bucket key and partition keys) when Prefix.
type LookupTable struct {
	Table   *fluss.TableInfo
	KeyCols []string
	Prefix  bool
}

func (l *LookupTable) String() string {
	what := "Lookup"
	if l.Prefix {
		what = "PrefixLookup"
	}
	return fmt.Sprintf("%s %s by %s, one batched request per input batch", what, l.Table.Path, keyList(l.KeyCols))
}
