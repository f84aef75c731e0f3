package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// fromClause converts a FROM list: a plain table without alias comes back
// as its name and hint (the single-table SELECT); anything else as a
// FromItem.
func (c *converter) fromClause(exprs sqlparser.TableExprs) (TableName, map[string]string, FromItem, error) {
	if len(exprs) != 1 {
		f, err := c.commaList(exprs)
		return TableName{}, nil, f, err
	}
	if te, ok := exprs[0].(*sqlparser.AliasedTableExpr); ok {
		if name, ok := te.Expr.(sqlparser.TableName); ok && te.As.IsEmpty() && c.cteRef(name, "") == nil {
			if t, h := c.tableHints(name); c.q.asOf[t.Name] == nil {
				if _, err := c.singleTable(exprs); err != nil {
					return TableName{}, nil, nil, err
				}
				return t, h, nil, nil
			}
		}
	}
	f, err := c.fromItem(exprs[0])
	return TableName{}, nil, f, err
}

func (c *converter) fromItem(te sqlparser.TableExpr) (FromItem, error) {
	switch n := te.(type) {
	case *sqlparser.AliasedTableExpr:
		if len(n.Partitions) > 0 {
			return nil, c.unsupportedUse("PARTITION (…) after a table name", "filter on the partition columns instead", "partition")
		}
		if n.Hints != nil {
			return nil, c.unsupported("an index hint", "use", "ignore", "force")
		}
		switch x := n.Expr.(type) {
		case sqlparser.TableName:
			if sq := c.cteRef(x, n.As.String()); sq != nil {
				return sq, nil
			}
			t, h := c.tableHints(x)
			return &TableRef{Table: t, Alias: n.As.String(), Hints: h, AsOf: c.q.asOf[t.Name]}, nil
		case *sqlparser.Subquery:
			q, err := c.subquery(x.Select)
			if err != nil {
				return nil, err
			}
			alias, cols := c.derivedAlias(n.As.String())
			if alias == subqueryAlias {
				alias = ""
			}
			return &SubqueryRef{Query: q, Alias: alias, Columns: cols}, nil
		}
	case *sqlparser.ParenTableExpr:
		return c.commaList(n.Exprs)
	case *sqlparser.JoinTableExpr:
		var kind JoinKind
		switch n.Join {
		case sqlparser.JoinStr:
			kind = JoinInner
		case sqlparser.LeftJoinStr:
			kind = JoinLeft
		case sqlparser.RightJoinStr:
			kind = JoinRight
		case sqlparser.StraightJoinStr:
			return nil, c.unsupported("STRAIGHT_JOIN", "straight_join")
		default:
			return nil, c.unsupportedUse("NATURAL JOIN", "write JOIN … ON", "natural")
		}
		if len(n.Condition.Using) > 0 {
			return nil, c.unsupportedUse("JOIN … USING", "write JOIN … ON a.x = b.x", "using")
		}
		l, err := c.fromItem(n.LeftExpr)
		if err != nil {
			return nil, err
		}
		r, err := c.fromItem(n.RightExpr)
		if err != nil {
			return nil, err
		}
		j := &Join{Kind: kind, Left: l, Right: r}
		if n.Condition.On != nil {
			saved := c.scope
			c.scope = fromNames(j)
			j.On, err = c.condition(n.Condition.On)
			c.scope = saved
			if err != nil {
				return nil, err
			}
		}
		return j, nil
	}
	return nil, c.unsupported("this FROM item", "from")
}

// fromNames lists the names a FROM item's columns may be qualified with.
func fromNames(f FromItem) []string {
	switch n := f.(type) {
	case *TableRef:
		return []string{n.Name()}
	case *SubqueryRef:
		if n.Alias != "" {
			return []string{n.Alias}
		}
	case *Join:
		return append(fromNames(n.Left), fromNames(n.Right)...)
	}
	return nil
}

// subquery converts a SELECT or UNION ALL nested in FROM; its own table
// names and aliases are the qualifiers inside it.
func (c *converter) subquery(st sqlparser.SelectStatement) (Statement, error) {
	savedTable, savedScope, savedNested := c.table, c.scope, c.nested
	defer func() { c.table, c.scope, c.nested = savedTable, savedScope, savedNested }()
	c.nested = true
	switch n := st.(type) {
	case *sqlparser.Select:
		if bodies, ids, main, g, ok := c.withParts(n); ok {
			return c.withQuery(bodies, ids, main, g, false)
		}
		return c.selectStmt(n)
	case *sqlparser.ParenSelect:
		return c.subquery(n.Select)
	case *sqlparser.Union:
		return c.union(n)
	}
	return nil, c.unsupported("this subquery", "select")
}

// union converts a chain of set operations (UNION [ALL], INTERSECT [ALL],
// EXCEPT [ALL]); a top-level one with ORDER BY or LIMIT becomes SELECT *
// FROM (the set operation) with them.
func (c *converter) union(n *sqlparser.Union) (Statement, error) {
	if n.Lock != "" {
		return nil, c.unsupported("a locking clause", "for", "lock")
	}
	savedNested := c.nested
	c.nested = true
	u, err := c.setOperation(n)
	c.nested = savedNested
	if err != nil {
		return nil, err
	}
	if len(n.OrderBy) == 0 && n.Limit == nil {
		return u, nil
	}
	s := &Select{Items: []SelectItem{{Expr: &Star{}}}, From: &SubqueryRef{Query: u}}
	if err := c.orderLimit(s, n.OrderBy, n.Limit); err != nil {
		return nil, err
	}
	return s, nil
}

// topUnion converts a statement-level UNION ALL as a SELECT * over it.
func (c *converter) topUnion(n *sqlparser.Union) (Statement, error) {
	q, err := c.union(n)
	if err != nil {
		return nil, err
	}
	if u, ok := q.(*Union); ok {
		return &Select{Items: []SelectItem{{Expr: &Star{}}}, From: &SubqueryRef{Query: u}}, nil
	}
	return q, nil
}

// qualifierOK reports whether a column qualifier names a source of the
// statement.
func (c *converter) qualifierOK(q TableName) (bool, string) {
	if c.outerOK(q) {
		return true, ""
	}
	if c.scope == nil {
		return q.Name == c.table.Name && (q.Database == "" || q.Database == c.table.Database), c.table.String()
	}
	if q.Database == "" {
		for _, n := range c.scope {
			if n == q.Name {
				return true, ""
			}
		}
	}
	return false, strings.Join(c.scope, ", ")
}
