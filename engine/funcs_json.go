package engine

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The JSON family: SQL/JSON paths (lax by default, strict on request) over
// documents kept in key order; errors answer NULL (JSON_VALUE, JSON_QUERY)
// or FALSE (JSON_EXISTS), Flink's defaults (NULL ON EMPTY, NULL ON ERROR,
// FALSE ON ERROR), or what their clauses say (RETURNING, ON ERROR, WRAPPER:
// jsonpathclauses.go; NULL ON NULL and ABSENT ON NULL: jsonclauses.go).

func init() {
	register(
		&FuncDef{Name: "JSON_VALUE", Family: "json", Signature: "JSON_VALUE(json STRING, path STRING [RETURNING STRING|INT|DOUBLE|BOOLEAN] [… ON EMPTY] [NULL|ERROR|DEFAULT x ON ERROR]) → STRING",
			Desc: "the scalar at the SQL/JSON path of json (as a string unless RETURNING says); NULL when there is none, ON ERROR's value for an object or array or invalid JSON", Example: `JSON_VALUE('{"a": {"b": 7}}', '$.a.b') = '7'`,
			Type: jsonType(stringType, true), Kernel: jsonValueKernel},
		&FuncDef{Name: "JSON_QUERY", Family: "json", Signature: "JSON_QUERY(json STRING, path STRING [WITHOUT|WITH [CONDITIONAL|UNCONDITIONAL] [ARRAY] WRAPPER] [… ON EMPTY] [NULL|EMPTY ARRAY|EMPTY OBJECT|ERROR ON ERROR]) → STRING",
			Desc: "the object or array at the SQL/JSON path of json, as JSON text (a wrapper makes an array); NULL for none, ON ERROR's value for a scalar without wrapper", Example: `JSON_QUERY('{"a": [1, 2]}', '$.a') = '[1,2]'`,
			Type: jsonType(stringType, true), Kernel: jsonQueryKernel},
		&FuncDef{Name: "JSON_EXISTS", Family: "json", Signature: "JSON_EXISTS(json STRING, path STRING [TRUE|FALSE|UNKNOWN|ERROR ON ERROR]) → BOOLEAN",
			Desc: "whether the SQL/JSON path selects something in json (ON ERROR's value, FALSE by default, for invalid JSON)", Example: `JSON_EXISTS('{"a": 1}', '$.a') = TRUE`,
			Type: jsonType(types.NewBoolean(), false), Kernel: jsonExistsKernel},
		&FuncDef{Name: "JSON_ARRAY", Family: "json", Signature: "JSON_ARRAY(v1, v2, … [ABSENT | NULL ON NULL]) → STRING NOT NULL",
			Desc: "a JSON array of the values, NULLs left out (ABSENT ON NULL, the default) or null (NULL ON NULL)", Example: "JSON_ARRAY(1, 'a', NULL) = '[1,\"a\"]'",
			NullArgs: true, Type: jsonBuildType(false), Kernel: jsonArrayKernel},
		&FuncDef{Name: "JSON_STRING", Family: "json", Signature: "JSON_STRING(x) → STRING",
			Desc: "x serialized as a JSON value; NULL for NULL", Example: "JSON_STRING('a\"b') = '\"a\\\"b\"'",
			Type: func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
				if err := argc(name, args, 1, 1); err != nil {
					return nil, stringType, nil, err
				}
				args[0] = retype(args[0], stringType)
				return args, nullable(stringType, args[0].Type().NotNull), nil, nil
			}, Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				w, err := jsonValueWriter(c.Args[0], ins[0])
				if err != nil {
					return nil, err
				}
				var b strings.Builder
				return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
					b.Reset()
					w(&b, i)
					return b.String(), true, nil
				})
			}},
		&FuncDef{Name: "JSON_ARRAYAGG", Kind: AggregateFunc, Family: "json", Signature: "JSON_ARRAYAGG(x [ABSENT ON NULL]) → STRING NOT NULL",
			Desc: "a JSON array of the group's non-NULL x, in the order rows arrive ('[]' for none)", Example: "JSON_ARRAYAGG(x) = '[1,2]'",
			Type: func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
				args, absent, _ := onNullArg(args, true)
				if !absent {
					return nil, stringType, nil, fmt.Errorf("%w: JSON_ARRAYAGG(x NULL ON NULL); write JSON_ARRAYAGG(x) (ABSENT ON NULL)", ErrUnsupported)
				}
				if err := argc(name, args, 1, 1); err != nil {
					return nil, stringType, nil, err
				}
				return args, stringType.AsNotNull(), nil, nil
			}, AggState: func(a *Agg) aggState { return &jsonArrayAggState{t: a.Arg.Type()} }},
		&FuncDef{Name: "JSON_OBJECT", Family: "json", Signature: "JSON_OBJECT(KEY k1 VALUE v1, … [NULL | ABSENT ON NULL]) → STRING NOT NULL",
			Desc: "a JSON object of the keys and values, NULL values as null (NULL ON NULL, the default) or left out (ABSENT ON NULL)", Example: "JSON_OBJECT(KEY 'a' VALUE 1) = '{\"a\":1}'",
			NullArgs: true, Type: jsonBuildType(true), Kernel: jsonObjectKernel},
	)
}

