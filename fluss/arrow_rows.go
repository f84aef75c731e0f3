package fluss

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// This file converts between the Go value model of rows (package datum) and
// Arrow arrays of the Fluss ARROW log format (types.ArrowType), with the unit
// conversions of Fluss's Java ArrowFieldWriters: TIME(p) millis become
// seconds (p 0, truncated), millis (p 1–3), micros (p 4–6) or nanos (p 7–9);
// TIMESTAMP(p)/TIMESTAMP_LTZ(p) the same from millis + nano-of-milli; DECIMAL
// is Decimal128 at the column's scale; BINARY(n) is FixedSizeBinary(n).
// ROW, ARRAY and MAP (recursive) are in arrow_nested.go.

// columnCodec writes and reads one column's values.
type columnCodec struct {
	t types.DataType
	// check validates a non-nil value and returns an estimate of its
	// encoded size; put appends it (after a successful check).
	check func(v any) (int, error)
	put   func(b array.Builder, v any)
	// get reads row i of an array (not null) as a value-model value;
	// strings and bytes are copied out of the Arrow buffers.
	get func(a arrow.Array, i int) any
}

// rowCodec converts whole rows of one schema.
type rowCodec struct {
	schema *arrow.Schema
	names  []string
	cols   []columnCodec
}

func newRowCodec(cols []types.Column, schema *arrow.Schema) (*rowCodec, error) {
	rc := &rowCodec{schema: schema}
	for _, c := range cols {
		cc, err := newColumnCodec(c.Type)
		if err != nil {
			return nil, fmt.Errorf("fluss: column %q: %w", c.Name, err)
		}
		rc.cols = append(rc.cols, cc)
		rc.names = append(rc.names, c.Name)
	}
	return rc, nil
}

// checkRow validates a row against the schema and returns its estimated
// encoded size in bytes.
func (rc *rowCodec) checkRow(values []any) (int, error) {
	if len(values) != len(rc.cols) {
		return 0, fmt.Errorf("fluss: row has %d values, the table has %d columns", len(values), len(rc.cols))
	}
	size := 0
	for i, v := range values {
		if v == nil {
			if rc.cols[i].t.NotNull {
				return 0, fmt.Errorf("fluss: column %q is NOT NULL but the value is NULL", rc.names[i])
			}
			size++
			continue
		}
		n, err := rc.cols[i].check(v)
		if err != nil {
			return 0, fmt.Errorf("fluss: column %q: %w", rc.names[i], err)
		}
		size += n
	}
	return size, nil
}

// putRow appends a row that passed checkRow to the record builder.
func (rc *rowCodec) putRow(rb *array.RecordBuilder, values []any) {
	for i, v := range values {
		b := rb.Field(i)
		if v == nil {
			b.AppendNull()
			continue
		}
		rc.cols[i].put(b, v)
	}
}

// getRow reads row i of rec (columns in schema order) into dst.
func (rc *rowCodec) getRow(rec arrow.RecordBatch, i int, dst []any) []any {
	dst = dst[:0]
	for c := range rc.cols {
		a := rec.Column(c)
		if a.IsNull(i) {
			dst = append(dst, nil)
			continue
		}
		dst = append(dst, rc.cols[c].get(a, i))
	}
	return dst
}

// RowValues returns row i of a record batch read by a LogScanner (or built
// for an AppendWriter) as value-model values, given the Fluss types of its
// columns in order. Strings and bytes are copied.
func RowValues(rec arrow.RecordBatch, colTypes []types.DataType, i int) ([]any, error) {
	if int(rec.NumCols()) != len(colTypes) {
		return nil, fmt.Errorf("fluss: record has %d columns, %d types given", rec.NumCols(), len(colTypes))
	}
	out := make([]any, len(colTypes))
	for c, t := range colTypes {
		a := rec.Column(c)
		if a.IsNull(i) {
			continue
		}
		cc, err := newColumnCodec(t)
		if err != nil {
			return nil, err
		}
		out[c] = cc.get(a, i)
	}
	return out, nil
}

func badType(t types.DataType, want string, v any) error {
	return fmt.Errorf("%s takes %s, got %T", t, want, v)
}

