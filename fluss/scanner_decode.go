package fluss

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// projection is how a scanner's column selection is fetched and decoded.
type projection struct {
	format   string // ARROW, INDEXED or COMPACTED
	fetch    []int  // ARROW: table columns fetched, ascending
	pushdown bool   // send fetch to the server
	decoded  *arrow.Schema
	reorder  []int // output column i is decoded column reorder[i]; nil = same
	output   []int // table column of each output column
	out      *arrow.Schema
	outTypes []types.DataType
	schema   types.Schema
}

// newProjection plans reading columns cols (nil: all) of schema s from a
// log of the given format, pushing the selection to the server when the
// format allows it (ARROW).
func newProjection(s types.Schema, cols []int, format string) (*projection, error) {
	return planProjection(s, cols, format, true)
}

// withoutPushdown returns the same selection read by fetching every column
// and selecting on the client.
func (p *projection) withoutPushdown() (*projection, error) {
	return planProjection(p.schema, p.output, p.format, false)
}

func planProjection(s types.Schema, cols []int, format string, allowPushdown bool) (*projection, error) {
	p := &projection{format: strings.ToUpper(format), schema: s}
	n := len(s.Columns)
	if cols == nil {
		for i := 0; i < n; i++ {
			p.output = append(p.output, i)
		}
	} else {
		if len(cols) == 0 {
			return nil, fmt.Errorf("fluss: empty projection: select at least one column")
		}
		seen := map[int]bool{}
		for _, c := range cols {
			if c < 0 || c >= n {
				return nil, fmt.Errorf("fluss: projected column %d out of range [0,%d)", c, n)
			}
			if seen[c] {
				return nil, fmt.Errorf("fluss: column %d projected twice", c)
			}
			seen[c] = true
		}
		p.output = slices.Clone(cols)
	}
	var err error
	if p.out, err = types.ProjectedArrowSchema(s, p.output); err != nil {
		return nil, err
	}
	for _, c := range p.output {
		p.outTypes = append(p.outTypes, s.Columns[c].Type)
	}
	switch p.format {
	case "ARROW":
		p.fetch = slices.Clone(p.output)
		slices.Sort(p.fetch)
		p.pushdown = len(p.fetch) < n
		if !allowPushdown && p.pushdown {
			p.fetch, p.pushdown = nil, false
			for i := 0; i < n; i++ {
				p.fetch = append(p.fetch, i)
			}
		}
		if p.decoded, err = types.ProjectedArrowSchema(s, p.fetch); err != nil {
			return nil, err
		}
		if !slices.Equal(p.fetch, p.output) {
			for _, c := range p.output {
				p.reorder = append(p.reorder, slices.Index(p.fetch, c))
			}
		}
	case "INDEXED", "COMPACTED":
		// The server does not project these formats; the decoder does.
		p.decoded = p.out
	default:
		return nil, fmt.Errorf("fluss: log format %s is not supported", format)
	}
	return p, nil
}

// batchDecoder turns one log batch into Arrow records of the decoded schema.
type batchDecoder interface {
	Decode(b logbatch.Batch) (*logbatch.Records, error)
}

// decoderPool keeps decoders (not safe for concurrent use) for the
// concurrent fetches of a scanner.
type decoderPool struct {
	t    *Table
	p    *projection
	mem  memory.Allocator
	mu   sync.Mutex
	free []batchDecoder
	all  []batchDecoder
}

func newDecoderPool(t *Table, p *projection, mem memory.Allocator) *decoderPool {
	return &decoderPool{t: t, p: p, mem: mem}
}

func (dp *decoderPool) get() batchDecoder {
	dp.mu.Lock()
	defer dp.mu.Unlock()
	if n := len(dp.free); n > 0 {
		d := dp.free[n-1]
		dp.free = dp.free[:n-1]
		return d
	}
	d, err := dp.newDecoder()
	if err != nil {
		return errDecoder{err}
	}
	dp.all = append(dp.all, d)
	return d
}

func (dp *decoderPool) put(d batchDecoder) {
	if _, bad := d.(errDecoder); bad {
		return
	}
	dp.mu.Lock()
	dp.free = append(dp.free, d)
	dp.mu.Unlock()
}

func (dp *decoderPool) close() {
	dp.mu.Lock()
	defer dp.mu.Unlock()
	for _, d := range dp.all {
		if ad, ok := d.(*logbatch.ArrowDecoder); ok {
			ad.Close()
		}
	}
	dp.all, dp.free = nil, nil
}

