package engine

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// Expr is a typed scalar expression over the columns of an input batch.
// Build expressions with the New… constructors, which check operand types
// and compute the result type; String renders them as SQL.
type Expr interface {
	// Type is the result type.
	Type() types.DataType
	// String renders the expression as SQL.
	String() string
	// eval computes the expression for every row of b; the caller
	// releases the result.
	eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error)
	// children are the operand expressions; rebuild returns a copy with
	// other ones.
	children() []Expr
	rebuild(children []Expr) Expr
}

// evalCtx carries what evaluation needs.
type evalCtx struct {
	ctx context.Context
	mem memory.Allocator
	now time.Time // CURRENT_TIMESTAMP and friends
	// consts caches the longest array each constant was expanded to: a
	// batch as long or shorter gets it or a slice of it, so a constant is
	// built once, not per batch.
	consts map[*Const]arrow.Array
}

// release frees the cached constant arrays.
func (ec *evalCtx) release() {
	for c, a := range ec.consts {
		a.Release()
		delete(ec.consts, c)
	}
}

// Col is column Index of the input batch.
type Col struct {
	Index int
	Name  string
	T     types.DataType
}

// Type implements Expr.
func (c *Col) Type() types.DataType { return c.T }

// String renders the column's name.
func (c *Col) String() string { return quoteIdent(c.Name) }

func (c *Col) eval(_ *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	if c.Index >= int(b.NumCols()) {
		return nil, fmt.Errorf("engine: column %d of a batch with %d columns", c.Index, b.NumCols())
	}
	a := b.Column(c.Index)
	a.Retain()
	return a, nil
}

func (c *Col) children() []Expr      { return nil }
func (c *Col) rebuild([]Expr) Expr   { return c }
func (c *Const) children() []Expr    { return nil }
func (c *Const) rebuild([]Expr) Expr { return c }
func (p *Param) children() []Expr    { return nil }
func (p *Param) rebuild([]Expr) Expr { return p }

// Const is a constant in the value model (nil: NULL). Untyped marks the
// NULL literal, whose type is taken from the expression it meets.
type Const struct {
	Value   any
	T       types.DataType
	Untyped bool
	// Text renders the constant; empty means formatted from Value.
	Text string
}

// NewNull is the untyped NULL literal.
func NewNull() *Const { return &Const{T: types.NewString(), Untyped: true, Text: "NULL"} }

// Type implements Expr.
func (c *Const) Type() types.DataType { return c.T }

// String renders the constant as SQL.
func (c *Const) String() string {
	if c.Text != "" {
		return c.Text
	}
	return FormatValue(c.T, c.Value)
}

func (c *Const) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	n := int(b.NumRows())
	if a, ok := ec.consts[c]; ok && a.Len() >= n {
		if a.Len() == n {
			a.Retain()
			return a, nil
		}
		return array.NewSlice(a, 0, int64(n)), nil // batches of several sizes share the longest
	}
	a, err := repeat(ec.mem, c.T, c.Value, n)
	if err != nil {
		return nil, err
	}
	if ec.consts != nil {
		if old, ok := ec.consts[c]; ok {
			old.Release()
		}
		a.Retain()
		ec.consts[c] = a
	}
	return a, nil
}

// Param is a placeholder; Bind replaces it with a constant of type T.
type Param struct {
	Ordinal int
	Name    string
	T       types.DataType
}

// Type implements Expr.
func (p *Param) Type() types.DataType { return p.T }

// String renders the placeholder as ?n or :name.
func (p *Param) String() string {
	if p.Name != "" {
		return ":" + p.Name
	}
	return fmt.Sprintf("?%d", p.Ordinal)
}

func (p *Param) eval(*evalCtx, arrow.RecordBatch) (arrow.Array, error) {
	return nil, fmt.Errorf("engine: placeholder %s is not bound", p)
}

// retype gives an untyped NULL (or a placeholder) the type t; other
// expressions are returned as they are.
func retype(e Expr, t types.DataType) Expr {
	switch x := e.(type) {
	case *Const:
		if x.Untyped {
			return &Const{T: t.AsNullable(), Untyped: true, Text: "NULL"}
		}
	case *Param:
		if x.T.Kind == types.String && x.T.Length == -1 {
			return &Param{Ordinal: x.Ordinal, Name: x.Name, T: t.AsNullable()}
		}
	}
	return e
}

