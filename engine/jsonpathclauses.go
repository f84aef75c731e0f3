package engine

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The clauses of JSON_VALUE, JSON_QUERY and JSON_EXISTS after the path, as
// Flink 1.20 answers them:
//   - JSON_VALUE(… RETURNING STRING | INT | DOUBLE | BOOLEAN (Flink's only
//     ones) [… ON EMPTY] [NULL | ERROR | DEFAULT x ON ERROR]): a value of
//     another JSON type than the one returned is an error (Flink's cast
//     fails with a ClassCastException);
//   - JSON_QUERY(… [WITHOUT | WITH [CONDITIONAL | UNCONDITIONAL] [ARRAY] WRAPPER]
//     [… ON EMPTY] [NULL | EMPTY ARRAY | EMPTY OBJECT | ERROR ON ERROR]): a
//     wildcard's matches are one array, wrapped as such;
//   - JSON_EXISTS(… [TRUE | FALSE | UNKNOWN | ERROR ON ERROR]).
// Errors are invalid JSON, a strict path that does not match, a JSON_VALUE
// of an object or array and a JSON_QUERY of a scalar without wrapper. ON
// EMPTY is read and, as in Flink, never applies: a lax path that selects
// nothing answers NULL.

// JSONClause is a clause of JSON_VALUE, JSON_QUERY or JSON_EXISTS, kept as
// a trailing argument: Text upper case (RETURNING INT, NULL ON ERROR, WITH
// CONDITIONAL ARRAY WRAPPER, DEFAULT ON ERROR …), Default DEFAULT's value.
type JSONClause struct {
	Text    string
	Default Expr
}

// Type implements Expr.
func (c *JSONClause) Type() types.DataType { return stringType }

// String renders the clause as written.
func (c *JSONClause) String() string {
	if c.Default != nil {
		return "DEFAULT " + c.Default.String() + strings.TrimPrefix(c.Text, "DEFAULT")
	}
	return c.Text
}
func (c *JSONClause) children() []Expr {
	if c.Default != nil {
		return []Expr{c.Default}
	}
	return nil
}
func (c *JSONClause) rebuild(k []Expr) Expr {
	if len(k) == 1 {
		return &JSONClause{Text: c.Text, Default: k[0]}
	}
	return c
}

// eval answers the clause's text (never NULL: the call's rows are NULL only
// for NULL arguments).
func (c *JSONClause) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	return repeat(ec.mem, stringType, c.Text, int(b.NumRows()))
}

// jsonOpts are a call's clauses.
type jsonOpts struct {
	returning types.DataType
	onError   string // NULL, ERROR, DEFAULT, EMPTY ARRAY, EMPTY OBJECT, TRUE, FALSE, UNKNOWN
	errorDef  any
	wrapper   string // WITHOUT, CONDITIONAL, UNCONDITIONAL
}

// jsonClauses splits the trailing clauses off a JSON function's arguments.
func jsonClauses(name string, all []Expr) ([]Expr, jsonOpts, error) {
	opts := jsonOpts{returning: stringType, onError: "NULL", wrapper: "WITHOUT"}
	if name == "JSON_EXISTS" {
		opts.onError = "FALSE"
	}
	n := len(all)
	for n > 0 {
		if _, ok := all[n-1].(*JSONClause); !ok {
			break
		}
		n--
	}
	bad := func(c *JSONClause) error {
		return fmt.Errorf("%w: %s(… %s) is not a clause flussql knows; see \\h %s", ErrUnsupported, name, c, name)
	}
	for _, x := range all[n:] {
		c := x.(*JSONClause)
		words := strings.Fields(c.Text)
		switch {
		case words[0] == "RETURNING" && len(words) == 2 && name != "JSON_EXISTS":
			t, ok := map[string]types.DataType{"STRING": stringType, "VARCHAR": stringType, "INT": types.NewInt(), "INTEGER": types.NewInt(),
				"DOUBLE": types.NewDouble(), "BOOLEAN": types.NewBoolean()}[words[1]]
			if !ok || name == "JSON_QUERY" && t.Kind != types.String {
				return nil, opts, fmt.Errorf("%w: %s(… RETURNING %s): Flink returns STRING, INT, DOUBLE or BOOLEAN from JSON_VALUE and STRING from JSON_QUERY", ErrUnsupported, name, words[1])
			}
			opts.returning = t
		case strings.HasSuffix(c.Text, " WRAPPER") && name == "JSON_QUERY":
			switch {
			case words[0] == "WITHOUT":
				opts.wrapper = "WITHOUT"
			case len(words) > 1 && words[1] == "CONDITIONAL":
				opts.wrapper = "CONDITIONAL"
			default:
				opts.wrapper = "UNCONDITIONAL"
			}
		case strings.HasSuffix(c.Text, " ON EMPTY"):
		case strings.HasSuffix(c.Text, " ON ERROR"):
			mode := strings.TrimSuffix(c.Text, " ON ERROR")
			ok := map[string][]string{"JSON_VALUE": {"NULL", "ERROR", "DEFAULT"}, "JSON_QUERY": {"NULL", "ERROR", "EMPTY ARRAY", "EMPTY OBJECT"},
				"JSON_EXISTS": {"TRUE", "FALSE", "UNKNOWN", "ERROR"}}[name]
			if !strings.Contains(","+strings.Join(ok, ",")+",", ","+mode+",") {
				return nil, opts, bad(c)
			}
			opts.onError = mode
			if mode == "DEFAULT" {
				opts.errorDef = c.Default
			}
		default:
			return nil, opts, bad(c)
		}
	}
	if d, ok := opts.errorDef.(Expr); ok {
		// a constant, cast to the RETURNING type (DEFAULT -1.0 of a DOUBLE)
		var v any
		c, err := NewCast(retype(d, opts.returning), opts.returning)
		if err == nil && Constant(c) {
			v, err = EvalConstant(c)
		}
		if err != nil || !Constant(c) {
			return nil, opts, fmt.Errorf("%s(… DEFAULT %s ON ERROR): the default must be a constant of the RETURNING type %s", name, d, TypeName(opts.returning))
		}
		opts.errorDef = v
	}
	return all[:n], opts, nil
}

