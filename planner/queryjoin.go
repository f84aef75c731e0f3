package planner

import (
	"fmt"
	"slices"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// Joins: [INNER | LEFT] JOIN with an ON condition. With a primary-key
// table on the right whose key ON covers with equalities to the left side
// (the whole primary key, or the bucket key and the partition keys for a
// prefix lookup), the join is a streaming lookup join; any other join with
// at least one equality between the sides is a hash join that holds the
// right side in memory. The rest of ON is a residual condition evaluated on
// the joined rows. RIGHT JOIN, joins without ON and joins without an
// equality are refused.

// side tells which side of a join an expression's columns come from.
type side int

const (
	sideNone side = iota
	sideLeft
	sideRight
	sideBoth
)

// sideOf finds which of the scopes an expression's column references
// resolve in.
func sideOf(e parser.Expr, l, r *scope) (side, error) {
	s := sideNone
	var err error
	parser.Walk(e, func(x parser.Expr) bool {
		ref, ok := x.(*parser.ColumnRef)
		if !ok || err != nil {
			return err == nil
		}
		_, lerr := l.resolve(ref)
		_, rerr := r.resolve(ref)
		switch {
		case lerr == nil && rerr == nil:
			_, err = concat(l, r, false).resolve(ref) // the ambiguity error
		case lerr == nil:
			s |= sideLeft
		case rerr == nil:
			s |= sideRight
		default:
			_, err = concat(l, r, false).resolve(ref)
		}
		return err == nil
	})
	return s, err
}

// equality is a conjunct a = b of ON with a on the left and b on the right.
type equality struct {
	left, right parser.Expr
	conj        int // index among ON's conjuncts
}

// equalities splits ON into the equalities between the sides and the rest.
func equalitiesOf(on parser.Expr, l, r *scope) ([]equality, []parser.Expr, error) {
	if hasAggregate(on) {
		return nil, nil, fmt.Errorf("aggregate functions are not allowed in ON")
	}
	var eqs []equality
	conj := conjuncts(on)
	for i, c := range conj {
		if _, err := sideOf(c, l, r); err != nil {
			return nil, nil, fmt.Errorf("ON %s: %w", c, err)
		}
		cmp, ok := c.(*parser.Comparison)
		if !ok || cmp.Op != "=" {
			continue
		}
		a, _ := sideOf(cmp.Left, l, r)
		b, _ := sideOf(cmp.Right, l, r)
		switch {
		case a == sideLeft && b == sideRight:
			eqs = append(eqs, equality{left: cmp.Left, right: cmp.Right, conj: i})
		case a == sideRight && b == sideLeft:
			eqs = append(eqs, equality{left: cmp.Right, right: cmp.Left, conj: i})
		}
	}
	return eqs, conj, nil
}

// residualOf converts the conjuncts not used as join keys over the joined
// rows (nil when none is left).
func (b *builder) residualOf(conj []parser.Expr, used map[int]bool, joined *scope) (engine.Expr, error) {
	var rest []parser.Expr
	for i, c := range conj {
		if !used[i] && !b.applied[c] {
			rest = append(rest, c)
		}
	}
	if len(rest) == 0 {
		return nil, nil
	}
	e, err := b.scopeConv(joined).conv(andAll(rest))
	if err != nil {
		return nil, err
	}
	return condition("ON", e)
}

// scopeConv converts expressions of a join's ON over s; columns show
// qualified.
func (b *builder) scopeConv(s *scope) *exprConv {
	return &exprConv{info: s.infoNamed(true), slot: identity, sess: b.sess, scope: s}
}

func (b *builder) planJoin(fp *fromPlan, j *parser.Join, pushable bool) (*relation, error) {
	switch {
	case j.Kind == parser.JoinRight:
		return nil, notSupported("RIGHT JOIN is not supported; swap the two sides and write LEFT JOIN")
	case j.Kind != parser.JoinInner && j.Kind != parser.JoinLeft:
		return nil, notSupported("%s is not supported; write [INNER] JOIN or LEFT JOIN", j.Kind)
	case j.On == nil && j.Kind == parser.JoinLeft:
		return nil, notSupported("a LEFT JOIN needs ON with an equality of the two sides")
	}
	kind := engine.InnerJoin
	if j.Kind == parser.JoinLeft {
		kind = engine.LeftJoin
	}
	// ON's conjuncts filter the tables they alone name, as WHERE's do: both sides of an
	// INNER JOIN, the right side of a LEFT JOIN.
	on := conjuncts(j.On)
	if hasAggregate(j.On) {
		on = nil
	}
	where := fp.where
	defer func() { fp.where = where }()
	if kind == engine.InnerJoin {
		fp.where = append(where[:len(where):len(where)], on...)
	}
	left, err := b.planFrom(fp, j.Left, pushable)
	if err != nil {
		return nil, err
	}
	// The right side: WHERE's conjuncts only for an INNER JOIN (a LEFT JOIN's right side
	// is NULL-filled, which a WHERE on it would see), ON's always.
	if kind == engine.InnerJoin && pushable {
		fp.where = append(where[:len(where):len(where)], on...)
	} else {
		fp.where = on
	}
	if ref, ok := j.Right.(*parser.TableRef); ok {
		info, vt, err := b.readTable(ref.Table)
		if err != nil {
			return nil, err
		}
		if vt != nil && ref.AsOf != nil {
			return nil, fmt.Errorf("JOIN %s FOR SYSTEM_TIME AS OF %s: a virtual table is read from the log, never looked up; look up %s itself", ref.Table, ref.AsOf, vt.base.Path.Table)
		}
		if vt == nil && info.HasPrimaryKey() { // a virtual table is read, never looked up
			rel, why, err := b.lookupJoin(fp, kind, left, ref, info, b.notApplied(j.On))
			if err != nil || rel != nil {
				return rel, err
			}
			if ref.AsOf != nil {
				return nil, fmt.Errorf("JOIN %s FOR SYSTEM_TIME AS OF %s is a lookup join, and %s", ref.Table, ref.AsOf, why)
			}
			// Else a hash join, which reads the table (that needs a key filter in WHERE, or a full scan).
			right, err := b.planFrom(fp, &parser.TableRef{Table: ref.Table, Alias: ref.Alias, Hints: ref.Hints}, true)
			if err != nil {
				return nil, fmt.Errorf("JOIN %s: no lookup join, as %s; and reading the table for a hash join failed: %w", ref.Table, why, err)
			}
			return b.hashJoin(kind, left, right, b.notApplied(j.On))
		}
	}
	right, err := b.planFrom(fp, j.Right, true)
	if err != nil {
		return nil, err
	}
	return b.hashJoin(kind, left, right, b.notApplied(j.On))
}

// keyExpr converts the left side of a key equality to the type of the key
// column it is compared with, so that the lookup finds exactly the rows
// the equality holds for: the same type, an integer of another width (a
// value out of the key's range becomes NULL, which finds nothing) or a
// string for a STRING key. Other pairs (DOUBLE with INT, say) make no
// lookup join: ok is false and why says so.
func keyExpr(conv *exprConv, e parser.Expr, what string, t types.DataType) (x engine.Expr, why string, err error) {
	if x, err = conv.conv(e); err != nil {
		return nil, "", err
	}
	xt := x.Type()
	if _, err := engine.CommonType(xt, t); err != nil {
		return nil, "", fmt.Errorf("ON %s = %s: %w", e, what, err)
	}
	switch {
	case sameType(xt, t):
		return x, "", nil
	case sqlkind.IntWidth(xt.Kind) > 0 && sqlkind.IntWidth(t.Kind) > 0:
		if sqlkind.IntWidth(xt.Kind) > sqlkind.IntWidth(t.Kind) {
			lo, hi := sqlkind.IntRange(sqlkind.IntWidth(t.Kind))
			inRange, err := engine.NewLogic(true,
				must(engine.NewCompare(">=", x, &engine.Const{Value: lo, T: xt.AsNotNull(), Text: fmt.Sprint(lo)})),
				must(engine.NewCompare("<=", x, &engine.Const{Value: hi, T: xt.AsNotNull(), Text: fmt.Sprint(hi)})))
			if err != nil {
				return nil, "", err
			}
			if x, err = engine.NewCase([]engine.When{{Cond: inRange, Result: x}}, nil); err != nil {
				return nil, "", err
			}
		}
		x, err = engine.NewCast(x, t.AsNullable())
		return x, "", err
	case t.Kind == types.String && sqlkind.Is(xt.Kind, sqlkind.String):
		x, err = engine.NewCast(x, t.AsNullable())
		return x, "", err
	}
	return nil, fmt.Sprintf("ON %s = %s compares %s with the key's %s (a lookup needs a value of the key's type)", e, what, engine.TypeName(xt), engine.TypeName(t)), nil
}

func must(e engine.Expr, err error) engine.Expr {
	if err != nil {
		panic(err)
	}
	return e
}

func sameType(a, b types.DataType) bool {
	return a.Kind == b.Kind && a.Precision == b.Precision && a.Scale == b.Scale && a.Length == b.Length
}

// lookupJoin plans a lookup join when ON covers the table's primary key (or
// its bucket key and partition keys); else it returns nil and why not.
func (b *builder) lookupJoin(fp *fromPlan, kind engine.JoinKind, left *relation, ref *parser.TableRef, info *fluss.TableInfo, on parser.Expr) (*relation, string, error) {
	right := &scope{}
	for _, c := range info.Schema().Columns {
		right.cols = append(right.cols, scopeCol{qual: ref.Name(), name: c.Name, typ: c.Type})
	}
	eqs, conj, err := equalitiesOf(on, left.scope, right)
	if err != nil {
		return nil, "", err
	}
	// The key columns ON equates with left expressions (the first equality
	// of each).
	keyOf := map[string]equality{}
	for _, e := range eqs {
		if cr, ok := e.right.(*parser.ColumnRef); ok {
			if idx, err := right.resolve(cr); err == nil {
				name := info.Schema().Columns[idx].Name
				if _, dup := keyOf[name]; !dup {
					keyOf[name] = e
				}
			}
		}
	}
	covers := func(cols []string) bool {
		for _, c := range cols {
			if _, ok := keyOf[c]; !ok {
				return false
			}
		}
		return true
	}
	pk := info.Schema().PrimaryKey
	keyCols, prefix := pk, false
	if !covers(pk) {
		bucket, phys := info.BucketKeys(), info.PhysicalPrimaryKey()
		pre := append(slices.Clone(bucket), info.PartitionKeys()...)
		if len(bucket) > 0 && len(bucket) < len(phys) && slices.Equal(bucket, phys[:len(bucket)]) && covers(pre) {
			keyCols, prefix = pre, true
		} else {
			why := "ON must equate every primary-key column " + keyList(pk) + " of " + ref.Name() + " with an expression of the left side"
			if info.IsPartitioned() {
				why += " (the partition keys " + keyList(info.PartitionKeys()) + " included)"
			}
			if len(bucket) > 0 && len(bucket) < len(phys) && slices.Equal(bucket, phys[:len(bucket)]) {
				why += ", or the bucket key and partition keys " + keyList(pre) + " for a prefix lookup"
			}
			return nil, why, nil
		}
	}
	if ref.Hints != nil {
		return nil, "", fmt.Errorf("OPTIONS hints apply to scans; %s is read by lookups in this join", ref.Table)
	}
	conv := b.scopeConv(left.scope)
	used := map[int]bool{}
	var exprs []engine.Expr
	for _, c := range keyCols {
		e := keyOf[c]
		col := info.Schema().Columns[info.Schema().Index(c)]
		x, why, err := keyExpr(conv, e.left, ref.Name()+"."+parser.QuoteIdent(c), col.Type)
		if err != nil || x == nil {
			return nil, why, err
		}
		exprs = append(exprs, x)
		used[e.conj] = true
	}
	joined := concat(left.scope, right, kind == engine.LeftJoin)
	residual, err := b.residualOf(conj, used, joined)
	if err != nil {
		return nil, "", err
	}
	var cols []engine.Column
	for _, c := range info.Schema().Columns {
		cols = append(cols, engine.Column{Name: c.Name, Type: c.Type})
	}
	node := &engine.LookupJoin{Kind: kind, Left: left.node, ID: len(fp.lookups), Table: info.Path.String(), Alias: ref.Name(), Prefix: prefix,
		KeyCols: keyCols, KeyExprs: exprs, Cols: cols, Residual: residual}
	fp.lookups = append(fp.lookups, &LookupTable{Table: info, KeyCols: keyCols, Prefix: prefix})
	return &relation{node: node, scope: joined, bounded: left.bounded}, "", nil
}

// hashJoin plans a hash join of two relations on ON's equalities.
func (b *builder) hashJoin(kind engine.JoinKind, left, right *relation, on parser.Expr) (*relation, error) {
	if !right.bounded {
		return nil, needsStreaming("the right side of a hash join is held in memory and must be bounded; an unbounded scan ('%s' = 'false') can only be joined by a lookup join", HintBounded)
	}
	eqs, conj, err := equalitiesOf(on, left.scope, right.scope)
	if err != nil {
		return nil, err
	}
	if len(eqs) == 0 && kind != engine.SemiJoin && kind != engine.AntiJoin { // a subquery's join may pair every row
		return b.nestedLoopJoin(kind, left, right, on)
	}
	lc, rc := b.scopeConv(left.scope), b.scopeConv(right.scope)
	used := map[int]bool{}
	node := &engine.HashJoin{Kind: kind, Left: left.node, Right: right.node}
	for _, e := range eqs {
		l, err := lc.conv(e.left)
		if err != nil {
			return nil, err
		}
		r, err := rc.conv(e.right)
		if err != nil {
			return nil, err
		}
		t, err := engine.CommonType(l.Type(), r.Type())
		if err != nil {
			return nil, fmt.Errorf("ON %s = %s: %w", e.left, e.right, err)
		}
		if l, err = castTo(l, t); err != nil {
			return nil, err
		}
		if r, err = castTo(r, t); err != nil {
			return nil, err
		}
		node.LeftKeys, node.RightKeys = append(node.LeftKeys, l), append(node.RightKeys, r)
		used[e.conj] = true
	}
	joined := concat(left.scope, right.scope, kind == engine.LeftJoin)
	if node.Residual, err = b.residualOf(conj, used, joined); err != nil {
		return nil, err
	}
	return &relation{node: node, scope: joined, bounded: left.bounded}, nil
}

func castTo(e engine.Expr, t types.DataType) (engine.Expr, error) {
	if sameType(e.Type(), t) {
		return e, nil
	}
	return engine.NewCast(e, t.AsNullable())
}