// untypedParamType marks a placeholder whose type comes from its context.
var untypedParamType = types.DataType{Kind: types.String, Length: -1}

// NewParam makes a placeholder; its type is taken from the expression it
// meets (STRING when it meets none).
func NewParam(ordinal int, name string) *Param {
	return &Param{Ordinal: ordinal, Name: name, T: untypedParamType}
}

func isUntyped(e Expr) bool {
	switch x := e.(type) {
	case *Const:
		return x.Untyped
	case *Param:
		return x.T.Length == -1 && x.T.Kind == types.String
	}
	return false
}

// coerce brings a pair of operands to their common type.
func coerce(what string, l, r Expr) (Expr, Expr, types.DataType, error) {
	switch {
	case isUntyped(l) && isUntyped(r):
		l, r = retype(l, types.NewString()), retype(r, types.NewString())
	case isUntyped(l):
		l = retype(l, r.Type())
	case isUntyped(r):
		r = retype(r, l.Type())
	}
	t, err := CommonType(l.Type(), r.Type())
	if err != nil {
		return nil, nil, types.DataType{}, fmt.Errorf("cannot %s %s (%s) and %s (%s): %w", what, l, TypeName(l.Type()), r, TypeName(r.Type()), err)
	}
	return l, r, t, nil
}

