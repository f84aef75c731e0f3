package planner

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// Value is one value in a plan: a constant already converted to the Go
// value model of its column's type (see package fluss: int32 for INT,
// datum.Decimal for DECIMAL, …; nil is NULL), or a placeholder whose
// argument Bind converts to that type.
type Value struct {
	// Column is the column the value is written to or compared with; it
	// names the value in errors.
	Column string
	// Type is the column's type.
	Type types.DataType
	// Param is the placeholder, nil for a constant.
	Param *Param
	// Const is the constant (when Param is nil).
	Const any
	// declared is the column's own type when Type was widened for a
	// comparison (see filterValue); errors name it.
	declared *types.DataType
}

// Param is a placeholder: '?' with its 1-based Ordinal, or ':name'.
type Param struct {
	Ordinal int
	Name    string
}

// String renders the placeholder as ?n or :name.
func (p Param) String() string {
	if p.Name != "" {
		return ":" + p.Name
	}
	return "?" + strconv.Itoa(p.Ordinal)
}

// String renders the value as SQL (constants) or ?n / :name.
func (v Value) String() string {
	if v.Param != nil {
		return v.Param.String()
	}
	return formatTyped(v.Type, v.Const)
}

// formatTyped renders v, a value of type t, as SQL; unlike FormatValue it
// tells ARRAY values from ROW values.
func formatTyped(t types.DataType, v any) string {
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			switch {
			case t.Kind == types.Array && t.Elem != nil:
				parts[i] = formatTyped(*t.Elem, e)
			case t.Kind == types.Row && i < len(t.Fields):
				parts[i] = formatTyped(t.Fields[i].Type, e)
			default:
				parts[i] = FormatValue(e)
			}
		}
		if t.Kind == types.Array {
			return "ARRAY[" + strings.Join(parts, ", ") + "]"
		}
		return "ROW(" + strings.Join(parts, ", ") + ")"
	case []datum.MapEntry:
		if t.Kind != types.Map || t.Key == nil || t.Value == nil {
			return FormatValue(v)
		}
		parts := make([]string, 0, 2*len(x))
		for _, e := range x {
			parts = append(parts, formatTyped(*t.Key, e.Key), formatTyped(*t.Value, e.Value))
		}
		return "MAP[" + strings.Join(parts, ", ") + "]"
	}
	return FormatValue(v)
}

// newValue makes a Value for column col from a literal or placeholder.
func newValue(col string, t types.DataType, e parser.Expr, loc *time.Location) (Value, error) {
	v := Value{Column: col, Type: t}
	switch n := e.(type) {
	case *parser.Placeholder:
		v.Param = &Param{Ordinal: n.Ordinal, Name: n.Name}
		return v, nil
	case *parser.Literal:
		if t.Kind.Nested() && n.Kind != parser.LitNull {
			return Value{}, fmt.Errorf("column %q is %s; write %s or pass a Go %s as an argument, not %s",
				col, typeName(t), constructorHint(t), goHint(t), n)
		}
		c, err := convertLiteral(col, t, n, loc)
		if err != nil {
			return Value{}, err
		}
		v.Const = c
		return v, nil
	case *parser.Constructor:
		c, err := convertConstructor(col, t, n, loc)
		if err != nil {
			return Value{}, err
		}
		v.Const = c
		return v, nil
	}
	return Value{}, fmt.Errorf("column %q needs a literal or a placeholder, not %s", col, e)
}

// constructorHint shows how to write a value of the ARRAY, MAP or ROW type t.
func constructorHint(t types.DataType) string {
	switch t.Kind {
	case types.Array:
		return "ARRAY[…]"
	case types.Map:
		return "MAP[key, value, …]"
	}
	return "ROW(…)"
}

// goHint names the Go argument types for the ARRAY, MAP or ROW type t.
func goHint(t types.DataType) string {
	switch t.Kind {
	case types.Array:
		return "slice"
	case types.Map:
		return "map"
	}
	return "struct or slice"
}

// FormatValue renders a value of the value model as a SQL literal, e.g.
// 'US', 42, DATE '2024-01-01', X'0a0b' or NULL.
func FormatValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return parser.QuoteString(x)
	case []byte:
		return "X'" + hex.EncodeToString(x) + "'"
	case bool:
		return strings.ToUpper(strconv.FormatBool(x))
	case float32:
		return strconv.FormatFloat(float64(x), 'g', -1, 32)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case []any: // ROW and ARRAY values look alike; ROW(…) is the safe reading
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = FormatValue(e)
		}
		return "ROW(" + strings.Join(parts, ", ") + ")"
	case []datum.MapEntry:
		parts := make([]string, 0, 2*len(x))
		for _, e := range x {
			parts = append(parts, FormatValue(e.Key), FormatValue(e.Value))
		}
		return "MAP[" + strings.Join(parts, ", ") + "]"
	}
	if k := sqlkind.OfValue(v); k != nil && k.Format != nil { // DECIMAL, DATE, …
		return k.Format(v)
	}
	return fmt.Sprint(v)
}

// formatValues renders values as (a, b, c).
func formatValues(vs []Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// typeName renders a column type without NOT NULL, for messages.
func typeName(t types.DataType) string { return t.AsNullable().String() }
