package types

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// This file maps Fluss types to Arrow types exactly as Fluss's Java ArrowUtils
// (toArrowSchema / toArrowField) does for the ARROW log format, so that record
// batches written or read by flussql carry the same Arrow schema as the Java
// client's: field name = column name, nullable = Fluss nullability, no field
// metadata, DECIMAL always Decimal128, CHAR/STRING Utf8, BINARY(n)
// FixedSizeBinary(n), BYTES Binary, TIME and TIMESTAMP units chosen by
// precision, timestamps without a time zone (for TIMESTAMP_LTZ too).

// Names Fluss (Arrow Java's ListVector/MapVector) gives to nested children.
const (
	ArrowListElementName = "element"
	ArrowMapEntriesName  = "entries"
	ArrowMapKeyName      = "key"
	ArrowMapValueName    = "value"
)

// ArrowType returns the Arrow type Fluss uses for t in the ARROW log format.
// It returns an error for kinds Fluss cannot put into Arrow and for
// out-of-range parameters.
func ArrowType(t DataType) (arrow.DataType, error) {
	if ki, ok := t.Kind.info(); ok && ki.arrow != nil {
		return ki.arrow(t)
	}
	switch t.Kind {
	case Array:
		if t.Elem == nil {
			return nil, fmt.Errorf("types: ARRAY without element type")
		}
		elem, err := ArrowField(ArrowListElementName, *t.Elem)
		if err != nil {
			return nil, err
		}
		return arrow.ListOfField(elem), nil
	case Map:
		if t.Key == nil || t.Value == nil {
			return nil, fmt.Errorf("types: MAP without key or value type")
		}
		key, err := ArrowField(ArrowMapKeyName, *t.Key)
		if err != nil {
			return nil, err
		}
		value, err := ArrowField(ArrowMapValueName, *t.Value)
		if err != nil {
			return nil, err
		}
		// Fluss: Map(keysSorted=false) over a non-null struct "entries"{key, value};
		// Fluss's MapType forces the key type NOT NULL.
		key.Nullable = false
		return arrow.MapOfFields(key, value), nil
	case Row:
		fields := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			af, err := ArrowField(f.Name, f.Type)
			if err != nil {
				return nil, err
			}
			fields[i] = af
		}
		return arrow.StructOf(fields...), nil
	}
	return nil, fmt.Errorf("types: %s has no Arrow mapping", t.Kind)
}

// precisionUnit is Fluss's precision → unit rule for TIME and TIMESTAMP:
// 0 seconds, 1–3 milliseconds, 4–6 microseconds, 7–9 nanoseconds.
func precisionUnit(t DataType) (arrow.TimeUnit, error) {
	switch p := t.Precision; {
	case p == 0:
		return arrow.Second, nil
	case p >= 1 && p <= 3:
		return arrow.Millisecond, nil
	case p >= 4 && p <= 6:
		return arrow.Microsecond, nil
	case p >= 7 && p <= 9:
		return arrow.Nanosecond, nil
	}
	return 0, fmt.Errorf("types: invalid %s", t)
}

// ArrowField returns the Arrow field Fluss writes for a column or nested field.
func ArrowField(name string, t DataType) (arrow.Field, error) {
	at, err := ArrowType(t)
	if err != nil {
		return arrow.Field{}, fmt.Errorf("types: field %q: %w", name, err)
	}
	return arrow.Field{Name: name, Type: at, Nullable: t.Nullable()}, nil
}

// ToArrowSchema returns the Arrow schema of all columns of s, in column
// order, as Fluss's ArrowUtils.toArrowSchema builds it.
func ToArrowSchema(s Schema) (*arrow.Schema, error) {
	return ProjectedArrowSchema(s, nil)
}

// ProjectedArrowSchema returns the Arrow schema of the columns of s at the
// given indexes, in the given order; nil means every column. This is the shape
// of batches the server returns for a projection-pushdown fetch when the
// indexes are the (ascending) projected fields.
func ProjectedArrowSchema(s Schema, columns []int) (*arrow.Schema, error) {
	if columns == nil {
		columns = make([]int, len(s.Columns))
		for i := range columns {
			columns[i] = i
		}
	}
	fields := make([]arrow.Field, len(columns))
	for i, c := range columns {
		if c < 0 || c >= len(s.Columns) {
			return nil, fmt.Errorf("types: column index %d out of range [0,%d)", c, len(s.Columns))
		}
		f, err := ArrowField(s.Columns[c].Name, s.Columns[c].Type)
		if err != nil {
			return nil, err
		}
		fields[i] = f
	}
	return arrow.NewSchema(fields, nil), nil
}