// jsonPathState is a call's path when constant (nil otherwise) and its
// clauses (jsonpathclauses.go).
type jsonPathState struct {
	path *jsonPath
	opts jsonOpts
}

func jsonType(t types.DataType, alwaysNull bool) TypeRule {
	return func(name string, all []Expr) ([]Expr, types.DataType, any, error) {
		args, opts, err := jsonClauses(name, all)
		if err != nil {
			return nil, t, nil, err
		}
		if name == "JSON_VALUE" {
			t = opts.returning
		}
		args, rt, _, err := fixedType("ss", 0, t)(name, args)
		if err != nil {
			return nil, rt, nil, err
		}
		if opts.onError == "UNKNOWN" {
			rt = rt.AsNullable()
		}
		if alwaysNull {
			rt = rt.AsNullable()
		}
		st := jsonPathState{opts: opts}
		if p, ok := constString(args[1]); ok {
			path, err := parseJSONPath(p)
			if err != nil {
				return nil, rt, nil, fmt.Errorf("%s: %w", name, err)
			}
			st.path = path
		}
		return append(args, all[len(args):]...), rt, st, nil
	}
}

// jsonSelect parses row i's document and path and selects; ok is false
// on any error (invalid JSON or path, strict mismatch).
func jsonSelector(c *Call, ins []arrow.Array) func(i int) ([]*jnode, bool, bool) {
	doc := strs(ins[0])
	var pathAt func(int) (*jsonPath, error)
	if st, ok := c.state.(jsonPathState); ok && st.path != nil {
		pathAt = func(int) (*jsonPath, error) { return st.path, nil }
	} else {
		p, cache := strs(ins[1]), map[string]*jsonPath{}
		pathAt = func(i int) (*jsonPath, error) {
			if jp, ok := cache[p(i)]; ok {
				return jp, nil
			}
			jp, err := parseJSONPath(p(i))
			if err == nil {
				cache[p(i)] = jp
			}
			return jp, err
		}
	}
	return func(i int) ([]*jnode, bool, bool) {
		jp, err := pathAt(i)
		if err != nil {
			return nil, false, false
		}
		root, err := parseJSON(doc(i))
		if err != nil {
			return nil, false, false
		}
		out, wild, err := jp.eval(root)
		return out, wild, err == nil
	}
}

// jsonBuild is the state of JSON_OBJECT and JSON_ARRAY: whether NULL values
// are left out (ABSENT ON NULL), and the number of value arguments (a last
// OnNull argument is not one).
type jsonBuild struct {
	absent bool
	n      int
}

