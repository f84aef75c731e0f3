package logbatch

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/internal/codec"
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
	codecs   []*codec.Codec // per schema column
	sizes    []int          // per schema column: fixed IndexedRow width, -1 variable
	selected []int          // schema column index per output column
	outOf    []int          // output column per schema column, -1 if not selected
	variable []bool         // per schema column: length comes from the var-length list
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
		cd := codec.For(c.Type.Kind)
		if cd == nil {
			return nil, fmt.Errorf("logbatch: unsupported INDEXED type %s", c.Type)
		}
		size := cd.IndexedSize(&c.Type)
		v := size < 0
		d.cols = append(d.cols, c.Type)
		d.codecs = append(d.codecs, cd)
		d.sizes = append(d.sizes, size)
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
	for c := range d.cols {
		t := &d.cols[c]
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
			size = d.sizes[c]
		}
		if size < 0 || size > len(row)-pos {
			return errCorruptf("column %d: %d bytes past the row end", c, size)
		}
		v := row[pos : pos+size]
		pos += size
		if out >= 0 {
			if err := d.codecs[c].IndexedToArrow(builders[out], t, v); err != nil {
				return errCorruptf("column %d: %v", c, err)
			}
		}
	}
	return nil
}
