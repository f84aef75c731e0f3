package parser

import (
	"strconv"
	"strings"

	"github.com/xwb1989/sqlparser"
)

// SetKind is the operator of a set operation.
type SetKind string

// The set operators. INTERSECT binds tighter than UNION and EXCEPT; NULLs
// are equal to each other in all of them.
const (
	UnionAll      SetKind = "UNION ALL"
	UnionDistinct SetKind = "UNION"
	Intersect     SetKind = "INTERSECT"
	IntersectAll  SetKind = "INTERSECT ALL"
	Except        SetKind = "EXCEPT"
	ExceptAll     SetKind = "EXCEPT ALL"
)

// Op is the union's operator, UNION ALL when Kind is unset.
func (u *Union) Op() SetKind {
	if u.Kind == "" {
		return UnionAll
	}
	return u.Kind
}

// cteQuery is a converted common table expression.
type cteQuery struct {
	query Statement
	cols  []string
}

// withParts recognises a rewritten WITH (see rewriteWith): SELECT * FROM
// (cte) AS __flussql_cte_N, …, (main) AS __flussql_withG. It returns the
// CTEs' bodies and numbers, the main query and G; ok is false for any
// other SELECT.
func (c *converter) withParts(sel *sqlparser.Select) (bodies []sqlparser.SelectStatement, ids []int, main sqlparser.SelectStatement, g int, ok bool) {
	if c.q == nil || c.q.shapes == nil || len(c.q.shapes.mains) == 0 || len(sel.From) < 2 {
		return nil, nil, nil, 0, false
	}
	for i, te := range sel.From {
		ate, isAliased := te.(*sqlparser.AliasedTableExpr)
		if !isAliased {
			return nil, nil, nil, 0, false
		}
		sub, isSub := ate.Expr.(*sqlparser.Subquery)
		if !isSub {
			return nil, nil, nil, 0, false
		}
		prefix, n := ctePrefix, len(c.q.shapes.ctes)
		if i == len(sel.From)-1 {
			prefix, n = withMain, len(c.q.shapes.mains)
		}
		num, isNum := strings.CutPrefix(ate.As.String(), prefix)
		k, err := strconv.Atoi(num)
		if !isNum || err != nil || k < 0 || k >= n {
			return nil, nil, nil, 0, false
		}
		if i == len(sel.From)-1 {
			main, g = sub.Select, k
		} else {
			bodies, ids = append(bodies, sub.Select), append(ids, k)
		}
	}
	return bodies, ids, main, g, true
}

// withQuery converts a rewritten WITH: each CTE's body with the CTEs before
// it (and those of enclosing WITHs) in scope, then the main query with all
// of them; top tells a statement from a query in parentheses.
func (c *converter) withQuery(bodies []sqlparser.SelectStatement, ids []int, main sqlparser.SelectStatement, g int, top bool) (Statement, error) {
	sh := c.q.shapes
	savedCtes, savedStart := c.ctes, c.start
	defer func() { c.ctes, c.start = savedCtes, savedStart }()
	defined := map[string]*cteQuery{}
	for name, q := range savedCtes {
		defined[name] = q
	}
	for i, id := range ids {
		def := sh.ctes[id]
		c.start, c.ctes = def.start, defined
		q, err := c.subquery(bodies[i])
		if err != nil {
			return nil, err
		}
		next := make(map[string]*cteQuery, len(defined)+1)
		for name, q := range defined {
			next[name] = q
		}
		next[def.name] = &cteQuery{query: q, cols: def.cols}
		defined = next
	}
	c.start, c.ctes = sh.mains[g], defined
	for {
		p, ok := main.(*sqlparser.ParenSelect)
		if !ok {
			break
		}
		main = p.Select
	}
	if top {
		return c.statement(main, false)
	}
	return c.subquery(main)
}

