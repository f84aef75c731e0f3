package fluss

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/types"
)

// This file converts between the Go value model of rows (package datum) and
// Arrow arrays of the Fluss ARROW log format (types.ArrowType), with the unit
// conversions of Fluss's Java ArrowFieldWriters: TIME(p) millis become
// seconds (p 0, truncated), millis (p 1–3), micros (p 4–6) or nanos (p 7–9);
// TIMESTAMP(p)/TIMESTAMP_LTZ(p) the same from millis + nano-of-milli; DECIMAL
// is Decimal128 at the column's scale; BINARY(n) is FixedSizeBinary(n).
// The scalar conversions are package codec's (Codec.Arrow); ROW, ARRAY and
// MAP (recursive) are in arrow_nested.go.

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

// newColumnCodec returns the conversion of a column of type t: package codec's
// for scalar types, arrow_nested.go's for ROW, ARRAY and MAP.
func newColumnCodec(t types.DataType) (columnCodec, error) {
	if c := codec.For(t.Kind); c != nil {
		col, err := c.Arrow(t)
		if err != nil {
			return columnCodec{}, err
		}
		return columnCodec{t: t, check: col.Check, put: col.Put, get: col.Get}, nil
	}
	switch t.Kind {
	case types.Row:
		return structCodec(t)
	case types.Array:
		return listCodec(t)
	case types.Map:
		return mapCodec(t)
	}
	return columnCodec{}, fmt.Errorf("%s columns are not supported by the Arrow row conversion yet", t.Kind)
}

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
