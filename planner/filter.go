package planner

import (
	"errors"
	"fmt"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// Filter is a compiled WHERE clause, evaluated on the client over input
// rows in the value model. It follows SQL's three-valued logic: a
// comparison with NULL is unknown, and only rows for which the condition
// is TRUE pass. Values are converted to their columns' types when the
// filter is built (constants) or bound (placeholders), never per row.
type Filter struct {
	root  fnode
	width int // input rows must have at least this many values
}

// Eval reports whether the row passes. A nil Filter passes every row.
func (f *Filter) Eval(row []any) (bool, error) {
	if f == nil {
		return true, nil
	}
	if len(row) < f.width {
		return false, fmt.Errorf("planner: filter needs %d values, row has %d", f.width, len(row))
	}
	return f.root.eval(row) == tTrue, nil
}

// String renders the condition as SQL, with bound values in place of
// placeholders.
func (f *Filter) String() string {
	if f == nil {
		return "none"
	}
	return f.root.String()
}

func (f *Filter) bind(bd *binder) (*Filter, error) {
	if f == nil {
		return nil, nil
	}
	root, err := f.root.bind(bd)
	if err != nil {
		return nil, err
	}
	return &Filter{root: root, width: f.width}, nil
}

// tri is a truth value of three-valued logic.
type tri int8

const (
	tFalse tri = iota
	tTrue
	tUnknown
)

func triOf(b bool) tri {
	if b {
		return tTrue
	}
	return tFalse
}

type fnode interface {
	eval(row []any) tri
	bind(bd *binder) (fnode, error)
	String() string
}

// operand is a column of the input row or a value.
type operand struct {
	slot int // input row position; -1 for a value
	name string
	val  Value
}

func (o operand) get(row []any) any {
	if o.slot >= 0 {
		return row[o.slot]
	}
	return o.val.Const
}

func (o operand) bind(bd *binder) (operand, error) {
	if o.slot >= 0 {
		return o, nil
	}
	v, err := bd.value(o.val)
	o.val = v
	return o, err
}

func (o operand) String() string {
	if o.slot >= 0 {
		return parser.QuoteIdent(o.name)
	}
	return o.val.String()
}

func bindAll(bd *binder, ops []operand) ([]operand, error) {
	out := make([]operand, len(ops))
	for i, o := range ops {
		b, err := o.bind(bd)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// compiler builds a Filter for one table and input row layout.
type compiler struct {
	info  *fluss.TableInfo
	slot  func(col int) int // table column index → input row position
	loc   *time.Location
	width int
}

func (c *compiler) compile(e parser.Expr) (*Filter, error) {
	if e == nil {
		return nil, nil
	}
	root, err := c.node(e)
	if err != nil {
		return nil, err
	}
	return &Filter{root: root, width: c.width}, nil
}

// errEngineOnly is the row filter's answer for a condition only the query
// engine evaluates (LIKE … ESCAPE): the SELECT is planned as a Query.
var errEngineOnly = errors.New("planner: this condition is evaluated by the query engine")

func (c *compiler) node(e parser.Expr) (fnode, error) {
	switch n := e.(type) {
	case *parser.And:
		l, r, err := c.pair(n.Left, n.Right)
		return &andNode{l, r}, err
	case *parser.Or:
		l, r, err := c.pair(n.Left, n.Right)
		return &orNode{l, r}, err
	case *parser.Not:
		x, err := c.node(n.Expr)
		return &notNode{x}, err
	case *parser.Comparison:
		ops, err := c.operands(n, n.Left, n.Right)
		if err != nil {
			return nil, err
		}
		return &cmpNode{op: n.Op, l: ops[0], r: ops[1]}, nil
	case *parser.In:
		ops, err := c.operands(n, append([]parser.Expr{n.Expr}, n.List...)...)
		if err != nil {
			return nil, err
		}
		return &inNode{x: ops[0], list: ops[1:], not: n.Not}, nil
	case *parser.Between:
		ops, err := c.operands(n, n.Expr, n.Low, n.High)
		if err != nil {
			return nil, err
		}
		return &betweenNode{x: ops[0], lo: ops[1], hi: ops[2], not: n.Not}, nil
	case *parser.IsNull:
		if ref, ok := n.Expr.(*parser.ColumnRef); ok {
			if idx, err := column(c.info, ref.Name); err == nil {
				if col := c.info.Schema().Columns[idx]; !comparableKind(col.Type.Kind) {
					// ARRAY, MAP and ROW values compare with nothing, but are NULL or not.
					return &isNullNode{x: operand{slot: c.slot(idx), name: col.Name, val: Value{Column: col.Name, Type: col.Type}}, not: n.Not}, nil
				}
			}
		}
		ops, err := c.operands(n, n.Expr)
		if err != nil {
			return nil, err
		}
		return &isNullNode{x: ops[0], not: n.Not}, nil
	case *parser.Like:
		if n.Escape != nil {
			// The query engine evaluates it (selectStmt falls back to a Query).
			return nil, errEngineOnly
		}
		if ref, ok := n.Expr.(*parser.ColumnRef); ok {
			if idx, err := column(c.info, ref.Name); err == nil {
				if t := c.info.Schema().Columns[idx].Type; !sqlkind.Is(t.Kind, sqlkind.String) {
					return nil, fmt.Errorf("LIKE needs a string column; column %q is %s", ref.Name, typeName(t))
				}
			}
		}
		ops, err := c.operands(n, n.Expr, n.Pattern)
		if err != nil {
			return nil, err
		}
		return &likeNode{x: ops[0], pattern: ops[1], not: n.Not}, nil
	case *parser.ColumnRef:
		ops, err := c.operands(n, n)
		if err != nil {
			return nil, err
		}
		if !sqlkind.Is(ops[0].val.Type.Kind, sqlkind.Boolean) {
			return nil, fmt.Errorf("column %q is %s; a column alone is a condition only when it is BOOLEAN", n.Name, typeName(ops[0].val.Type))
		}
		return &boolNode{x: ops[0]}, nil
	case *parser.Literal:
		switch n.Kind {
		case parser.LitBool:
			return constNode(triOf(n.Value == "true")), nil
		case parser.LitNull:
			return constNode(tUnknown), nil
		}
	}
	return nil, fmt.Errorf("%s is not a condition; write a comparison, IN, BETWEEN, IS NULL, LIKE or a BOOLEAN column", e)
}

func (c *compiler) pair(a, b parser.Expr) (fnode, fnode, error) {
	x, err := c.node(a)
	if err != nil {
		return nil, nil, err
	}
	y, err := c.node(b)
	return x, y, err
}

// operands resolves the operands of one predicate. At least one must be a
// column; values are converted to the type of the first column, and
// columns must be comparable with it. A column operand carries its type in
// val.Type.
func (c *compiler) operands(pred parser.Expr, es ...parser.Expr) ([]operand, error) {
	anchor := -1
	ops := make([]operand, len(es))
	for i, e := range es {
		ref, ok := e.(*parser.ColumnRef)
		if !ok {
			continue
		}
		idx, err := column(c.info, ref.Name)
		if err != nil {
			return nil, err
		}
		col := c.info.Schema().Columns[idx]
		if !comparableKind(col.Type.Kind) {
			return nil, fmt.Errorf("column %q is %s, which compares with nothing; WHERE can only test it with IS [NOT] NULL", col.Name, typeName(col.Type))
		}
		ops[i] = operand{slot: c.slot(idx), name: col.Name, val: Value{Column: col.Name, Type: col.Type}}
		if anchor < 0 {
			anchor = i
		} else if a := ops[anchor].val.Type; sqlkind.CompareGroup(a.Kind) != sqlkind.CompareGroup(col.Type.Kind) {
			return nil, fmt.Errorf("cannot compare column %q (%s) with column %q (%s)", ops[anchor].name, typeName(a), col.Name, typeName(col.Type))
		}
	}
	if anchor < 0 {
		return nil, fmt.Errorf("%s names no column; a condition compares a column with a value or another column", pred)
	}
	a := ops[anchor]
	for i, e := range es {
		if _, ok := e.(*parser.ColumnRef); ok {
			continue
		}
		v, err := filterValue(a.name, a.val.Type, e, c.loc)
		if err != nil {
			return nil, err
		}
		ops[i] = operand{slot: -1, val: v}
	}
	return ops, nil
}

// filterValue converts a value compared with a column of type t. The
// value gets a wider type of the same family, so that comparisons the
// column's own type could not hold still work (c = 'abcd' for CHAR(3),
// ti < 300 for TINYINT, dec > 1.005 for DECIMAL(10, 2), fractional digits
// beyond a timestamp's precision). Errors name the column's own type.
func filterValue(col string, t types.DataType, e parser.Expr, loc *time.Location) (Value, error) {
	wide := sqlkind.Widen(t)
	v, err := newValue(col, wide, e, loc)
	if err != nil {
		if _, err2 := newValue(col, t, e, loc); err2 != nil {
			return Value{}, err2
		}
		return Value{}, err
	}
	if !wide.Equal(t.AsNullable()) {
		v.declared = &t
	}
	return v, nil
}