func (dp *decoderPool) newDecoder() (batchDecoder, error) {
	opt := logbatch.WithAllocator(dp.mem)
	switch dp.p.format {
	case "ARROW":
		return logbatch.NewArrowDecoder(dp.p.decoded, opt)
	case "INDEXED":
		if !hasNestedColumns(dp.p.schema) {
			return logbatch.NewIndexedDecoder(dp.p.schema, dp.p.output, opt)
		}
		// logbatch's column-wise INDEXED decoder has no ARRAY/MAP/ROW; the row
		// decoder has.
		return newRowLogDecoder(dp.p, dp.mem, row.Indexed)
	}
	return newRowLogDecoder(dp.p, dp.mem, row.Compacted)
}

// hasNestedColumns reports whether s has an ARRAY, MAP or ROW column.
func hasNestedColumns(s types.Schema) bool {
	for _, c := range s.Columns {
		if c.Type.Kind.Nested() {
			return true
		}
	}
	return false
}

type errDecoder struct{ err error }

func (e errDecoder) Decode(logbatch.Batch) (*logbatch.Records, error) { return nil, e.err }

// decodeRecords decodes the records of one bucket's fetch answer into scan
// batches, skipping rows before the fetch offset and, when bounded, rows
// at or after the end offset. It returns the next fetch offset. A trailing
// partial batch is ignored (the next fetch gets it whole). CRCs are checked
// unless the projection was pushed down (the server keeps the CRC of the
// unprojected batch). Batches written under another schema id than the
// table handle's are decoded with their own schema (fetched with ctx once)
// and mapped to the output columns by column id (scanner_schema.go).
func (s *LogScanner) decodeRecords(ctx context.Context, dec batchDecoder, f *bucketFetch, records []byte, hw int64) ([]*ScanBatch, int64, error) {
	return s.decodeBatches(ctx, s.proj, dec, f, records, hw)
}

// decodeBatches is decodeRecords for batches fetched as projection p says
// (the scanner's own, or, for remote segments, one without pushdown); dec
// is a decoder of p.
func (s *LogScanner) decodeBatches(ctx context.Context, p *projection, dec batchDecoder, f *bucketFetch, records []byte, hw int64) ([]*ScanBatch, int64, error) {
	var out []*ScanBatch
	fail := func(err error) ([]*ScanBatch, int64, error) {
		for _, b := range out {
			b.Release()
		}
		return nil, f.offset, err
	}
	next := f.offset
	it := logbatch.NewIterator(records, logbatch.DecodeOptions{SkipCRC: p.pushdown})
	prev := int64(-1)
	for it.Next() {
		b := it.Batch()
		if b.BaseOffset < 0 || b.LastOffsetDelta < 0 || b.BaseOffset < prev || int64(b.RecordCount) > int64(b.LastOffsetDelta)+1 {
			return fail(fmt.Errorf("%w: batch at offset %d (last offset delta %d, %d records) is out of order or inconsistent",
				logbatch.ErrCorrupt, b.BaseOffset, b.LastOffsetDelta, b.RecordCount))
		}
		prev = b.NextOffset()
		if f.offset >= 0 && b.NextOffset() <= f.offset {
			continue // wholly before the fetch offset
		}
		if f.end >= 0 && b.BaseOffset >= f.end {
			break
		}
		next = b.NextOffset()
		if b.RecordCount == 0 {
			continue
		}
		var recs *logbatch.Records
		var err error
		mapped := int32(b.SchemaID) != s.t.info.SchemaID
		if mapped {
			recs, err = s.decodeOtherSchema(ctx, p, b)
		} else {
			recs, err = dec.Decode(b)
		}
		if err != nil {
			return fail(fmt.Errorf("fluss: decoding the batch at offset %d (schema id %d): %w", b.BaseOffset, b.SchemaID, err))
		}
		sb, err := s.scanBatch(p, f, recs, hw, mapped)
		if err != nil {
			return fail(err)
		}
		if sb != nil {
			out = append(out, sb)
		}
	}
	if err := it.Err(); err != nil {
		return fail(err)
	}
	return out, next, nil
}

