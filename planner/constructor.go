package planner

import (
	"fmt"
	"strconv"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// convertConstructor converts ARRAY[…], MAP[…] or ROW(…) of constants for
// column (or element) col of type t into the value model.
func convertConstructor(col string, t types.DataType, c *parser.Constructor, loc *time.Location) (any, error) {
	want := map[parser.ConstructorKind]types.Kind{parser.ArrayOf: types.Array, parser.MapOf: types.Map, parser.RowOf: types.Row}[c.Kind]
	if t.Kind != want {
		return nil, mismatch(col, t, c.String())
	}
	switch c.Kind {
	case parser.ArrayOf:
		out := make([]any, len(c.Elems))
		for i, e := range c.Elems {
			v, err := constructorElem(col+"["+strconv.Itoa(i+1)+"]", *t.Elem, e, loc)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case parser.MapOf:
		out := make([]datum.MapEntry, 0, len(c.Elems)/2)
		for i := 0; i+1 < len(c.Elems); i += 2 {
			k, err := constructorElem(col+" key", t.Key.AsNullable(), c.Elems[i], loc)
			if err != nil {
				return nil, err
			}
			if k == nil {
				return nil, fmt.Errorf("column %q: a MAP key must not be NULL", col)
			}
			v, err := constructorElem(col+"["+FormatValue(k)+"]", *t.Value, c.Elems[i+1], loc)
			if err != nil {
				return nil, err
			}
			out = append(out, datum.MapEntry{Key: k, Value: v})
		}
		return out, checkDuplicateKeys(col, out)
	}
	if len(c.Elems) != len(t.Fields) {
		return nil, fmt.Errorf("column %q is %s with %d fields; ROW(…) has %d", col, typeName(t), len(t.Fields), len(c.Elems))
	}
	out := make([]any, len(t.Fields))
	for i, f := range t.Fields {
		v, err := constructorElem(col+"."+f.Name, f.Type, c.Elems[i], loc)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// constructorElem converts one element of a constructor.
func constructorElem(name string, t types.DataType, e parser.Expr, loc *time.Location) (any, error) {
	var v any
	var err error
	switch n := e.(type) {
	case *parser.Literal:
		if t.Kind.Nested() && n.Kind != parser.LitNull {
			return nil, mismatch(name, t, n.String())
		}
		v, err = convertLiteral(name, t, n, loc)
	case *parser.Constructor:
		v, err = convertConstructor(name, t, n, loc)
	case *parser.Placeholder:
		return nil, notSupported("column %q: placeholders inside ARRAY[…], MAP[…] or ROW(…) are not supported; pass the whole value as one argument (a Go slice, map or struct)", name)
	default:
		return nil, fmt.Errorf("%s needs a literal, not %s", name, e)
	}
	if err != nil {
		return nil, err
	}
	if v == nil && t.NotNull {
		return nil, fmt.Errorf("column %q is %s; got NULL", name, t)
	}
	return v, nil
}
