package logbatch

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// IndexedDecoder decodes INDEXED log batches (table.log.format=INDEXED) into
// the same [Records] shape as [ArrowDecoder]: one Arrow column per selected
// column, with the Arrow types and unit conversions of Fluss's ARROW writer
// (e.g. TIME(0) and TIMESTAMP(0) become seconds). Each record is an int32
// length, a change-type byte and an IndexedRow (null bitset, one int32 length
// per variable-length column, then the non-null values). The server never
// projects INDEXED batches, so the decoder reads full rows and keeps the
// selected columns. It has no ARRAY, MAP or ROW columns (package fluss reads
// INDEXED tables with such columns through the row decoder instead).
// It is not safe for concurrent use.
type IndexedDecoder struct {
	cols     []types.DataType
	selected []int  // schema column index per output column
	outOf    []int  // output column per schema column, -1 if not selected
	variable []bool // per schema column: length comes from the var-length list
	nVar     int
	schema   *arrow.Schema
	mem      memory.Allocator
}

// NewIndexedDecoder returns a decoder for rows of schema s. projection lists
// the schema columns to return, in output order; nil returns all columns.
func NewIndexedDecoder(s types.Schema, projection []int, opts ...Option) (*IndexedDecoder, error) {
	cfg := newConfig(opts)
	as, err := types.ProjectedArrowSchema(s, projection)
	if err != nil {
		return nil, err
	}
	d := &IndexedDecoder{schema: as, mem: &limitedAllocator{Allocator: cfg.mem, limit: cfg.maxAlloc}}
	d.outOf = make([]int, len(s.Columns))
	for i := range d.outOf {
		d.outOf[i] = -1
	}
	if projection == nil {
		for i := range s.Columns {
			projection = append(projection, i)
		}
	}
	d.selected = projection
	for out, c := range projection {
		if d.outOf[c] >= 0 {
			return nil, fmt.Errorf("logbatch: column %d selected twice", c)
		}
		d.outOf[c] = out
	}
	for _, c := range s.Columns {
		if c.Type.Kind.Nested() {
			return nil, fmt.Errorf("logbatch: INDEXED log format with %s columns is not supported", c.Type.Kind)
		}
		v := c.Type.Kind == types.String || c.Type.Kind == types.Bytes ||
			(c.Type.Kind == types.Decimal && c.Type.Precision > 18)
		d.cols = append(d.cols, c.Type)
		d.variable = append(d.variable, v)
		if v {
			d.nVar++
		}
	}
	return d, nil
}

// Schema returns the Arrow schema of decoded records.
func (d *IndexedDecoder) Schema() *arrow.Schema { return d.schema }

