package fluss

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// AppendWriterOptions configure an AppendWriter.
type AppendWriterOptions struct {
	WriterOptions
}

// AppendWriter appends rows to a log table. Rows are batched per bucket in
// the table's log format (ARROW with the table's compression by default;
// INDEXED and COMPACTED tables get rows in those formats) and sent to the
// bucket leaders in the background. Append returns once a row is buffered;
// Flush waits until the server has acknowledged everything appended so far
// and reports failures. Writes are idempotent by default. Safe for
// concurrent use; Close it when done.
type AppendWriter struct {
	t       *Table
	core    *writerCore
	codec   *rowCodec
	router  *partitionRouter // nil for non-partitioned tables
	buckets *bucketAssigner
	format  string

	schemaID int16
	statCols []int            // columns with statistics (magic V1 batches); nil for none
	colTypes []types.DataType // the table's column types, for statistics
	encoders *arrowEncoderPool
	rowEnc   row.Encoder
	compress logbatch.Compression
	keyBuf   sync.Pool // *[]byte
}

// NewAppendWriter returns a writer for the table, which must be a log
// table. With idempotence on (the default) it obtains a writer id from the
// cluster.
func (t *Table) NewAppendWriter(ctx context.Context, opts AppendWriterOptions) (*AppendWriter, error) {
	info := t.info
	if info.HasPrimaryKey() {
		return nil, fmt.Errorf("fluss: %s is a primary-key table: write it with an upsert writer", t.Path())
	}
	cfg, err := opts.resolve(t.c.cfg.RequestTimeout)
	if err != nil {
		return nil, err
	}
	w := &AppendWriter{t: t, schemaID: int16(info.SchemaID), format: strings.ToUpper(info.LogFormat())}
	if w.codec, err = newRowCodec(info.Schema().Columns, t.schema); err != nil {
		return nil, err
	}
	switch w.format {
	case "ARROW":
		if w.compress, err = logbatch.ParseCompression(info.Property(PropArrowCompression, "ZSTD")); err != nil {
			return nil, fmt.Errorf("fluss: table %s: %w", t.Path(), err)
		}
		if w.statCols, err = t.writeStatistics(ctx, info); err != nil {
			return nil, err
		}
		w.colTypes = row.FieldTypes(info.Schema().Columns)
		level := logbatch.DefaultZstdLevel
		if w.compress == logbatch.CompressionZstd {
			if level, err = strconv.Atoi(strings.TrimSpace(info.Property(PropArrowZstdLevel, strconv.Itoa(level)))); err != nil {
				return nil, fmt.Errorf("fluss: table %s: %s is not a number: %w", t.Path(), PropArrowZstdLevel, err)
			}
		}
		// A first encoder now, so that a level the encoder refuses fails here.
		first, err := logbatch.NewArrowEncoder(t.schema, w.compress, logbatch.WithZstdLevel(level))
		if err != nil {
			return nil, fmt.Errorf("fluss: table %s: %w", t.Path(), err)
		}
		w.encoders = newArrowEncoderPool(func() (*logbatch.ArrowEncoder, error) {
			return logbatch.NewArrowEncoder(t.schema, w.compress, logbatch.WithZstdLevel(level))
		})
		w.encoders.put(first)
	case "INDEXED", "COMPACTED":
		f, _ := row.ParseFormat(w.format)
		if w.rowEnc, err = row.NewEncoder(f, row.FieldTypes(info.Schema().Columns)); err != nil {
			return nil, fmt.Errorf("fluss: table %s: %w", t.Path(), err)
		}
	default:
		return nil, fmt.Errorf("fluss: table %s has log format %s, which this client cannot write", t.Path(), w.format)
	}
	n, err := t.numBuckets(ctx)
	if err != nil {
		return nil, err
	}
	if w.buckets, err = newBucketAssigner(t, n); err != nil {
		return nil, err
	}
	if info.IsPartitioned() {
		if w.router, err = newPartitionRouter(t, cfg); err != nil {
			return nil, err
		}
	}
	w.keyBuf.New = func() any { b := make([]byte, 0, 64); return &b }
	w.core, err = newWriterCore(ctx, t.c, t.Path(), info.TableID, cfg, logProtocol{}, w.newContent)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// rowOverhead is added to every row's size estimate (offsets, validity).
const rowOverhead = 8

// Append buffers one row, given as values in table column order in the Go
// value model (see package datum; nil is NULL). It returns when the row is
// buffered, waiting while the buffer memory is used up; a partition that
// does not exist makes it wait up to MissingPartitionTimeout (or create the
// partition). Whether the row was stored is known after Flush.
func (w *AppendWriter) Append(ctx context.Context, values []any) error {
	return w.AppendWith(ctx, nil, values)
}

// AppendWith is Append for receipt r: r.Wait reports the outcome of this row
// together with the others written with r, and Flush does not. A nil r is
// Append.
func (w *AppendWriter) AppendWith(ctx context.Context, r *Receipt, values []any) error {
	size, err := w.codec.checkRow(values)
	if err != nil {
		return err
	}
	size += rowOverhead
	if err := w.core.checkRowSize(w.t.Path().String(), size); err != nil {
		return err
	}
	target, err := w.route(ctx, values)
	if err != nil {
		return err
	}
	if err := w.core.reserve(ctx, size); err != nil {
		return err
	}
	full, err := w.core.add(target, size, r, func(c batchContent) error {
		return c.(*logContent).put(values)
	})
	if err != nil {
		return err
	}
	if full {
		w.buckets.batchFull(target.partitionID, target.bucket)
	}
	return nil
}

// route returns the partition and bucket of a row.
func (w *AppendWriter) route(ctx context.Context, values []any) (writeTarget, error) {
	target := writeTarget{partitionID: -1}
	if w.router != nil {
		name, id, err := w.router.resolve(ctx, values)
		if err != nil {
			return target, err
		}
		target.partition, target.partitionID = name, id
	}
	kb := w.keyBuf.Get().(*[]byte)
	b, k, err := w.buckets.assign(values, target.partitionID, *kb)
	*kb = k
	w.keyBuf.Put(kb)
	target.bucket = b
	return target, err
}

// AppendRecordBatch appends every row of an Arrow record whose fields match
// the table's Arrow schema (Table.ArrowSchema) by name and type. On a table
// without partitions and bucket key the record is sent as it is, in slices
// of about the batch size; otherwise its rows are routed one by one.
func (w *AppendWriter) AppendRecordBatch(ctx context.Context, rec arrow.RecordBatch) error {
	return w.AppendRecordBatchWith(ctx, nil, rec)
}

// AppendRecordBatchWith is AppendRecordBatch for receipt r (see AppendWith).
func (w *AppendWriter) AppendRecordBatchWith(ctx context.Context, r *Receipt, rec arrow.RecordBatch) error {
	rec, err := w.conform(rec)
	if err != nil {
		return err
	}
	defer rec.Release()
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	if w.router != nil || w.buckets.hashed() || w.format != "ARROW" {
		values := make([]any, len(w.codec.cols))
		for i := 0; i < n; i++ {
			values = w.codec.getRow(rec, i, values)
			if err := w.AppendWith(ctx, r, values); err != nil {
				return fmt.Errorf("fluss: row %d of the record: %w", i, err)
			}
		}
		return nil
	}
	perRow := max(recordBytes(rec)/n, 1) + rowOverhead
	chunk := max(w.core.cfg.batchSize/perRow, 1)
	for off := 0; off < n; off += chunk {
		end := min(off+chunk, n)
		target, err := w.route(ctx, nil)
		if err != nil {
			return err
		}
		size := (end - off) * perRow
		if end-off == 1 {
			if err := w.core.checkRowSize(w.t.Path().String(), size); err != nil {
				return fmt.Errorf("fluss: row %d of the record: %w", off, err)
			}
		}
		if err := w.core.reserve(ctx, size); err != nil {
			return err
		}
		slice := rec.NewSlice(int64(off), int64(end))
		if err := w.core.addBatch(target, &logContent{w: w, rec: slice}, end-off, size, r); err != nil {
			return err
		}
		w.buckets.batchFull(target.partitionID, target.bucket)
	}
	return nil
}

// conform checks a record against the table schema and returns it (retained)
// with the table's Arrow schema.
func (w *AppendWriter) conform(rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	want := w.t.schema
	got := rec.Schema()
	if got.NumFields() != want.NumFields() {
		return nil, fmt.Errorf("fluss: record has %d columns, table %s has %d", got.NumFields(), w.t.Path(), want.NumFields())
	}
	for i, f := range want.Fields() {
		g := got.Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			return nil, fmt.Errorf("fluss: record column %d is %s %s, table %s has %s %s", i, g.Name, g.Type, w.t.Path(), f.Name, f.Type)
		}
		if !f.Nullable && rec.Column(i).NullN() > 0 {
			return nil, fmt.Errorf("fluss: column %q is NOT NULL but the record has NULLs in it", f.Name)
		}
	}
	if got.Equal(want) {
		rec.Retain()
		return rec, nil
	}
	return array.NewRecordBatch(want, rec.Columns(), rec.NumRows()), nil
}