func newColumnCodec(t types.DataType) (columnCodec, error) {
	cc := columnCodec{t: t}
	switch t.Kind {
	case types.Boolean:
		cc.check = fixedCheck[bool](t, "bool", 1)
		cc.put = func(b array.Builder, v any) { b.(*array.BooleanBuilder).Append(v.(bool)) }
		cc.get = func(a arrow.Array, i int) any { return a.(*array.Boolean).Value(i) }
	case types.TinyInt:
		cc.check = fixedCheck[int8](t, "int8", 1)
		cc.put = func(b array.Builder, v any) { b.(*array.Int8Builder).Append(v.(int8)) }
		cc.get = func(a arrow.Array, i int) any { return a.(*array.Int8).Value(i) }
	case types.SmallInt:
		cc.check = fixedCheck[int16](t, "int16", 2)
		cc.put = func(b array.Builder, v any) { b.(*array.Int16Builder).Append(v.(int16)) }
		cc.get = func(a arrow.Array, i int) any { return a.(*array.Int16).Value(i) }
	case types.Int:
		cc.check = fixedCheck[int32](t, "int32", 4)
		cc.put = func(b array.Builder, v any) { b.(*array.Int32Builder).Append(v.(int32)) }
		cc.get = func(a arrow.Array, i int) any { return a.(*array.Int32).Value(i) }
	case types.BigInt:
		cc.check = fixedCheck[int64](t, "int64", 8)
		cc.put = func(b array.Builder, v any) { b.(*array.Int64Builder).Append(v.(int64)) }
		cc.get = func(a arrow.Array, i int) any { return a.(*array.Int64).Value(i) }
	case types.Float:
		cc.check = fixedCheck[float32](t, "float32", 4)
		cc.put = func(b array.Builder, v any) { b.(*array.Float32Builder).Append(v.(float32)) }
		cc.get = func(a arrow.Array, i int) any { return a.(*array.Float32).Value(i) }
	case types.Double:
		cc.check = fixedCheck[float64](t, "float64", 8)
		cc.put = func(b array.Builder, v any) { b.(*array.Float64Builder).Append(v.(float64)) }
		cc.get = func(a arrow.Array, i int) any { return a.(*array.Float64).Value(i) }
	case types.Date:
		cc.check = fixedCheck[datum.Date](t, "datum.Date", 4)
		cc.put = func(b array.Builder, v any) { b.(*array.Date32Builder).Append(arrow.Date32(v.(datum.Date))) }
		cc.get = func(a arrow.Array, i int) any { return datum.Date(a.(*array.Date32).Value(i)) }
	case types.Char, types.String:
		cc.check = func(v any) (int, error) {
			s, ok := v.(string)
			if !ok {
				return 0, badType(t, "string", v)
			}
			return len(s) + 4, nil
		}
		cc.put = func(b array.Builder, v any) { b.(*array.StringBuilder).Append(v.(string)) }
		cc.get = func(a arrow.Array, i int) any { return string([]byte(a.(*array.String).Value(i))) }
	case types.Bytes:
		cc.check = func(v any) (int, error) {
			s, ok := v.([]byte)
			if !ok {
				return 0, badType(t, "[]byte", v)
			}
			return len(s) + 4, nil
		}
		cc.put = func(b array.Builder, v any) { b.(*array.BinaryBuilder).Append(v.([]byte)) }
		cc.get = func(a arrow.Array, i int) any { return cloneBytes(a.(*array.Binary).Value(i)) }
	case types.Binary:
		n := t.Length
		cc.check = func(v any) (int, error) {
			s, ok := v.([]byte)
			if !ok {
				return 0, badType(t, "[]byte", v)
			}
			if len(s) > n {
				return 0, fmt.Errorf("%d bytes do not fit %s", len(s), t)
			}
			return n, nil
		}
		cc.put = func(b array.Builder, v any) {
			s := v.([]byte)
			if len(s) < n { // BINARY(n) is zero-padded, as Fluss's row encoders do
				p := make([]byte, n)
				copy(p, s)
				s = p
			}
			b.(*array.FixedSizeBinaryBuilder).Append(s)
		}
		cc.get = func(a arrow.Array, i int) any { return cloneBytes(a.(*array.FixedSizeBinary).Value(i)) }
	case types.Decimal:
		return decimalCodec(t)
	case types.Time:
		return timeCodec(t)
	case types.Timestamp, types.TimestampLTZ:
		return timestampCodec(t)
	case types.Row:
		return structCodec(t)
	case types.Array:
		return listCodec(t)
	case types.Map:
		return mapCodec(t)
	default:
		return cc, fmt.Errorf("%s columns are not supported by the Arrow row conversion yet", t.Kind)
	}
	return cc, nil
}

