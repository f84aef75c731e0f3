package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// Field access after a subscript, as Flink writes it: arr[1].f is field f
// of the ROW element arr[1], MAP_ENTRIES(m)[1].`key` the key of an entry.
// sqlparser reads no field of a call, so x[i].f becomes
// __flussql_field(__flussql_elem(x, i), 'f'), which the converter turns
// into a FieldAccess on the Subscript.

// fieldFunc names the stand-in function of a field access on a value.
const fieldFunc = reservedPrefix + "field"

// rewriteSubscriptFields rewrites the .f.g… following the ']' at k that
// closes a subscript whose elem( insertion is rw.edits[elem]; it returns
// the index of the last token rewritten (k when no field follows).
func (l *lexed) rewriteSubscriptFields(k int, rw *rewrite, elem int) int {
	for k+2 < len(l.toks) && l.toks[k+1].typ == '.' {
		name, ok := l.identValue(l.toks[k+2])
		if !ok {
			return k
		}
		// The wrapper goes before the elem( already inserted at the same
		// offset: it is prepended to that insertion.
		rw.edits[elem].repl = fieldFunc + "(" + rw.edits[elem].repl
		rw.add(l.toks[k+1].start, l.toks[k+2].end, ", '"+strings.ReplaceAll(name, "'", "''")+"')")
		k += 2
	}
	return k
}

// fieldAccess converts a call of fieldFunc: its value and the field name.
func (c *converter) fieldAccess(n *sqlparser.FuncExpr) (Expr, error) {
	if len(n.Exprs) == 2 {
		base, ok1 := n.Exprs[0].(*sqlparser.AliasedExpr)
		name, ok2 := n.Exprs[1].(*sqlparser.AliasedExpr)
		if ok1 && ok2 {
			if v, ok := name.Expr.(*sqlparser.SQLVal); ok && v.Type == sqlparser.StrVal {
				x, err := c.expr(base.Expr)
				if err != nil {
					return nil, err
				}
				return &FieldAccess{Base: x, Field: string(v.Val)}, nil
			}
		}
	}
	return nil, c.nodeErr(n, "write x[i].field with the name of a field of the ROW x[i]")
}