// cteRef makes a FROM reference to a common table expression a subquery
// (nil when name is not one).
func (c *converter) cteRef(name sqlparser.TableName, alias string) *SubqueryRef {
	if c.ctes == nil || !name.Qualifier.IsEmpty() {
		return nil
	}
	t, _ := c.tableHints(name)
	cte := c.ctes[t.Name]
	if cte == nil {
		return nil
	}
	if alias == "" {
		alias = t.Name
	}
	return &SubqueryRef{Query: cte.query, Alias: alias, Columns: cte.cols}
}

// derivedAlias takes the stand-in alias of a subquery with a column list
// apart (see rewriteDerived).
func (c *converter) derivedAlias(alias string) (string, []string) {
	n, ok := strings.CutPrefix(alias, colsPrefix)
	if !ok || c.q.shapes == nil {
		return alias, nil
	}
	k, err := strconv.Atoi(n)
	if err != nil || k < 0 || k >= len(c.q.shapes.derived) {
		return alias, nil
	}
	d := c.q.shapes.derived[k]
	return d.alias, d.cols
}

// commaList converts a FROM list a, b, c into comma joins, left-deep.
func (c *converter) commaList(exprs sqlparser.TableExprs) (FromItem, error) {
	var out FromItem
	for _, te := range exprs {
		f, err := c.fromItem(te)
		if err != nil {
			return nil, err
		}
		if out == nil {
			out = f
		} else {
			out = &Join{Kind: JoinComma, Left: out, Right: f}
		}
	}
	return out, nil
}

// setOperation converts a chain of UNION [ALL], INTERSECT [ALL] and EXCEPT
// [ALL] (the latter two rewritten to UNION ALL with a mark): INTERSECT
// binds tighter, operators of equal precedence fold from the left.
func (c *converter) setOperation(n *sqlparser.Union) (Statement, error) {
	var operands []sqlparser.SelectStatement
	var ops []SetKind
	var flatten func(n *sqlparser.Union)
	flatten = func(n *sqlparser.Union) {
		if l, ok := n.Left.(*sqlparser.Union); ok && len(l.OrderBy) == 0 && l.Limit == nil {
			flatten(l)
		} else {
			operands = append(operands, n.Left)
		}
		kind := UnionDistinct
		if n.Type == sqlparser.UnionAllStr {
			kind = UnionAll
		}
		if m := setOpMark(n.Right); m != "" {
			kind = m
		}
		ops = append(ops, kind)
		operands = append(operands, n.Right)
	}
	flatten(n)
	stmts := make([]Statement, len(operands))
	for i, o := range operands {
		q, err := c.subquery(o)
		if err != nil {
			return nil, err
		}
		stmts[i] = q
	}
	terms := []Statement{stmts[0]}
	var termOps []SetKind
	for i, op := range ops {
		if op == Intersect || op == IntersectAll {
			terms[len(terms)-1] = combineSet(op, terms[len(terms)-1], stmts[i+1])
			continue
		}
		termOps = append(termOps, op)
		terms = append(terms, stmts[i+1])
	}
	out := terms[0]
	for i, op := range termOps {
		out = combineSet(op, out, terms[i+1])
	}
	return out, nil
}

// combineSet is a op b, extending a when it is a set operation of the same
// kind (and b too, for the associative ones).
func combineSet(op SetKind, a, b Statement) Statement {
	u, ok := a.(*Union)
	if !ok || u.Op() != op {
		u = &Union{Kind: op, Selects: []*Select{asSelect(a)}}
	} else {
		u = &Union{Kind: op, Selects: append([]*Select(nil), u.Selects...)}
	}
	if bu, ok := b.(*Union); ok && bu.Op() == op && op != Except && op != ExceptAll {
		u.Selects = append(u.Selects, bu.Selects...)
	} else {
		u.Selects = append(u.Selects, asSelect(b))
	}
	if u.Kind == UnionAll {
		u.Kind = "" // as UNION ALL always was
	}
	return u
}

// asSelect is a query as a SELECT: SELECT * FROM (it) for a set operation.
func asSelect(st Statement) *Select {
	if s, ok := st.(*Select); ok {
		return s
	}
	return &Select{Items: []SelectItem{{Expr: &Star{}}}, From: &SubqueryRef{Query: st}}
}