// recordBytes is the size of a record's buffers.
func recordBytes(rec arrow.RecordBatch) int {
	n := 0
	var walk func(d arrow.ArrayData)
	walk = func(d arrow.ArrayData) {
		for _, b := range d.Buffers() {
			if b != nil {
				n += b.Len()
			}
		}
		for _, c := range d.Children() {
			walk(c)
		}
	}
	for _, c := range rec.Columns() {
		walk(c.Data())
	}
	return n
}

// Flush sends the rows appended without a receipt since the previous Flush
// and waits for their outcome: nil when the server acknowledged all of
// them, else a *WriteError that says how many were written, not written or
// may have been (errors.Is with ErrNotWritten, ErrPartiallyWritten,
// ErrOutcomeUnknown). When ctx ends first, rows never sent are withdrawn and
// rows in flight abandoned: none of them is sent after Flush returned.
func (w *AppendWriter) Flush(ctx context.Context) error { return w.core.flush(ctx) }

// Close flushes, waits for the rows of every receipt, and stops the writer.
// If ctx ends first, rows not yet acknowledged are withdrawn or abandoned as
// in Flush, and Close returns by ctx's deadline. It returns Flush's outcome;
// later calls do nothing.
func (w *AppendWriter) Close(ctx context.Context) error { return w.core.close(ctx) }

