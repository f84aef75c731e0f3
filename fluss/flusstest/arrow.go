package flusstest

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/types"
)

// projectBatch re-encodes one stored ARROW batch with the columns proj only, as the server
// does for a fetch with projection pushdown.
func projectBatch(t *table, data []byte, proj []int) ([]byte, error) {
	s := t.desc.Schema.Schema
	for _, p := range proj {
		if p < 0 || p >= len(s.Columns) {
			return nil, fmt.Errorf("projected field %d is not a column of %s.%s", p, t.db, t.name)
		}
	}
	full, err := types.ToArrowSchema(s)
	if err != nil {
		return nil, err
	}
	projected, err := types.ProjectedArrowSchema(s, proj)
	if err != nil {
		return nil, err
	}
	b, _, err := logbatch.ParseBatch(data)
	if err != nil {
		return nil, err
	}
	dec, err := logbatch.NewArrowDecoder(full)
	if err != nil {
		return nil, err
	}
	defer dec.Close()
	recs, err := dec.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("stored batch of %s.%s does not decode: %w", t.db, t.name, err)
	}
	defer recs.Release()
	cols := make([]arrow.Array, len(proj))
	for i, p := range proj {
		cols[i] = recs.Record.Column(p)
	}
	rec := array.NewRecordBatch(projected, cols, recs.Record.NumRows())
	defer rec.Release()
	enc, err := logbatch.NewArrowEncoder(projected, logbatch.CompressionNone)
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	h := b.Header
	return enc.AppendBatch(nil, h, rec, recs.ChangeTypes)
}

// changelogBatch encodes rows (value-model values of every column) and their change types
// as one ARROW log batch of the table's schema.
func changelogBatch(t *table, rows [][]any, kinds []logbatch.ChangeType) ([]byte, error) {
	schema, err := types.ToArrowSchema(t.desc.Schema.Schema)
	if err != nil {
		return nil, err
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for _, r := range rows {
		for i, v := range r {
			if err := appendValue(rb.Field(i), t.colTypes[i], v); err != nil {
				return nil, fmt.Errorf("column %q: %w", t.desc.Schema.Schema.Columns[i].Name, err)
			}
		}
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	enc, err := logbatch.NewArrowEncoder(schema, logbatch.CompressionNone)
	if err != nil {
		return nil, err
	}
	defer enc.Close()
	return enc.AppendBatch(nil, logbatch.Header{SchemaID: 1, WriterID: logbatch.NoWriterID, BatchSequence: logbatch.NoBatchSequence}, rec, kinds)
}

// appendValue appends one value of the row value model (as the row decoders return it) to an
// Arrow builder of the column's type (types.ArrowType). Nested types are not kept.
func appendValue(b array.Builder, t types.DataType, v any) error {
	if v == nil {
		b.AppendNull()
		return nil
	}
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(v.(bool))
	case *array.Int8Builder:
		b.Append(v.(int8))
	case *array.Int16Builder:
		b.Append(v.(int16))
	case *array.Int32Builder:
		b.Append(v.(int32))
	case *array.Int64Builder:
		b.Append(v.(int64))
	case *array.Float32Builder:
		b.Append(v.(float32))
	case *array.Float64Builder:
		b.Append(v.(float64))
	case *array.StringBuilder:
		b.Append(v.(string))
	case *array.BinaryBuilder:
		b.Append(v.([]byte))
	case *array.FixedSizeBinaryBuilder:
		b.Append(v.([]byte))
	case *array.Decimal128Builder:
		d := v.(datum.Decimal)
		if d.Scale() != t.Scale {
			var err error
			if d, err = d.Rescale(t.Scale); err != nil {
				return err
			}
		}
		b.Append(decimal128.FromBigInt(d.Unscaled()))
	case *array.Date32Builder:
		b.Append(arrow.Date32(v.(datum.Date)))
	case *array.Time32Builder:
		ms := int64(v.(datum.Time))
		if b.Type().(*arrow.Time32Type).Unit == arrow.Second {
			b.Append(arrow.Time32(ms / 1000))
		} else {
			b.Append(arrow.Time32(ms))
		}
	case *array.Time64Builder:
		ms := int64(v.(datum.Time))
		if b.Type().(*arrow.Time64Type).Unit == arrow.Microsecond {
			b.Append(arrow.Time64(ms * 1000))
		} else {
			b.Append(arrow.Time64(ms * 1_000_000))
		}
	case *array.TimestampBuilder:
		var ms int64
		var nanos int32
		switch ts := v.(type) {
		case datum.TimestampNTZ:
			ms, nanos = ts.Millis, ts.NanoOfMilli
		case datum.TimestampLTZ:
			ms, nanos = ts.EpochMillis, ts.NanoOfMilli
		default:
			return fmt.Errorf("flusstest: %T is not a timestamp", v)
		}
		switch b.Type().(*arrow.TimestampType).Unit {
		case arrow.Second:
			b.Append(arrow.Timestamp(ms / 1000))
		case arrow.Millisecond:
			b.Append(arrow.Timestamp(ms))
		case arrow.Microsecond:
			b.Append(arrow.Timestamp(ms*1000 + int64(nanos)/1000))
		default:
			b.Append(arrow.Timestamp(ms*1_000_000 + int64(nanos)))
		}
	default:
		return fmt.Errorf("flusstest: the changelog of a %s column is not kept", t)
	}
	return nil
}
