package sqlkind

import (
	"reflect"
	"time"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// Family groups kinds whose values compare with each other and follow the same type
// rules.
type Family int8

// The families of scalar kinds.
const (
	NoFamily Family = iota // not a scalar kind
	Boolean
	Integer
	Float
	Decimal
	String   // character strings: CHAR, STRING
	Binary   // binary strings: BINARY, BYTES
	Temporal // DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ
)

// Literals is a set of the typed SQL literals a kind takes (TRUE, X'…', DATE '…', …);
// string and number literals are text for every kind (Kind.Text, Kind.Number).
type Literals uint16

// Has reports whether lk is in the set.
func (s Literals) Has(lk parser.LiteralKind) bool { return s&(1<<uint(lk)) != 0 }

// literals makes the set of lks.
func literals(lks ...parser.LiteralKind) Literals {
	var s Literals
	for _, lk := range lks {
		s |= 1 << uint(lk)
	}
	return s
}

// Kind is what the SQL layer knows about one scalar kind. A conversion function
// returns ErrNoFit when the kind does not take the value (the caller words the
// error); a nil conversion function takes nothing.
type Kind struct {
	// Family is the kind's family.
	Family Family
	// Width is the number of bits of an integer kind (8, 16, 32, 64), 0 for others.
	Width int
	// Precision is set for kinds whose parameter is a fractional-seconds precision
	// (TIME(p), TIMESTAMP(p)): the common type of two of them has the finer one.
	Precision bool
	// Dated is set for kinds whose values fall on a calendar day (DATE, TIMESTAMP,
	// TIMESTAMP_LTZ): EXTRACT, intervals and FLOOR … TO a unit apply to them.
	Dated bool
	// Partition reports whether Fluss allows the kind as a partition key.
	Partition bool
	// Literals are the typed literals the kind takes.
	Literals Literals

	// Wide is the type a value compared with a column of type t gets, wider than t
	// so that comparisons t could not hold still work (c = 'abcd' for CHAR(3));
	// nil: t itself.
	Wide func(t types.DataType) types.DataType
	// Text converts text (a string literal or argument) for column col of type t.
	Text func(col string, t types.DataType, s string, loc *time.Location) (any, error)
	// Number converts a number written as text (a number literal).
	Number func(col string, t types.DataType, text string) (any, error)
	// Int converts a Go integer.
	Int func(col string, t types.DataType, n int64) (any, error)
	// Uint converts a Go unsigned integer above math.MaxInt64 (Int takes the others).
	Uint func(col string, t types.DataType, n uint64) (any, error)
	// Float converts a Go float of the given bit size.
	Float func(col string, t types.DataType, f float64, bits int) (any, error)
	// Bool converts a Go bool or a TRUE / FALSE literal.
	Bool func(b bool) any
	// Bytes converts a Go []byte (the caller keeps it: the result does not alias it)
	// or the bytes of an X'…' literal.
	Bytes func(col string, t types.DataType, b []byte, loc *time.Location) (any, error)
	// Time converts a Go time.Time.
	Time func(t types.DataType, v time.Time) any
	// Datum converts a value of the fluss value types (datum.Decimal, datum.Date, …).
	Datum func(col string, t types.DataType, v any) (any, error)

	// Model is the Go type of the kind's values in the fluss value model (int32 for
	// INT, datum.Date for DATE, …); kinds may share one (CHAR and STRING: string).
	Model reflect.Type
	// Format renders a value of Model as a SQL literal (DATE '2024-01-01'); nil for
	// the Go basic types, which the planner renders itself.
	Format func(v any) string
	// Engine converts a value of Model to the engine's Arrow representation for type
	// t; nil for the Go basic types, which the planner converts itself.
	Engine func(t types.DataType, v any) (any, error)
	// Compare orders two values of Model (false when b is of another type); nil for
	// the Go basic types, which the planner compares itself.
	Compare func(a, b any) (int, bool)
	// Plain renders a value of Model as the text inside its SQL literal, as a
	// partition value is written (2024-01-01 for DATE '2024-01-01'); nil for the Go
	// basic types.
	Plain func(v any) string

	// Driver is how the kind's values reach database/sql.
	Driver Driver
}

// table is indexed by types.Kind; the family files fill it.
var table = make([]*Kind, len(types.Kinds()))

// register enters k's entry; each kind once.
func register(k types.Kind, e *Kind) {
	if table[k] != nil {
		panic("sqlkind: " + k.String() + " registered twice")
	}
	table[k] = e
	if e.Model != nil && models[e.Model] == nil {
		models[e.Model] = e
	}
}

// models maps each Kind.Model to (one of) its kinds' entries.
var models = map[reflect.Type]*Kind{}

// OfValue returns the entry of a kind whose value model v is of, nil for other Go types
// (and nil).
func OfValue(v any) *Kind { return models[reflect.TypeOf(v)] }

// Of returns the entry of kind k, nil for ARRAY, MAP, ROW and unknown kinds.
func Of(k types.Kind) *Kind {
	if k >= 0 && int(k) < len(table) {
		return table[k]
	}
	return nil
}

// FamilyOf returns the family of kind k (NoFamily for nested and unknown kinds).
func FamilyOf(k types.Kind) Family {
	if e := Of(k); e != nil {
		return e.Family
	}
	return NoFamily
}

// Is reports whether kind k is of family f.
func Is(k types.Kind, f Family) bool { return FamilyOf(k) == f }

// Numeric reports whether kind k is an integer, floating-point or decimal kind.
func Numeric(k types.Kind) bool {
	f := FamilyOf(k)
	return f == Integer || f == Float || f == Decimal
}

// CompareGroup names the kinds whose values compare with each other: "integer",
// "float", "string", "bytes", else the kind's own name.
func CompareGroup(k types.Kind) string {
	switch FamilyOf(k) {
	case Integer:
		return "integer"
	case Float:
		return "float"
	case String:
		return "string"
	case Binary:
		return "bytes"
	}
	return k.String()
}

// Widen returns the type a value compared with a column of type t gets (Kind.Wide),
// without NOT NULL.
func Widen(t types.DataType) types.DataType {
	if e := Of(t.Kind); e != nil && e.Wide != nil {
		return e.Wide(t)
	}
	return t.AsNullable()
}

// PartitionKey reports whether Fluss allows kind k as a partition key (Kind.Partition).
func PartitionKey(k types.Kind) bool {
	e := Of(k)
	return e != nil && e.Partition
}

// IntWidth is the number of bits of integer kind k (Kind.Width), 0 for other kinds.
func IntWidth(k types.Kind) int {
	if e := Of(k); e != nil {
		return e.Width
	}
	return 0
}
