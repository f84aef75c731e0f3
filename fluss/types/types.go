// Package types is the Fluss data type model shared by every layer of flussql:
// column types, row types and schemas, written the way Fluss's Java
// org.apache.fluss.types package describes them. It has no network or SQL code.
package types

import (
	"fmt"
	"strings"
)

// DataType is one Fluss type with its parameters. The zero value of the
// parameters means "not set"; constructors fill in Fluss's defaults.
// Types are nullable unless NotNull is set, as in Fluss SQL.
type DataType struct {
	// Kind is the type family.
	Kind Kind
	// NotNull marks a NOT NULL type.
	NotNull bool
	// Length is n in CHAR(n) and BINARY(n).
	Length int
	// Precision is p in DECIMAL(p,s), TIME(p), TIMESTAMP(p) and TIMESTAMP_LTZ(p).
	Precision int
	// Scale is s in DECIMAL(p,s).
	Scale int
	// Elem is the element type of an ARRAY.
	Elem *DataType
	// Key and Value are the key and value types of a MAP.
	Key, Value *DataType
	// Fields are the fields of a ROW.
	Fields []Field
}

// Field is a named field of a ROW type.
type Field struct {
	// Name is the field name.
	Name string
	// Type is the field's type.
	Type DataType
	// Description is the field's comment.
	Description string
}

// NewBoolean returns BOOLEAN.
func NewBoolean() DataType { return DataType{Kind: Boolean} }

// NewTinyInt returns TINYINT (8-bit).
func NewTinyInt() DataType { return DataType{Kind: TinyInt} }

// NewSmallInt returns SMALLINT (16-bit).
func NewSmallInt() DataType { return DataType{Kind: SmallInt} }

// NewInt returns INT (32-bit).
func NewInt() DataType { return DataType{Kind: Int} }

// NewBigInt returns BIGINT (64-bit).
func NewBigInt() DataType { return DataType{Kind: BigInt} }

// NewFloat returns FLOAT (32-bit IEEE 754).
func NewFloat() DataType { return DataType{Kind: Float} }

// NewDouble returns DOUBLE (64-bit IEEE 754).
func NewDouble() DataType { return DataType{Kind: Double} }

// NewString returns STRING (UTF-8, unbounded).
func NewString() DataType { return DataType{Kind: String} }

// NewBytes returns BYTES (unbounded).
func NewBytes() DataType { return DataType{Kind: Bytes} }

// NewDate returns DATE (days since 1970-01-01).
func NewDate() DataType { return DataType{Kind: Date} }

// NewDecimal returns DECIMAL(p, s); p is 1..38 and 0 <= s <= p.
func NewDecimal(p, s int) DataType { return DataType{Kind: Decimal, Precision: p, Scale: s} }

// NewChar returns CHAR(n).
func NewChar(n int) DataType { return DataType{Kind: Char, Length: n} }

// NewBinary returns BINARY(n).
func NewBinary(n int) DataType { return DataType{Kind: Binary, Length: n} }

// NewTime returns TIME(p); p is 0..9 (Fluss stores milliseconds).
func NewTime(p int) DataType { return DataType{Kind: Time, Precision: p} }

// NewTimestamp returns TIMESTAMP(p); p is 0..9, Fluss's default is 6.
func NewTimestamp(p int) DataType { return DataType{Kind: Timestamp, Precision: p} }

// NewTimestampLTZ returns TIMESTAMP_LTZ(p); p is 0..9, Fluss's default is 6.
func NewTimestampLTZ(p int) DataType { return DataType{Kind: TimestampLTZ, Precision: p} }

// NewArray returns ARRAY<elem>.
func NewArray(elem DataType) DataType { return DataType{Kind: Array, Elem: &elem} }

// NewMap returns MAP<key, value>.
func NewMap(key, value DataType) DataType { return DataType{Kind: Map, Key: &key, Value: &value} }

// NewRow returns ROW<fields…>.
func NewRow(fields ...Field) DataType { return DataType{Kind: Row, Fields: fields} }

// AsNotNull returns a copy of t marked NOT NULL.
func (t DataType) AsNotNull() DataType { t.NotNull = true; return t }

// AsNullable returns a copy of t without NOT NULL.
func (t DataType) AsNullable() DataType { t.NotNull = false; return t }

// Nullable reports whether values of t may be NULL.
func (t DataType) Nullable() bool { return !t.NotNull }

// String renders t in Fluss SQL syntax, e.g. "DECIMAL(10, 2) NOT NULL".
func (t DataType) String() string {
	var b strings.Builder
	switch p := t.Kind.params(); {
	case p == decimalParams:
		fmt.Fprintf(&b, "%s(%d, %d)", t.Kind, t.Precision, t.Scale)
	case p == lengthParam:
		fmt.Fprintf(&b, "%s(%d)", t.Kind, t.Length)
	case p == precisionParam:
		fmt.Fprintf(&b, "%s(%d)", t.Kind, t.Precision)
	case t.Kind == Array:
		fmt.Fprintf(&b, "ARRAY<%s>", elemString(t.Elem))
	case t.Kind == Map:
		fmt.Fprintf(&b, "MAP<%s, %s>", elemString(t.Key), elemString(t.Value))
	case t.Kind == Row:
		b.WriteString("ROW<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "`%s` %s", strings.ReplaceAll(f.Name, "`", "``"), f.Type)
		}
		b.WriteString(">")
	default:
		b.WriteString(t.Kind.String())
	}
	if t.NotNull {
		b.WriteString(" NOT NULL")
	}
	return b.String()
}

func elemString(t *DataType) string {
	if t == nil {
		return "?"
	}
	return t.String()
}

// Equal reports whether t and u are the same type, parameters and nullability included.
func (t DataType) Equal(u DataType) bool { return t.String() == u.String() }

// Column is one column of a table schema.
type Column struct {
	// Name is the column name.
	Name string
	// Type is the column's type; NotNull for NOT NULL columns.
	Type DataType
	// Comment is the column comment.
	Comment string
}

// Schema is the column list of a table and its primary key (empty for a log table).
type Schema struct {
	// Columns are the columns in table order.
	Columns []Column
	// PrimaryKey names the primary-key columns, in key order.
	PrimaryKey []string
}

// Index returns the position of the named column, or -1.
func (s Schema) Index(name string) int {
	for i, c := range s.Columns {
		if c.Name == name {
			return i
		}
	}
	return -1
}

// ColumnNames returns the names of the columns in order.
func (s Schema) ColumnNames() []string {
	names := make([]string, len(s.Columns))
	for i, c := range s.Columns {
		names[i] = c.Name
	}
	return names
}

// HasPrimaryKey reports whether the schema declares a primary key.
func (s Schema) HasPrimaryKey() bool { return len(s.PrimaryKey) > 0 }
