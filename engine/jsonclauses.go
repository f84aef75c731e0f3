package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The JSON family's clauses and predicates: NULL ON NULL / ABSENT ON NULL of
// JSON_OBJECT, JSON_ARRAY and JSON_OBJECTAGG, the aggregate JSON_OBJECTAGG,
// and x IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT].

func init() {
	register(
		&FuncDef{Name: "JSON_OBJECTAGG", Kind: AggregateFunc, Family: "json", Signature: "JSON_OBJECTAGG([KEY] k STRING VALUE v [NULL | ABSENT ON NULL]) → STRING NOT NULL",
			Desc: "a JSON object of the group's keys and values, keys sorted; a NULL value is null (or left out with ABSENT ON NULL), a NULL key is '', a repeated key an error", Example: "JSON_OBJECTAGG(KEY k VALUE v) = '{\"a\":1,\"b\":2}'",
			Type: jsonObjectAggType, AggState: func(a *Agg) aggState { return &jsonObjectAggState{m: map[string]string{}} }},
		&FuncDef{Name: "IS_JSON", Kind: ScalarFunc, Family: "json", Signature: "IS_JSON(s STRING[, kind STRING]) → BOOLEAN NOT NULL, written s IS [NOT] JSON [VALUE | SCALAR | ARRAY | OBJECT]",
			Desc: "whether s is a JSON text (of that kind; VALUE: any); FALSE for NULL", Example: "'[1]' IS JSON ARRAY = TRUE",
			NullArgs: true, Type: isJSONType, Kernel: isJSONKernel},
	)
}

// OnNull is the NULL ON NULL (Absent false) or ABSENT ON NULL clause, the
// last argument of the call it belongs to.
type OnNull struct{ Absent bool }

// Type implements Expr.
func (o *OnNull) Type() types.DataType { return stringType }

// String renders the clause.
func (o *OnNull) String() string {
	if o.Absent {
		return "ABSENT ON NULL"
	}
	return "NULL ON NULL"
}
func (o *OnNull) children() []Expr    { return nil }
func (o *OnNull) rebuild([]Expr) Expr { return o }
func (o *OnNull) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	return repeat(ec.mem, stringType, o.String(), int(b.NumRows()))
}

// onNullArg splits a trailing OnNull off args: absent is def without one.
func onNullArg(args []Expr, def bool) (rest []Expr, absent, has bool) {
	if n := len(args); n > 0 {
		if o, ok := args[n-1].(*OnNull); ok {
			return args[:n-1], o.Absent, true
		}
	}
	return args, def, false
}

// jsonMember is JSON_OBJECTAGG's aggregated argument: one row's key and
// value as one string (the key's length, ':', the key, the value as JSON),
// NULL for a NULL value under ABSENT ON NULL.
type jsonMember struct {
	K, V   Expr
	Absent bool
}

func (m *jsonMember) Type() types.DataType { return stringType }

// String renders the member as JSON_OBJECTAGG's argument.
func (m *jsonMember) String() string {
	s := "KEY " + m.K.String() + " VALUE " + m.V.String()
	if m.Absent {
		s += " ABSENT ON NULL"
	}
	return s
}
func (m *jsonMember) children() []Expr { return []Expr{m.K, m.V} }
func (m *jsonMember) rebuild(c []Expr) Expr {
	return &jsonMember{K: c[0], V: c[1], Absent: m.Absent}
}
func (m *jsonMember) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	ins, err := evalAll(ec, []Expr{m.K, m.V}, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	w, err := jsonValueWriter(m.V, ins[1])
	if err != nil {
		return nil, err
	}
	key := strs(ins[0])
	var sb strings.Builder
	return stringRows(ec, int(b.NumRows()), ins, true, func(i int) (string, bool, error) {
		if ins[1].IsNull(i) && m.Absent {
			return "", false, nil
		}
		k := ""
		if ins[0].IsValid(i) {
			k = key(i)
		}
		sb.Reset()
		sb.WriteString(strconv.Itoa(len(k)))
		sb.WriteByte(':')
		sb.WriteString(k)
		if ins[1].IsNull(i) {
			sb.WriteString("null")
		} else {
			w(&sb, i)
		}
		return sb.String(), true, nil
	})
}

func jsonObjectAggType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	rest, absent, _ := onNullArg(args, false)
	if len(rest) != 2 {
		return nil, stringType, nil, fmt.Errorf("write %s([KEY] k VALUE v [NULL | ABSENT ON NULL])", name)
	}
	if err := wantString(name, rest, 0); err != nil {
		return nil, stringType, nil, err
	}
	rest[1] = retype(rest[1], stringType)
	if rest[1].Type().Kind.Nested() {
		return nil, stringType, nil, fmt.Errorf("%s of %s (%s) is not supported", name, rest[1], TypeName(rest[1].Type()))
	}
	return []Expr{&jsonMember{K: rest[0], V: rest[1], Absent: absent}}, stringType.AsNotNull(), nil, nil
}

type jsonObjectAggState struct{ m map[string]string }

func (s *jsonObjectAggState) add(v any) error {
	member := v.(string)
	n, rest, _ := strings.Cut(member, ":")
	kl, _ := strconv.Atoi(n)
	k, val := rest[:kl], rest[kl:]
	if _, dup := s.m[k]; dup {
		return fmt.Errorf("JSON_OBJECTAGG: the key %q is repeated; keys must be unique", k)
	}
	s.m[k] = val
	return nil
}

func (s *jsonObjectAggState) result() (any, error) {
	keys := make([]string, 0, len(s.m))
	for k := range s.m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, k)
		b.WriteByte(':')
		b.WriteString(s.m[k])
	}
	b.WriteByte('}')
	return b.String(), nil
}

func isJSONType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	t := types.NewBoolean().AsNotNull()
	if err := argc(name, args, 1, 2); err != nil {
		return nil, t, nil, err
	}
	if err := wantString(name, args, 0); err != nil {
		return nil, t, nil, err
	}
	kind := "VALUE"
	if len(args) == 2 {
		k, ok := constString(args[1])
		if k = strings.ToUpper(k); !ok || k != "VALUE" && k != "SCALAR" && k != "ARRAY" && k != "OBJECT" {
			return nil, t, nil, fmt.Errorf("%s takes a kind of VALUE, SCALAR, ARRAY or OBJECT, not %s", name, args[1])
		}
		kind = k
	}
	return args, t, kind, nil
}

func isJSONKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, kind := strs(ins[0]), c.state.(string)
	return boolRows(ec, n, ins, true, func(i int) (bool, bool, error) {
		if ins[0].IsNull(i) {
			return false, true, nil
		}
		v, err := parseJSON(s(i))
		if err != nil {
			return false, true, nil
		}
		switch kind {
		case "SCALAR":
			return v.kind != 'o' && v.kind != 'a', true, nil
		case "ARRAY":
			return v.kind == 'a', true, nil
		case "OBJECT":
			return v.kind == 'o', true, nil
		}
		return true, true, nil
	})
}

// isClause reports whether e is a clause kept as a call's trailing argument.
func isClause(e Expr) bool {
	switch e.(type) {
	case *OnNull, *JSONClause:
		return true
	}
	return false
}