func jsonBuildType(object bool) TypeRule {
	return func(name string, all []Expr) ([]Expr, types.DataType, any, error) {
		args, absent, _ := onNullArg(all, !object)
		if object {
			if len(args)%2 != 0 {
				return nil, stringType, nil, fmt.Errorf("JSON_OBJECT takes KEY k VALUE v pairs, not %d arguments", len(args))
			}
			for i := 0; i < len(args); i += 2 {
				if err := wantString(name, args, i); err != nil {
					return nil, stringType, nil, err
				}
				if !args[i].Type().NotNull {
					if _, ok := constString(args[i]); !ok {
						return nil, stringType, nil, fmt.Errorf("JSON_OBJECT: the key %s may be NULL", args[i])
					}
				}
			}
		}
		for i, a := range args {
			args[i] = retype(a, stringType)
			if args[i].Type().Kind.Nested() {
				return nil, stringType, nil, fmt.Errorf("%s of %s (%s) is not supported", name, args[i], TypeName(args[i].Type()))
			}
		}
		return all, stringType.AsNotNull(), jsonBuild{absent: absent, n: len(args)}, nil
	}
}

// jsonValue writes row i of a (of type t, from argument e) as JSON.
func jsonValueWriter(e Expr, a arrow.Array) (func(b *strings.Builder, i int), error) {
	t := e.Type()
	if c, ok := e.(*Call); ok && (c.Name == "JSON_OBJECT" || c.Name == "JSON_ARRAY" || c.Name == "JSON_QUERY") {
		s := strs(a)
		return func(b *strings.Builder, i int) { b.WriteString(s(i)) }, nil
	}
	get, err := getter(a)
	if err != nil {
		return nil, err
	}
	return func(b *strings.Builder, i int) { writeJSONValue(b, t, get(i)) }, nil
}

// writeJSONValue writes v, a non-NULL value of t, as JSON: strings quoted,
// numbers as Java writes them, temporals as quoted text.
func writeJSONValue(b *strings.Builder, t types.DataType, v any) {
	switch {
	case isString(t.Kind):
		writeJSONString(b, v.(string))
	case t.Kind == types.Boolean, isInt(t.Kind):
		fmt.Fprint(b, v)
	case isFloat(t.Kind):
		b.WriteString(javaDouble(v.(float64)))
	case t.Kind == types.Decimal:
		b.WriteString(javaStrippedDecimal(FormatValue(t, v)))
	default:
		writeJSONString(b, strings.Trim(FormatValue(t, v), "'"))
	}
}

func jsonArrayKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	st := c.state.(jsonBuild)
	ins = ins[:st.n]
	ws := make([]func(*strings.Builder, int), len(ins))
	for k, a := range ins {
		w, err := jsonValueWriter(c.Args[k], a)
		if err != nil {
			return nil, err
		}
		ws[k] = w
	}
	var b strings.Builder
	return stringRows(ec, n, ins, true, func(i int) (string, bool, error) {
		b.Reset()
		b.WriteByte('[')
		first := true
		for k, a := range ins {
			if a.IsNull(i) && st.absent {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			if a.IsNull(i) {
				b.WriteString("null")
			} else {
				ws[k](&b, i)
			}
		}
		b.WriteByte(']')
		return b.String(), true, nil
	})
}

func jsonObjectKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	st := c.state.(jsonBuild)
	ins = ins[:st.n]
	ws := make([]func(*strings.Builder, int), len(ins))
	for k, a := range ins {
		w, err := jsonValueWriter(c.Args[k], a)
		if err != nil {
			return nil, err
		}
		ws[k] = w
	}
	var b strings.Builder
	return stringRows(ec, n, ins, true, func(i int) (string, bool, error) {
		b.Reset()
		b.WriteByte('{')
		first := true
		for k := 0; k < len(ins); k += 2 {
			if ins[k].IsNull(i) {
				return "", false, fmt.Errorf("JSON_OBJECT: a key is NULL")
			}
			if ins[k+1].IsNull(i) && st.absent {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			ws[k](&b, i)
			b.WriteByte(':')
			if ins[k+1].IsNull(i) {
				b.WriteString("null")
			} else {
				ws[k+1](&b, i)
			}
		}
		b.WriteByte('}')
		return b.String(), true, nil
	})
}

type jsonArrayAggState struct {
	t types.DataType
	b strings.Builder
}

func (s *jsonArrayAggState) add(v any) error {
	if s.b.Len() > 0 {
		s.b.WriteByte(',')
	}
	writeJSONValue(&s.b, s.t, v)
	return nil
}

func (s *jsonArrayAggState) result() (any, error) { return "[" + s.b.String() + "]", nil }