func (w *AppendWriter) newContent() (batchContent, error) {
	c := &logContent{w: w}
	if w.rowEnc == nil {
		c.rb = array.NewRecordBuilder(memory.DefaultAllocator, w.t.schema)
	}
	return c, nil
}

// logContent is a log batch being built: Arrow builders, a ready Arrow
// record (AppendRecordBatch), or INDEXED/COMPACTED records.
type logContent struct {
	w       *AppendWriter
	rb      *array.RecordBuilder
	rec     arrow.RecordBatch
	records []byte
	n       int32
}

func (c *logContent) put(values []any) error {
	if c.rb != nil {
		c.w.codec.putRow(c.rb, values)
		return nil
	}
	start := len(c.records)
	c.records = append(c.records, 0, 0, 0, 0, byte(logbatch.AppendOnly))
	out, err := c.w.rowEnc.Append(c.records, values)
	if err != nil {
		c.records = c.records[:start]
		return fmt.Errorf("fluss: %w", err)
	}
	c.records = out
	putUint32LE(c.records[start:], uint32(len(out)-start-4))
	c.n++
	return nil
}

func putUint32LE(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func (c *logContent) header() logbatch.Header {
	return logbatch.Header{Magic: logbatch.MagicV0, SchemaID: c.w.schemaID,
		WriterID: logbatch.NoWriterID, BatchSequence: logbatch.NoBatchSequence, LeaderEpoch: logbatch.NoLeaderEpoch}
}

func (c *logContent) seal() ([]byte, error) {
	if c.rb == nil && c.rec == nil {
		h := c.header()
		h.Attributes = logbatch.AttrAppendOnly
		h.RecordCount = c.n
		return logbatch.AppendBatch(nil, h, c.records)
	}
	if c.rec == nil {
		c.rec = c.rb.NewRecordBatch()
	}
	enc, err := c.w.encoders.get()
	if err != nil {
		return nil, err
	}
	defer c.w.encoders.put(enc)
	h := c.header()
	var stats []byte
	if len(c.w.statCols) > 0 && c.rec.NumRows() > 0 {
		st, err := logbatch.ComputeStatistics(c.rec, c.w.colTypes, c.w.statCols)
		if err != nil {
			return nil, fmt.Errorf("fluss: %w", err)
		}
		if stats, err = logbatch.EncodeStatistics(nil, c.w.colTypes, st); err != nil {
			return nil, fmt.Errorf("fluss: %w", err)
		}
		h.Magic = logbatch.MagicV1
	}
	return enc.AppendBatchWithStatistics(make([]byte, 0, recordBytes(c.rec)/2+len(stats)+1024), h, stats, c.rec, nil)
}

func (c *logContent) setWriterState(data []byte, writerID int64, seq int32) error {
	return logbatch.SetWriterState(data, writerID, seq)
}

func (c *logContent) release() {
	if c.rec != nil {
		c.rec.Release()
		c.rec = nil
	}
	if c.rb != nil {
		c.rb.Release()
		c.rb = nil
	}
	c.records = nil
}

// logProtocol is the ProduceLog request of the append writer.
type logProtocol struct{}

func (logProtocol) api() protocol.APIKey { return protocol.ProduceLog }

func (logProtocol) request(tableID int64, acks Acks, timeout time.Duration, batches []*writeBatch) proto.Message {
	req := &protocol.ProduceLogRequest{
		Acks:      proto.Int32(int32(acks)),
		TableId:   proto.Int64(tableID),
		TimeoutMs: proto.Int32(int32(timeout / time.Millisecond)),
	}
	for _, b := range batches {
		pb := &protocol.PbProduceLogReqForBucket{BucketId: proto.Int32(b.target.bucket), Records: b.data}
		if b.target.partitionID >= 0 {
			pb.PartitionId = proto.Int64(b.target.partitionID)
		}
		req.BucketsReq = append(req.BucketsReq, pb)
	}
	return req
}

func (logProtocol) response() proto.Message { return &protocol.ProduceLogResponse{} }

func (logProtocol) results(resp proto.Message) []bucketResult {
	r := resp.(*protocol.ProduceLogResponse)
	out := make([]bucketResult, 0, len(r.GetBucketsResp()))
	for _, b := range r.GetBucketsResp() {
		pid := int64(-1)
		if b.PartitionId != nil {
			pid = b.GetPartitionId()
		}
		out = append(out, bucketResult{key: bucketKey{pid, b.GetBucketId()}, code: b.GetErrorCode(), msg: b.GetErrorMessage()})
	}
	return out
}