func fixedCheck[T any](t types.DataType, name string, size int) func(any) (int, error) {
	return func(v any) (int, error) {
		if _, ok := v.(T); !ok {
			return 0, badType(t, name, v)
		}
		return size, nil
	}
}

func cloneBytes(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

func decimalCodec(t types.DataType) (columnCodec, error) {
	if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
		return columnCodec{}, fmt.Errorf("invalid %s", t)
	}
	fit := func(v any) (datum.Decimal, error) {
		d, ok := v.(datum.Decimal)
		if !ok {
			return datum.Decimal{}, badType(t, "datum.Decimal", v)
		}
		r, err := d.Rescale(t.Scale)
		if err != nil {
			return datum.Decimal{}, err
		}
		if r.Precision() > t.Precision {
			return datum.Decimal{}, fmt.Errorf("decimal %s does not fit %s", d, t)
		}
		return r, nil
	}
	return columnCodec{
		t: t,
		check: func(v any) (int, error) {
			_, err := fit(v)
			return 16, err
		},
		put: func(b array.Builder, v any) {
			d, _ := fit(v)
			b.(*array.Decimal128Builder).Append(decimalToNum(d))
		},
		get: func(a arrow.Array, i int) any {
			n := a.(*array.Decimal128).Value(i)
			if n.HighBits() == 0 && n.LowBits() <= 1<<63-1 || n.HighBits() == -1 && n.LowBits() >= 1<<63 {
				return datum.NewDecimal(int64(n.LowBits()), t.Scale)
			}
			return datum.NewDecimalFromBig(n.BigInt(), t.Scale)
		},
	}, nil
}

func decimalToNum(d datum.Decimal) decimal128.Num {
	if u, ok := d.UnscaledInt64(); ok {
		return decimal128.FromI64(u)
	}
	return decimal128.FromBigInt(d.Unscaled())
}

func timeCodec(t types.DataType) (columnCodec, error) {
	at, err := types.ArrowType(t)
	if err != nil {
		return columnCodec{}, err
	}
	cc := columnCodec{t: t, check: fixedCheck[datum.Time](t, "datum.Time", 8)}
	switch at.(type) {
	case *arrow.Time32Type:
		if at.(*arrow.Time32Type).Unit == arrow.Second {
			cc.put = func(b array.Builder, v any) {
				b.(*array.Time32Builder).Append(arrow.Time32(int32(v.(datum.Time)) / 1000))
			}
			cc.get = func(a arrow.Array, i int) any { return datum.Time(int32(a.(*array.Time32).Value(i)) * 1000) }
		} else {
			cc.put = func(b array.Builder, v any) { b.(*array.Time32Builder).Append(arrow.Time32(v.(datum.Time))) }
			cc.get = func(a arrow.Array, i int) any { return datum.Time(a.(*array.Time32).Value(i)) }
		}
	case *arrow.Time64Type:
		mul := int64(1000)
		if at.(*arrow.Time64Type).Unit == arrow.Nanosecond {
			mul = 1_000_000
		}
		cc.put = func(b array.Builder, v any) {
			b.(*array.Time64Builder).Append(arrow.Time64(int64(v.(datum.Time)) * mul))
		}
		cc.get = func(a arrow.Array, i int) any { return datum.Time(floorDiv64(int64(a.(*array.Time64).Value(i)), mul)) }
	}
	return cc, nil
}

