package planner

import (
	"math"
	"reflect"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// Constant folding of the WHERE. A value compared with a column that is
// written as an expression of constants (DATE '1994-01-01' + INTERVAL '1'
// YEAR, 0.06 - 0.01, CAST('1995-01-01' AS DATE)) becomes the literal of its
// value before the access path, partition pruning and the server filter are
// decided, so that those see a bound they can use. The value is computed by
// the query engine (engine.EvalConstant), so it is exactly the value every
// row would get; an expression whose evaluation fails (division by zero,
// overflow), that reads the clock (CURRENT_TIMESTAMP …) or that has no
// literal of its exact value is left as written.

// foldSelect returns s with the constants of its WHERE folded: s itself
// when nothing changes, else a copy (s may be shared by a statement cache).
func (b *builder) foldSelect(s *parser.Select) *parser.Select {
	if s.Where == nil {
		return s
	}
	f := &folder{sess: b.sess}
	if s.From == nil && s.Table.Name != "" {
		if _, v := splitVirtual(s.Table.Name); v == NotVirtual {
			f.info, _ = b.table(s.Table)
		}
	}
	w := f.cond(s.Where)
	if w == s.Where {
		return s
	}
	c := *s
	c.Where = w
	return &c
}

// folder folds the operands of the conditions of one WHERE; info (nil when
// unknown) types the columns they are compared with.
type folder struct {
	sess Session
	info *fluss.TableInfo
}

// cond folds the operands of the comparisons, BETWEENs and INs of e
// (through AND, OR and NOT).
func (f *folder) cond(e parser.Expr) parser.Expr {
	switch n := e.(type) {
	case *parser.And:
		l, r := f.cond(n.Left), f.cond(n.Right)
		if l != n.Left || r != n.Right {
			return &parser.And{Left: l, Right: r}
		}
	case *parser.Or:
		l, r := f.cond(n.Left), f.cond(n.Right)
		if l != n.Left || r != n.Right {
			return &parser.Or{Left: l, Right: r}
		}
	case *parser.Not:
		if x := f.cond(n.Expr); x != n.Expr {
			return &parser.Not{Expr: x}
		}
	case *parser.Comparison:
		ops := f.operands(n.Left, n.Right)
		if ops[0] != n.Left || ops[1] != n.Right {
			return &parser.Comparison{Op: n.Op, Left: ops[0], Right: ops[1]}
		}
	case *parser.Between:
		ops := f.operands(n.Expr, n.Low, n.High)
		if ops[0] != n.Expr || ops[1] != n.Low || ops[2] != n.High {
			return &parser.Between{Expr: ops[0], Low: ops[1], High: ops[2], Not: n.Not}
		}
	case *parser.In:
		es := append([]parser.Expr{n.Expr}, n.List...)
		ops := f.operands(es...)
		for i, o := range ops {
			if o != es[i] {
				return &parser.In{Expr: ops[0], List: ops[1:], Not: n.Not}
			}
		}
	}
	return e
}

// operands folds each constant operand of one predicate; the others are
// what it is compared with.
func (f *folder) operands(es ...parser.Expr) []parser.Expr {
	out := make([]parser.Expr, len(es))
	for i, e := range es {
		out[i] = e
		if lit := f.fold(e, es, i); lit != nil {
			out[i] = lit
		}
	}
	return out
}

// fold is the literal of constant operand i of es, nil when it is not one
// to fold.
func (f *folder) fold(e parser.Expr, es []parser.Expr, i int) *parser.Literal {
	switch e.(type) {
	case *parser.Literal, *parser.ColumnRef, *parser.Placeholder:
		return nil
	}
	pure := true
	parser.Walk(e, func(x parser.Expr) bool {
		switch x.(type) {
		case *parser.ColumnRef, *parser.Placeholder:
			pure = false
		}
		return pure
	})
	if !pure {
		return nil
	}
	x, err := (&exprConv{sess: f.sess}).conv(e)
	if err != nil || !engine.Constant(x) {
		return nil
	}
	v, err := engine.EvalConstant(x)
	if err != nil || v == nil {
		return nil
	}
	t := x.Type()
	if numericOrBool(t) && !f.comparedWithFamily(es, i, t) {
		return nil // an error either way: keep the one the expression gets
	}
	if !numericOrBool(t) && !f.comparedWithKind(es, i, t) {
		// A string or temporal literal is read in the type of what it is
		// compared with (in the session's zone for TIMESTAMP_LTZ), which the
		// expression was not: fold it only next to columns of its own kind.
		return nil
	}
	lit := literalOf(t, v)
	if lit == nil {
		return nil
	}
	// The literal must read back as exactly the value.
	back, err := literalConst(lit, f.sess)
	c, ok := back.(*engine.Const)
	if err != nil || !ok || c.T.Kind != t.Kind || !reflect.DeepEqual(c.Value, v) {
		return nil
	}
	return lit
}

func numericOrBool(t types.DataType) bool {
	return sqlkind.Is(t.Kind, sqlkind.Integer) || sqlkind.Is(t.Kind, sqlkind.Decimal) ||
		sqlkind.Is(t.Kind, sqlkind.Float) || sqlkind.Is(t.Kind, sqlkind.Boolean)
}

// comparedWithFamily reports whether no operand of es but i is a column of
// the table outside t's family (numbers, or BOOLEAN).
func (f *folder) comparedWithFamily(es []parser.Expr, i int, t types.DataType) bool {
	if f.info == nil {
		return true
	}
	for j, e := range es {
		ref, ok := e.(*parser.ColumnRef)
		if j == i || !ok {
			continue
		}
		idx, err := column(f.info, ref.Name)
		if err != nil {
			continue
		}
		k := f.info.Schema().Columns[idx].Type.Kind
		if !numericOrBool(types.DataType{Kind: k}) || sqlkind.Is(k, sqlkind.Boolean) != sqlkind.Is(t.Kind, sqlkind.Boolean) {
			return false
		}
	}
	return true
}

// comparedWithKind reports whether the operands of es but i are columns
// of the table of t's kind (any string kind for a string), literals and
// placeholders, with at least one column.
func (f *folder) comparedWithKind(es []parser.Expr, i int, t types.DataType) bool {
	if f.info == nil {
		return false
	}
	cols := 0
	for j, e := range es {
		if j == i {
			continue
		}
		switch x := e.(type) {
		case *parser.Literal, *parser.Placeholder:
			continue
		case *parser.ColumnRef:
			if x.Table.Name != "" && x.Table.Name != f.info.Path.Table {
				return false
			}
			idx, err := column(f.info, x.Name)
			if err != nil {
				return false
			}
			k := f.info.Schema().Columns[idx].Type.Kind
			if k != t.Kind && !(sqlkind.Is(k, sqlkind.String) && sqlkind.Is(t.Kind, sqlkind.String)) {
				return false
			}
			cols++
		default:
			return false
		}
	}
	return cols > 0
}

// literalOf writes v, a value of the engine's model of type t, as a literal
// of the same kind; nil for kinds without one here.
func literalOf(t types.DataType, v any) *parser.Literal {
	switch x := v.(type) {
	case bool:
		return &parser.Literal{Kind: parser.LitBool, Value: strconv.FormatBool(x)}
	case int64:
		if sqlkind.Is(t.Kind, sqlkind.Integer) {
			return &parser.Literal{Kind: parser.LitInt, Value: strconv.FormatInt(x, 10)}
		}
		if t.Kind == types.Timestamp {
			return timestampLiteral(t, x)
		}
	case float64:
		if t.Kind == types.Double && !math.IsNaN(x) && !math.IsInf(x, 0) {
			return &parser.Literal{Kind: parser.LitNumber, Value: strconv.FormatFloat(x, 'E', -1, 64)}
		}
	case decimal128.Num:
		return &parser.Literal{Kind: parser.LitNumber, Value: x.ToString(int32(t.Scale))}
	case string:
		if sqlkind.Is(t.Kind, sqlkind.String) {
			return &parser.Literal{Kind: parser.LitString, Value: x}
		}
	case int32:
		if t.Kind == types.Date {
			return &parser.Literal{Kind: parser.LitDate, Value: time.Unix(int64(x)*86400, 0).UTC().Format(time.DateOnly)}
		}
	}
	return nil
}

// timestampLiteral writes a TIMESTAMP(p) value (in its Arrow unit) with p
// fraction digits, so that the literal has the same precision.
func timestampLiteral(t types.DataType, v int64) *parser.Literal {
	at, err := types.ArrowType(t)
	if err != nil {
		return nil
	}
	tt, ok := at.(*arrow.TimestampType)
	if !ok {
		return nil
	}
	per := int64(time.Second / tt.Unit.Multiplier())
	sec, frac := v/per, v%per
	if frac < 0 {
		sec, frac = sec-1, frac+per
	}
	ts := time.Unix(sec, frac*int64(tt.Unit.Multiplier())).UTC()
	layout := time.DateTime
	if t.Precision > 0 {
		layout += ".000000000"[:t.Precision+1]
	}
	return &parser.Literal{Kind: parser.LitTimestamp, Value: ts.Format(layout)}
}