// onError is the value of a row whose JSON function failed (why).
func (o jsonOpts) onErrorValue(name, why string) (any, error) {
	switch o.onError {
	case "ERROR":
		return nil, fmt.Errorf("%s: %s (ERROR ON ERROR)", name, why)
	case "DEFAULT":
		return o.errorDef, nil
	case "EMPTY ARRAY":
		return "[]", nil
	case "EMPTY OBJECT":
		return "{}", nil
	case "TRUE":
		return true, nil
	case "FALSE":
		return false, nil
	}
	return nil, nil
}

// jsonRows builds the result of a JSON function row by row: f gives a
// row's value, or why it failed (then ON ERROR decides).
func jsonRows(ec *evalCtx, c *Call, ins []arrow.Array, n int, f func(i int) (any, string)) (arrow.Array, error) {
	st, _ := c.state.(jsonPathState)
	vals := make([]any, n)
	for i := range n {
		if ins[0].IsNull(i) || ins[1].IsNull(i) {
			continue
		}
		v, why := f(i)
		if why != "" {
			var err error
			if v, err = st.opts.onErrorValue(c.Name, why); err != nil {
				return nil, err
			}
		}
		vals[i] = v
	}
	return buildArray(ec.mem, c.T, vals)
}

func jsonValueKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	if out, ok, err := jsonFastKernel(ec, c, ins, n); ok {
		return out, err
	}
	sel, rt := jsonSelector(c, ins), c.T.Kind
	return jsonRows(ec, c, ins, n, func(i int) (any, string) {
		vs, _, ok := sel(i)
		switch {
		case !ok:
			return nil, "invalid JSON or no match of a strict path"
		case len(vs) == 0 || vs[0].kind == 'z':
			return nil, ""
		case len(vs) > 1 || vs[0].kind == 'o' || vs[0].kind == 'a':
			return nil, "the path selects no scalar"
		}
		v := vs[0]
		switch {
		case isString(rt):
			if v.kind == 'b' {
				return strconv.FormatBool(v.b), ""
			}
			return v.str, ""
		case rt == types.Boolean && v.kind == 'b':
			return v.b, ""
		case rt == types.Double && v.kind == 'n':
			if f, err := strconv.ParseFloat(v.str, 64); err == nil {
				return f, ""
			}
		case rt == types.Int && v.kind == 'n':
			if k, err := strconv.ParseInt(v.str, 10, 64); err == nil && k >= math.MinInt32 && k <= math.MaxInt32 {
				return k, ""
			}
		}
		return nil, "the value is no " + TypeName(c.T.AsNullable())
	})
}

func jsonQueryKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	if out, ok, err := jsonFastKernel(ec, c, ins, n); ok {
		return out, err
	}
	sel := jsonSelector(c, ins)
	st, _ := c.state.(jsonPathState)
	var b strings.Builder
	return jsonRows(ec, c, ins, n, func(i int) (any, string) {
		vs, wild, ok := sel(i)
		if !ok {
			return nil, "invalid JSON or no match of a strict path"
		}
		if len(vs) == 0 {
			return nil, ""
		}
		v := vs[0]
		if wild || len(vs) > 1 {
			v = &jnode{kind: 'a', vals: vs}
		}
		container := v.kind == 'o' || v.kind == 'a'
		b.Reset()
		switch {
		case st.opts.wrapper == "UNCONDITIONAL" || st.opts.wrapper == "CONDITIONAL" && !container:
			b.WriteByte('[')
			v.text(&b)
			b.WriteByte(']')
		case !container:
			return nil, "the path selects a scalar (WITH WRAPPER makes it an array)"
		default:
			v.text(&b)
		}
		return b.String(), ""
	})
}

func jsonExistsKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	if out, ok, err := jsonFastKernel(ec, c, ins, n); ok {
		return out, err
	}
	sel := jsonSelector(c, ins)
	return jsonRows(ec, c, ins, n, func(i int) (any, string) {
		vs, _, ok := sel(i)
		if !ok {
			return nil, "invalid JSON or no match of a strict path"
		}
		return len(vs) > 0, ""
	})
}