// timestampCodec handles TIMESTAMP (datum.TimestampNTZ) and TIMESTAMP_LTZ
// (datum.TimestampLTZ); both are zone-less Arrow timestamps.
func timestampCodec(t types.DataType) (columnCodec, error) {
	at, err := types.ArrowType(t)
	if err != nil {
		return columnCodec{}, err
	}
	unit := at.(*arrow.TimestampType).Unit
	ltz := t.Kind == types.TimestampLTZ
	split := func(v any) (int64, int32) {
		if ltz {
			x := v.(datum.TimestampLTZ)
			return x.EpochMillis, x.NanoOfMilli
		}
		x := v.(datum.TimestampNTZ)
		return x.Millis, x.NanoOfMilli
	}
	join := func(ms int64, nano int32) any {
		if ltz {
			return datum.TimestampLTZ{EpochMillis: ms, NanoOfMilli: nano}
		}
		return datum.TimestampNTZ{Millis: ms, NanoOfMilli: nano}
	}
	cc := columnCodec{t: t}
	if ltz {
		cc.check = fixedCheck[datum.TimestampLTZ](t, "datum.TimestampLTZ", 8)
	} else {
		cc.check = fixedCheck[datum.TimestampNTZ](t, "datum.TimestampNTZ", 8)
	}
	inner := cc.check
	cc.check = func(v any) (int, error) {
		n, err := inner(v)
		if err != nil {
			return 0, err
		}
		if _, nano := split(v); nano < 0 || nano > 999_999 {
			return 0, fmt.Errorf("nano-of-millisecond %d out of range 0..999999", nano)
		}
		return n, nil
	}
	cc.put = func(b array.Builder, v any) {
		ms, nano := split(v)
		var x int64
		switch unit { // as Fluss's ArrowTimestamp{Ntz,Ltz}Writer
		case arrow.Second:
			x = ms / 1000
		case arrow.Millisecond:
			x = ms
		case arrow.Microsecond:
			x = ms*1000 + int64(nano)/1000
		default:
			x = ms*1_000_000 + int64(nano)
		}
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(x))
	}
	cc.get = func(a arrow.Array, i int) any {
		x := int64(a.(*array.Timestamp).Value(i))
		switch unit {
		case arrow.Second:
			return join(x*1000, 0)
		case arrow.Millisecond:
			return join(x, 0)
		case arrow.Microsecond:
			return join(floorDiv64(x, 1000), int32(floorMod64(x, 1000)*1000))
		default:
			return join(floorDiv64(x, 1_000_000), int32(floorMod64(x, 1_000_000)))
		}
	}
	return cc, nil
}

func floorDiv64(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func floorMod64(a, b int64) int64 { return a - floorDiv64(a, b)*b }

// ArrowRowBuilder builds Arrow records, in the Fluss Arrow layout of a
// column list, from value-model rows: the records an AppendWriter takes with
// AppendRecordBatch. Not safe for concurrent use; Release it when done.
type ArrowRowBuilder struct {
	rb    *array.RecordBuilder
	codec *rowCodec
}

// NewArrowRowBuilder returns a builder for rows of the given columns
// (e.g. Table.Info().Schema().Columns). mem nil means Go memory.
func NewArrowRowBuilder(mem memory.Allocator, cols []types.Column) (*ArrowRowBuilder, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	schema, err := types.ToArrowSchema(types.Schema{Columns: cols})
	if err != nil {
		return nil, err
	}
	codec, err := newRowCodec(cols, schema)
	if err != nil {
		return nil, err
	}
	return &ArrowRowBuilder{rb: array.NewRecordBuilder(mem, schema), codec: codec}, nil
}

// Append adds one row (values in column order, nil for NULL); an invalid
// row is an error and adds nothing.
func (b *ArrowRowBuilder) Append(values []any) error {
	if _, err := b.codec.checkRow(values); err != nil {
		return err
	}
	b.codec.putRow(b.rb, values)
	return nil
}

// NewRecordBatch returns the rows appended so far as a record and starts
// a new one. The caller releases the record.
func (b *ArrowRowBuilder) NewRecordBatch() arrow.RecordBatch { return b.rb.NewRecordBatch() }

// Release frees the builder.
func (b *ArrowRowBuilder) Release() { b.rb.Release() }
