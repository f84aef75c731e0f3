package fluss

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// PredicateOp is the operator of a Predicate node.
type PredicateOp int

// Predicate operators: AND and OR combine Children; the others compare the
// column Column with Values.
const (
	PredAnd PredicateOp = iota + 1
	PredOr
	PredEqual
	PredNotEqual
	PredLess
	PredLessOrEqual
	PredGreater
	PredGreaterOrEqual
	PredIsNull
	PredIsNotNull
	PredIn
	PredNotIn
)

var predOpNames = map[PredicateOp]string{
	PredAnd: "AND", PredOr: "OR", PredEqual: "=", PredNotEqual: "<>", PredLess: "<",
	PredLessOrEqual: "<=", PredGreater: ">", PredGreaterOrEqual: ">=", PredIsNull: "IS NULL",
	PredIsNotNull: "IS NOT NULL", PredIn: "IN", PredNotIn: "NOT IN",
}

// String returns the operator's symbol, e.g. "<=" or "IS NULL".
func (op PredicateOp) String() string {
	if n, ok := predOpNames[op]; ok {
		return n
	}
	return "PredicateOp(" + strconv.Itoa(int(op)) + ")"
}

// leafFunction is the Fluss 1.0 PbLeafPredicate.function code of op.
var leafFunction = map[PredicateOp]int32{
	PredEqual: 0, PredNotEqual: 1, PredLess: 2, PredLessOrEqual: 3, PredGreater: 4,
	PredGreaterOrEqual: 5, PredIsNull: 6, PredIsNotNull: 7, PredIn: 11, PredNotIn: 12,
}

// Predicate is a filter over a table's columns that a Fluss 1.0 server can
// check against the column statistics of log batches to skip whole batches
// (see ScannerOptions.Filter). A leaf compares the column at index Column
// (in the table's schema) with Values: one value for the comparisons, any
// number for IN / NOT IN, none for IS [NOT] NULL. Values are in the Go value
// model of the column (int8/int16/int32/int64 — any Go integer in range is
// accepted —, string, bool). An AND / OR node combines Children.
type Predicate struct {
	// Op is the comparison of a leaf, or AND / OR of a node.
	Op PredicateOp
	// Column is a leaf's column index in the table's schema.
	Column int
	// Values are a leaf's literals.
	Values []any
	// Children are a node's predicates.
	Children []Predicate
}

// Columns returns the column indexes the predicate refers to (with repeats).
func (p Predicate) Columns() []int {
	if p.Op == PredAnd || p.Op == PredOr {
		var out []int
		for _, c := range p.Children {
			out = append(out, c.Columns()...)
		}
		return out
	}
	return []int{p.Column}
}

// Format renders the predicate with column names from schema, e.g.
// "(id > 5 AND name IN ('a', 'b'))".
func (p Predicate) Format(schema types.Schema) string {
	var b strings.Builder
	p.format(&b, schema)
	return b.String()
}

func (p Predicate) format(b *strings.Builder, s types.Schema) {
	switch p.Op {
	case PredAnd, PredOr:
		b.WriteByte('(')
		for i, c := range p.Children {
			if i > 0 {
				b.WriteString(" " + p.Op.String() + " ")
			}
			c.format(b, s)
		}
		b.WriteByte(')')
		return
	}
	name := "#" + strconv.Itoa(p.Column)
	if p.Column >= 0 && p.Column < len(s.Columns) {
		name = s.Columns[p.Column].Name
	}
	b.WriteString(name + " " + p.Op.String())
	switch p.Op {
	case PredIsNull, PredIsNotNull:
	case PredIn, PredNotIn:
		b.WriteString(" (")
		for i, v := range p.Values {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(formatLiteral(v))
		}
		b.WriteByte(')')
	default:
		if len(p.Values) > 0 {
			b.WriteString(" " + formatLiteral(p.Values[0]))
		}
	}
}

func formatLiteral(v any) string {
	switch v := v.(type) {
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case nil:
		return "NULL"
	}
	return fmt.Sprint(v)
}

// errNotPushable marks a predicate a server cannot evaluate.
var errNotPushable = errors.New("not pushable")

// Pushable reports whether p can be sent to a server for a table with the
// given schema whose batches carry statistics of statCols: every leaf on a
// statistics column of a BOOLEAN, TINYINT, SMALLINT, INT, BIGINT or STRING
// type, with values of that type.
func (p Predicate) Pushable(schema types.Schema, statCols []int) error {
	_, err := p.toPb(schema, nil, statCols)
	return err
}

// toPb encodes p as a Fluss 1.0 PbPredicate. colIDs are the schema's column
// ids (nil: positions, only to validate).
func (p Predicate) toPb(schema types.Schema, colIDs []int32, statCols []int) (*protocol.PbPredicate, error) {
	switch p.Op {
	case PredAnd, PredOr:
		if len(p.Children) < 2 {
			return nil, fmt.Errorf("%w: %s with %d children", errNotPushable, p.Op, len(p.Children))
		}
		c := &protocol.PbCompoundPredicate{Function: proto.Int32(0)}
		if p.Op == PredOr {
			c.Function = proto.Int32(1)
		}
		for _, ch := range p.Children {
			pb, err := ch.toPb(schema, colIDs, statCols)
			if err != nil {
				return nil, err
			}
			c.Children = append(c.Children, pb)
		}
		return &protocol.PbPredicate{Type: proto.Int32(1), Compound: c}, nil
	}
	fn, ok := leafFunction[p.Op]
	if !ok {
		return nil, fmt.Errorf("%w: operator %s", errNotPushable, p.Op)
	}
	if p.Column < 0 || p.Column >= len(schema.Columns) {
		return nil, fmt.Errorf("%w: column %d is not in the schema", errNotPushable, p.Column)
	}
	col := schema.Columns[p.Column]
	hasStats := false
	for _, c := range statCols {
		hasStats = hasStats || c == p.Column
	}
	if !hasStats {
		return nil, fmt.Errorf("%w: column %s has no statistics", errNotPushable, col.Name)
	}
	switch want := len(p.Values); p.Op {
	case PredIsNull, PredIsNotNull:
		if want != 0 {
			return nil, fmt.Errorf("%w: %s takes no values", errNotPushable, p.Op)
		}
	case PredIn, PredNotIn:
		if want == 0 {
			return nil, fmt.Errorf("%w: %s without values", errNotPushable, p.Op)
		}
	default:
		if want != 1 {
			return nil, fmt.Errorf("%w: %s takes one value, not %d", errNotPushable, p.Op, want)
		}
	}
	leaf := &protocol.PbLeafPredicate{Function: proto.Int32(fn), FieldId: proto.Int32(int32(p.Column))}
	if colIDs != nil {
		leaf.FieldId = proto.Int32(colIDs[p.Column])
	}
	for _, v := range p.Values {
		lit, err := literal(col.Type, v)
		if err != nil {
			return nil, fmt.Errorf("%w: column %s: %v", errNotPushable, col.Name, err)
		}
		leaf.Literals = append(leaf.Literals, lit)
	}
	return &protocol.PbPredicate{Type: proto.Int32(0), Leaf: leaf}, nil
}

// literal encodes v as a PbLiteralValue of column type t.
func literal(t types.DataType, v any) (*protocol.PbLiteralValue, error) {
	if v == nil {
		return nil, errors.New("NULL literal")
	}
	c := codec.For(t.Kind)
	if c == nil || c.Literal == nil {
		return nil, fmt.Errorf("type %s", t)
	}
	return c.Literal(&t, v)
}