// scanBatch trims a decoded batch to [fetch offset, end) and puts its
// columns in the output order (unless ordered: they already are). It
// returns nil when no row is left.
func (s *LogScanner) scanBatch(p *projection, f *bucketFetch, recs *logbatch.Records, hw int64, ordered bool) (*ScanBatch, error) {
	n := int64(recs.NumRows())
	lo, hi := int64(0), n
	if f.offset > recs.Header.BaseOffset {
		lo = f.offset - recs.Header.BaseOffset
	}
	if f.end >= 0 && recs.Header.BaseOffset+n > f.end {
		hi = f.end - recs.Header.BaseOffset
	}
	if lo >= hi {
		recs.Release()
		return nil, nil
	}
	rec := recs.Record
	if lo > 0 || hi < n {
		rec = rec.NewSlice(lo, hi)
		recs.Record.Release()
	}
	if p.reorder != nil && !ordered {
		cols := make([]arrow.Array, len(p.reorder))
		for i, c := range p.reorder {
			cols[i] = rec.Column(c)
		}
		re := array.NewRecordBatch(p.out, cols, rec.NumRows())
		rec.Release()
		rec = re
	}
	sb := &ScanBatch{
		Bucket:        f.tb,
		Partition:     f.partition,
		Record:        rec,
		BaseOffset:    recs.Header.BaseOffset + lo,
		CommitTime:    time.UnixMilli(recs.Header.CommitTimestamp),
		HighWatermark: hw,
	}
	if recs.ChangeTypes != nil {
		sb.ChangeTypes = make([]ChangeType, hi-lo)
		for i := range sb.ChangeTypes {
			sb.ChangeTypes[i] = ChangeType(recs.ChangeTypes[lo+int64(i)])
		}
	}
	return sb, nil
}

// rowLogDecoder decodes COMPACTED log batches, and INDEXED ones with nested
// columns (each record an int32 length, a change-type byte and a
// CompactedRow or IndexedRow), into Arrow records of the projected columns.
type rowLogDecoder struct {
	p     *projection
	mem   memory.Allocator
	rows  row.Decoder
	codec *rowCodec
}

func newRowLogDecoder(p *projection, mem memory.Allocator, format row.Format) (*rowLogDecoder, error) {
	rd, err := row.NewDecoder(format, row.FieldTypes(p.schema.Columns))
	if err != nil {
		return nil, err
	}
	cols := make([]types.Column, len(p.output))
	for i, c := range p.output {
		cols[i] = p.schema.Columns[c]
	}
	codec, err := newRowCodec(cols, p.out)
	if err != nil {
		return nil, err
	}
	return &rowLogDecoder{p: p, mem: mem, rows: rd, codec: codec}, nil
}

// Decode implements batchDecoder.
func (d *rowLogDecoder) Decode(b logbatch.Batch) (recs *logbatch.Records, err error) {
	data := b.Records()
	n := int(b.RecordCount)
	rb := array.NewRecordBuilder(d.mem, d.p.out)
	defer rb.Release()
	var cts []logbatch.ChangeType
	out := make([]any, len(d.p.output))
	for i := 0; i < n; i++ {
		if len(data) < 5 {
			return nil, fmt.Errorf("%w: record %d of %d truncated", logbatch.ErrCorrupt, i, n)
		}
		l := int(uint32(data[0]) | uint32(data[1])<<8 | uint32(data[2])<<16 | uint32(data[3])<<24)
		if l < 1 || l > len(data)-4 {
			return nil, fmt.Errorf("%w: record %d has length %d with %d bytes left", logbatch.ErrCorrupt, i, l, len(data)-4)
		}
		ct := logbatch.ChangeType(int8(data[4]))
		if !ct.Valid() {
			return nil, fmt.Errorf("%w: record %d has change type %d", logbatch.ErrCorrupt, i, data[4])
		}
		vals, err := d.rows.Decode(data[5 : 4+l])
		if err != nil {
			return nil, fmt.Errorf("%w: record %d: %v", logbatch.ErrCorrupt, i, err)
		}
		for j, c := range d.p.output {
			out[j] = vals[c]
		}
		if _, err := d.codec.checkRow(out); err != nil {
			return nil, fmt.Errorf("%w: record %d: %v", logbatch.ErrCorrupt, i, err)
		}
		d.codec.putRow(rb, out)
		if ct != logbatch.AppendOnly || cts != nil {
			if cts == nil {
				cts = make([]logbatch.ChangeType, i, n)
			}
			cts = append(cts, ct)
		}
		data = data[4+l:]
	}
	return &logbatch.Records{Header: b.Header, Record: rb.NewRecordBatch(), ChangeTypes: cts}, nil
}