// Decode decodes one INDEXED batch. The caller must Release the result.
func (d *IndexedDecoder) Decode(b Batch) (recs *Records, err error) {
	n := int(b.RecordCount)
	data := b.Records()
	if n > len(data)/5 { // every record takes at least 5 bytes
		return nil, errCorruptf("%d records cannot fit in %d bytes", n, len(data))
	}
	builders := make([]array.Builder, len(d.selected))
	defer func() {
		for _, bl := range builders {
			if bl != nil {
				bl.Release()
			}
		}
		if r := recover(); r != nil {
			recs, err = nil, errCorruptf("indexed batch: %v", r)
		}
	}()
	for i, f := range d.schema.Fields() {
		builders[i] = array.NewBuilder(d.mem, f.Type)
		builders[i].Reserve(n)
	}
	out := &Records{Header: b.Header}
	if !b.AppendOnly() {
		out.ChangeTypes = make([]ChangeType, n)
	}
	pos := 0
	for r := 0; r < n; r++ {
		if len(data)-pos < 5 {
			return nil, errCorruptf("record %d truncated", r)
		}
		size := int(int32(binary.LittleEndian.Uint32(data[pos:])))
		if size < 1 || size > len(data)-pos-4 {
			return nil, errCorruptf("record %d length %d out of range", r, size)
		}
		ct := ChangeType(int8(data[pos+4]))
		if !ct.Valid() {
			return nil, errCorruptf("record %d: invalid change type byte %d", r, data[pos+4])
		}
		if out.ChangeTypes != nil {
			out.ChangeTypes[r] = ct
		}
		if err := d.decodeRow(data[pos+5:pos+4+size], builders); err != nil {
			return nil, fmt.Errorf("record %d: %w", r, err)
		}
		pos += 4 + size
	}
	if pos != len(data) {
		return nil, errCorruptf("%d bytes left after %d records", len(data)-pos, n)
	}
	cols := make([]arrow.Array, len(builders))
	for i, bl := range builders {
		cols[i] = bl.NewArray()
	}
	out.Record = array.NewRecordBatch(d.schema, cols, int64(n))
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// decodeRow appends the selected fields of one IndexedRow to the builders.
func (d *IndexedDecoder) decodeRow(row []byte, builders []array.Builder) error {
	nullBytes := (len(d.cols) + 7) / 8
	header := nullBytes + 4*d.nVar
	if len(row) < header {
		return errCorruptf("row of %d bytes shorter than its %d-byte header", len(row), header)
	}
	varPos, pos := nullBytes, header
	le := binary.LittleEndian
	for c, t := range d.cols {
		isNull := row[c/8]&(1<<(c%8)) != 0
		out := d.outOf[c]
		if isNull {
			if out >= 0 {
				if t.NotNull {
					return errCorruptf("NULL in NOT NULL column %d", c)
				}
				builders[out].AppendNull()
			}
			continue
		}
		var size int
		if d.variable[c] {
			size = int(int32(le.Uint32(row[varPos:])))
			varPos += 4
		} else {
			size = fixedSize(t)
		}
		if size < 0 || size > len(row)-pos {
			return errCorruptf("column %d: %d bytes past the row end", c, size)
		}
		v := row[pos : pos+size]
		pos += size
		if out >= 0 {
			if err := appendIndexed(builders[out], t, v); err != nil {
				return fmt.Errorf("column %d: %w", c, err)
			}
		}
	}
	return nil
}

// fixedSize is IndexedRow's byte size of a fixed-length type.
func fixedSize(t types.DataType) int {
	switch t.Kind {
	case types.Boolean, types.TinyInt:
		return 1
	case types.SmallInt:
		return 2
	case types.Int, types.Float, types.Date, types.Time:
		return 4
	case types.BigInt, types.Double, types.Decimal:
		return 8
	case types.Timestamp, types.TimestampLTZ:
		if t.Precision <= 3 {
			return 8
		}
		return 12
	case types.Char, types.Binary:
		return t.Length
	}
	return 0
}

// appendIndexed appends one IndexedRow value v of type t, converted the way
// Fluss's Arrow field writers convert it.
func appendIndexed(b array.Builder, t types.DataType, v []byte) error {
	le := binary.LittleEndian
	switch t.Kind {
	case types.Boolean:
		b.(*array.BooleanBuilder).Append(v[0] != 0)
	case types.TinyInt:
		b.(*array.Int8Builder).Append(int8(v[0]))
	case types.SmallInt:
		b.(*array.Int16Builder).Append(int16(le.Uint16(v)))
	case types.Int:
		b.(*array.Int32Builder).Append(int32(le.Uint32(v)))
	case types.BigInt:
		b.(*array.Int64Builder).Append(int64(le.Uint64(v)))
	case types.Float:
		b.(*array.Float32Builder).Append(math.Float32frombits(le.Uint32(v)))
	case types.Double:
		b.(*array.Float64Builder).Append(math.Float64frombits(le.Uint64(v)))
	case types.Decimal:
		n, err := indexedDecimal(t, v)
		if err != nil {
			return err
		}
		b.(*array.Decimal128Builder).Append(n)
	case types.Char:
		// CHAR(n) is stored zero-padded to n bytes; Java's getChar trims the zeros.
		b.(*array.StringBuilder).BinaryBuilder.Append(bytes.TrimRight(v, "\x00"))
	case types.String:
		b.(*array.StringBuilder).BinaryBuilder.Append(v)
	case types.Binary:
		b.(*array.FixedSizeBinaryBuilder).Append(v)
	case types.Bytes:
		b.(*array.BinaryBuilder).Append(v)
	case types.Date:
		b.(*array.Date32Builder).Append(arrow.Date32(int32(le.Uint32(v))))
	case types.Time:
		ms := int64(int32(le.Uint32(v)))
		switch bb := b.(type) {
		case *array.Time32Builder:
			if t.Precision == 0 {
				bb.Append(arrow.Time32(ms / 1000))
			} else {
				bb.Append(arrow.Time32(ms))
			}
		case *array.Time64Builder:
			if t.Precision <= 6 {
				bb.Append(arrow.Time64(ms * 1000))
			} else {
				bb.Append(arrow.Time64(ms * 1_000_000))
			}
		}
	case types.Timestamp, types.TimestampLTZ:
		ms := int64(le.Uint64(v))
		var nanos int64
		if len(v) >= 12 {
			nanos = int64(int32(le.Uint32(v[8:])))
		}
		var ts int64
		switch p := t.Precision; {
		case p == 0:
			ts = ms / 1000
		case p <= 3:
			ts = ms
		case p <= 6:
			ts = ms*1000 + nanos/1000
		default:
			ts = ms*1_000_000 + nanos
		}
		b.(*array.TimestampBuilder).Append(arrow.Timestamp(ts))
	default:
		return fmt.Errorf("logbatch: unsupported INDEXED type %s", t)
	}
	return nil
}

// indexedDecimal reads a DECIMAL: an int64 unscaled value when p <= 18,
// otherwise big-endian two's-complement bytes (Java BigInteger.toByteArray).
func indexedDecimal(t types.DataType, v []byte) (decimal128.Num, error) {
	if t.Precision <= 18 {
		return decimal128.FromI64(int64(binary.LittleEndian.Uint64(v))), nil
	}
	if len(v) == 0 || len(v) > 16 {
		return decimal128.Num{}, errCorruptf("decimal of %d bytes", len(v))
	}
	n := new(big.Int).SetBytes(v)
	if v[0]&0x80 != 0 { // negative: subtract 2^(8*len)
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(v))))
	}
	return decimal128.FromBigInt(n), nil
}