// Bind returns e with every placeholder replaced by f's expression.
func Bind(e Expr, f func(*Param) (Expr, error)) (Expr, error) {
	if e == nil {
		return nil, nil
	}
	if p, ok := e.(*Param); ok {
		return f(p)
	}
	kids := e.children()
	if len(kids) == 0 {
		return e, nil
	}
	out := make([]Expr, len(kids))
	for i, k := range kids {
		b, err := Bind(k, f)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return e.rebuild(out), nil
}

// Walk calls f for e and every sub-expression.
func Walk(e Expr, f func(Expr)) {
	if e == nil {
		return
	}
	f(e)
	for _, k := range e.children() {
		Walk(k, f)
	}
}

// castArray converts arr to t with Arrow's cast kernel; fractional parts
// are truncated (CAST(2.7 AS INT) is 2, as in Flink), an integer narrowed
// wraps (as in Flink), other overflow is an error.
func castArray(ec *evalCtx, arr arrow.Array, t types.DataType) (arrow.Array, error) {
	at, err := arrowType(t)
	if err != nil {
		return nil, err
	}
	if arrow.TypeEqual(arr.DataType(), at) {
		arr.Retain()
		return arr, nil
	}
	if out, ok, err := castDecimalFast(arr, at, t); ok {
		if err != nil {
			return nil, fmt.Errorf("cannot cast to %s: %w", TypeName(t), err)
		}
		return out, nil
	}
	if out, ok := castDecimalFloat(ec, arr, at); ok {
		return out, nil
	}
	if dt, ok := at.(*arrow.Decimal128Type); ok && arrow.IsInteger(arr.DataType().ID()) && dt.Precision < maxDecimalDigits {
		// Arrow casts an integer only to a DECIMAL wide enough for every value of its type
		// (INT to DECIMAL(10, 2) needs 12 digits); Flink casts each value and fails only on
		// one that does not fit. So: to DECIMAL(38, s) first, then to the target, which
		// checks each value.
		wide, err := castArray(ec, arr, types.NewDecimal(maxDecimalDigits, int(dt.Scale)))
		if err != nil {
			return nil, err
		}
		defer wide.Release()
		arr = wide
	}
	if err := checkFloatToInt(arr, t); err != nil {
		return nil, fmt.Errorf("cannot cast to %s: %w", TypeName(t), err)
	}
	opts := compute.SafeCastOptions(at)
	opts.AllowFloatTruncate = true
	opts.AllowTimeTruncate = true // TIMESTAMP(6) to TIMESTAMP(3) drops digits, as in Flink
	opts.AllowDecimalTruncate = true
	// An integer to a narrower one keeps the low bits, as Java's and Flink's
	// narrowing does (CAST(300 AS TINYINT) is 44); implicit casts only widen.
	opts.AllowIntOverflow = arrow.IsInteger(arr.DataType().ID()) && arrow.IsInteger(at.ID())
	out, err := compute.CastArray(ec.ctx, arr, opts)
	if err != nil {
		return nil, fmt.Errorf("cannot cast to %s: %w", TypeName(t), err)
	}
	if dt, ok := at.(*arrow.Decimal128Type); ok && mayOverflow(arr.DataType(), dt) {
		// Arrow's cast from a wider DECIMAL does not check that each value fits the
		// target's precision.
		if err := checkPrecision(out.(*array.Decimal128), dt); err != nil {
			out.Release()
			return nil, fmt.Errorf("cannot cast to %s: %w", TypeName(t), err)
		}
	}
	return out, nil
}

// mayOverflow reports whether a value of type from can have more integer digits than a
// DECIMAL of type to holds (then each cast value is checked): a DECIMAL with no more
// integer digits, or an integer type whose widest value fits, cannot.
func mayOverflow(from arrow.DataType, to *arrow.Decimal128Type) bool {
	room := to.Precision - to.Scale
	switch f := from.(type) {
	case *arrow.Decimal128Type:
		return f.Precision-f.Scale > room
	case *arrow.Int8Type, *arrow.Uint8Type:
		return room < 3
	case *arrow.Int16Type, *arrow.Uint16Type:
		return room < 5
	case *arrow.Int32Type, *arrow.Uint32Type:
		return room < 10
	case *arrow.Int64Type:
		return room < 19
	}
	return true
}

// checkPrecision fails when a value of a has more digits than dt's precision.
func checkPrecision(a *array.Decimal128, dt *arrow.Decimal128Type) error {
	for i := range a.Len() {
		if a.IsValid(i) && !a.Value(i).FitsInPrecision(dt.Precision) {
			return fmt.Errorf("%w: %s does not fit %d digits", ErrArithmetic, a.Value(i).ToString(dt.Scale), dt.Precision)
		}
	}
	return nil
}

// evalAs evaluates e and casts the result to t.
func evalAs(ec *evalCtx, e Expr, t types.DataType, b arrow.RecordBatch) (arrow.Array, error) {
	a, err := e.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer a.Release()
	return castArray(ec, a, t)
}

// evalAll evaluates es; on error nothing is left to release.
func evalAll(ec *evalCtx, es []Expr, b arrow.RecordBatch) ([]arrow.Array, error) {
	out := make([]arrow.Array, 0, len(es))
	for _, e := range es {
		a, err := e.eval(ec, b)
		if err != nil {
			releaseAll(out)
			return nil, err
		}
		out = append(out, a)
	}
	return out, nil
}

func releaseAll(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}

// mapRows computes a result of type t row by row from the values of ins:
// a row with a NULL input is NULL unless nulls is set, when f sees nil.
// It is the fallback for functions Arrow's kernels lack.
func mapRows(ec *evalCtx, t types.DataType, ins []arrow.Array, n int, nulls bool, f func(vals []any) (any, error)) (arrow.Array, error) {
	gets := make([]func(int) any, len(ins))
	for i, a := range ins {
		g, err := getter(a)
		if err != nil {
			return nil, err
		}
		gets[i] = g
	}
	b, err := newBuilder(ec.mem, t)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(n)
	put := appender(b)
	vals := make([]any, len(ins))
	for r := range n {
		null := false
		for i, a := range ins {
			if a.IsNull(r) {
				vals[i] = nil
				null = true
			} else {
				vals[i] = gets[i](r)
			}
		}
		if null && !nulls {
			b.AppendNull()
			continue
		}
		v, err := f(vals)
		if err != nil {
			return nil, err
		}
		put(v)
	}
	return b.NewArray(), nil
}

// quoteIdent renders a name, in backticks unless it is a plain word.
func quoteIdent(name string) string {
	plain := name != ""
	for i, c := range name {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			plain = false
		}
	}
	if plain {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}
