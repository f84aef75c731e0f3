package fluss

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/row"
)

// UpsertWriterOptions configure an UpsertWriter.
type UpsertWriterOptions struct {
	WriterOptions
	// TargetColumns makes the writer a partial-update writer: only these
	// columns are written, the others keep their stored values. They must
	// include every primary-key column, and every column outside the
	// primary key must be nullable (the server's rules). Empty means whole
	// rows.
	TargetColumns []string
}

// UpsertWriter writes rows of a primary-key table: Upsert inserts a row or
// replaces the row with the same primary key, Delete removes it. Rows are
// encoded in the table's KV format, batched per bucket as KV record
// batches and sent to the bucket leaders (PUT_KV v1) in the background by
// the write path the AppendWriter uses: idempotent by default, retried a
// bounded number of times, one batch per bucket in flight so writes to a
// key apply in call order. Upsert and Delete return once the row is
// buffered; Flush waits until the server acknowledged everything so far
// and reports failures. Safe for concurrent use; Close it when done.
type UpsertWriter struct {
	t        *Table
	pk       *pkTable
	core     *writerCore
	keys     *keyRouter
	router   *partitionRouter // nil for non-partitioned tables
	values   row.Encoder
	schemaID int
	ncols    int
	// target is the partial-update column set (nil: whole rows); inTarget
	// marks its columns.
	target   []int32
	inTarget []bool
	// pkIdx are the positions of the primary-key columns in the row, in
	// primary-key order (for DeleteKey).
	pkIdx []int

	bufs sync.Pool // *[]byte scratch for values
}

// NewUpsertWriter returns a writer for the table, which must be a
// primary-key table. With idempotence on (the default) it obtains a writer
// id from the cluster.
func (t *Table) NewUpsertWriter(ctx context.Context, opts UpsertWriterOptions) (*UpsertWriter, error) {
	pk, err := openPKTable(t)
	if err != nil {
		return nil, err
	}
	info := t.info
	cfg, err := opts.resolve(t.c.cfg.RequestTimeout)
	if err != nil {
		return nil, err
	}
	schema := info.Schema()
	w := &UpsertWriter{t: t, pk: pk, schemaID: int(info.SchemaID), ncols: len(schema.Columns)}
	if w.keys, err = newKeyRouter(info, schema.Columns, info.PhysicalPrimaryKey(), info.BucketKeys(), false); err != nil {
		return nil, err
	}
	if w.values, err = row.NewEncoder(pk.format, row.FieldTypes(schema.Columns)); err != nil {
		return nil, fmt.Errorf("fluss: table %s: %w", t.Path(), err)
	}
	for _, k := range schema.PrimaryKey {
		w.pkIdx = append(w.pkIdx, schema.Index(k))
	}
	if len(opts.TargetColumns) > 0 {
		if err := w.setTarget(opts.TargetColumns); err != nil {
			return nil, err
		}
	}
	if info.IsPartitioned() {
		if w.router, err = newPartitionRouter(t, cfg); err != nil {
			return nil, err
		}
	}
	w.bufs.New = func() any { b := make([]byte, 0, 256); return &b }
	proto := &kvProtocol{targetColumns: w.target}
	w.core, err = newWriterCore(ctx, t.c, t.Path(), info.TableID, cfg, proto, w.newContent)
	if err != nil {
		return nil, err
	}
	return w, nil
}

// setTarget checks the partial-update columns as the Java client does.
func (w *UpsertWriter) setTarget(names []string) error {
	schema := w.t.info.Schema()
	w.inTarget = make([]bool, len(schema.Columns))
	for _, n := range names {
		i := schema.Index(n)
		if i < 0 {
			return fmt.Errorf("fluss: partial update of %s: no column %q", w.t.Path(), n)
		}
		if w.inTarget[i] {
			return fmt.Errorf("fluss: partial update of %s: column %q named twice", w.t.Path(), n)
		}
		w.inTarget[i] = true
	}
	for _, k := range schema.PrimaryKey {
		if !w.inTarget[schema.Index(k)] {
			return fmt.Errorf("fluss: partial update of %s: the target columns %v must include the primary-key column %q",
				w.t.Path(), names, k)
		}
	}
	for i, c := range schema.Columns {
		if !slices.Contains(schema.PrimaryKey, c.Name) && c.Type.NotNull {
			return fmt.Errorf("fluss: partial update of %s needs every column outside the primary key to be nullable, but %q is NOT NULL",
				w.t.Path(), c.Name)
		}
		if w.inTarget[i] {
			w.target = append(w.target, int32(i))
		}
	}
	return nil
}

// TargetColumns returns the partial-update columns in table order, or nil
// for a writer of whole rows.
func (w *UpsertWriter) TargetColumns() []string {
	if w.target == nil {
		return nil
	}
	cols := w.t.info.Schema().Columns
	out := make([]string, len(w.target))
	for i, idx := range w.target {
		out[i] = cols[idx].Name
	}
	return out
}

// Upsert buffers an insert-or-replace of one row, given as values in table
// column order in the Go value model (nil is NULL). A partial-update writer
// writes only its target columns and ignores the other values. Primary-key
// and partition columns must not be NULL. It waits while the buffer memory
// is used up, and up to MissingPartitionTimeout for a partition that does
// not exist (or creates it, with AutoCreatePartitions).
func (w *UpsertWriter) Upsert(ctx context.Context, values []any) error {
	return w.write(ctx, nil, values, false)
}

// UpsertWith is Upsert for receipt r: r.Wait reports the outcome of this
// write together with the others written with r, and Flush does not.
func (w *UpsertWriter) UpsertWith(ctx context.Context, r *Receipt, values []any) error {
	return w.write(ctx, r, values, false)
}

// Delete buffers the deletion of the row with the primary key of values
// (a whole row in table column order; only the key columns are read).
// Deleting a key that does not exist does nothing.
func (w *UpsertWriter) Delete(ctx context.Context, values []any) error {
	return w.write(ctx, nil, values, true)
}

// DeleteWith is Delete for receipt r (see UpsertWith).
func (w *UpsertWriter) DeleteWith(ctx context.Context, r *Receipt, values []any) error {
	return w.write(ctx, r, values, true)
}

// DeleteKey buffers the deletion of the row with the given primary key,
// given as the primary-key values in primary-key order (as for Lookup).
func (w *UpsertWriter) DeleteKey(ctx context.Context, key []any) error {
	if len(key) != len(w.pkIdx) {
		return fmt.Errorf("fluss: delete from %s: got %d key values for the primary key %v",
			w.t.Path(), len(key), w.t.info.Schema().PrimaryKey)
	}
	values := make([]any, w.ncols)
	for i, idx := range w.pkIdx {
		values[idx] = key[i]
	}
	return w.write(ctx, nil, values, true)
}

func (w *UpsertWriter) write(ctx context.Context, r *Receipt, values []any, del bool) error {
	if len(values) != w.ncols {
		return fmt.Errorf("fluss: write to %s: got %d values for %d columns", w.t.Path(), len(values), w.ncols)
	}
	rk, err := w.keys.route(values)
	if err != nil {
		return fmt.Errorf("write to %s: %w", w.t.Path(), err)
	}
	var value []byte
	if !del {
		buf := w.bufs.Get().(*[]byte)
		defer w.bufs.Put(buf)
		enc := values
		if w.inTarget != nil {
			enc = make([]any, len(values))
			for i, v := range values {
				if w.inTarget[i] {
					enc[i] = v
				}
			}
		}
		*buf, err = w.values.Append((*buf)[:0], enc)
		if err != nil {
			return fmt.Errorf("fluss: write to %s: %w", w.t.Path(), err)
		}
		value = *buf
	}
	target := writeTarget{partitionID: -1, bucket: rk.bucket}
	if w.router != nil {
		name, id, err := w.router.resolve(ctx, values)
		if err != nil {
			return err
		}
		target.partition, target.partitionID = name, id
	}
	size := kvbatch.RecordSize(rk.key, value)
	if err := w.core.checkRowSize(w.t.Path().String(), size); err != nil {
		return err
	}
	if err := w.core.reserve(ctx, size); err != nil {
		return err
	}
	_, err = w.core.add(target, size, r, func(c batchContent) error {
		return c.(*kvContent).b.Append(rk.key, value)
	})
	return err
}

// Flush sends the writes made without a receipt since the previous Flush
// and waits for their outcome, as AppendWriter.Flush does.
func (w *UpsertWriter) Flush(ctx context.Context) error { return w.core.flush(ctx) }

// Close flushes, waits for the writes of every receipt, and stops the
// writer, by ctx's deadline, as AppendWriter.Close does.
func (w *UpsertWriter) Close(ctx context.Context) error { return w.core.close(ctx) }

func (w *UpsertWriter) newContent() (batchContent, error) {
	b, err := kvbatch.NewBuilder(w.schemaID)
	if err != nil {
		return nil, fmt.Errorf("fluss: table %s: %w", w.t.Path(), err)
	}
	return &kvContent{b: b}, nil
}

// kvContent is a KV record batch being built.
type kvContent struct {
	b *kvbatch.Builder
}

// seal returns the batch without writer state. The bytes are the
// builder's; setWriterState rewrites their header in place.
func (c *kvContent) seal() ([]byte, error) {
	if c.b.Count() == 0 {
		return nil, fmt.Errorf("fluss: empty KV batch")
	}
	return c.b.Build(kvbatch.NoWriterID, kvbatch.NoBatchSequence), nil
}

func (c *kvContent) setWriterState(data []byte, writerID int64, seq int32) error {
	if out := c.b.Build(writerID, seq); len(out) != len(data) || &out[0] != &data[0] {
		return fmt.Errorf("fluss: KV batch changed after it was sealed")
	}
	return nil
}

func (c *kvContent) release() { c.b = nil }

// kvProtocol is the PutKv request of an upsert writer.
type kvProtocol struct {
	targetColumns []int32
}

func (*kvProtocol) api() protocol.APIKey { return protocol.PutKv }

func (p *kvProtocol) request(tableID int64, acks Acks, timeout time.Duration, batches []*writeBatch) proto.Message {
	req := &protocol.PutKvRequest{
		Acks:          proto.Int32(int32(acks)),
		TableId:       proto.Int64(tableID),
		TimeoutMs:     proto.Int32(int32(timeout / time.Millisecond)),
		TargetColumns: p.targetColumns,
		AggMode:       proto.Int32(0), // MergeMode.DEFAULT, as the Java client sends
	}
	for _, b := range batches {
		pb := &protocol.PbPutKvReqForBucket{BucketId: proto.Int32(b.target.bucket), Records: b.data}
		if b.target.partitionID >= 0 {
			pb.PartitionId = proto.Int64(b.target.partitionID)
		}
		req.BucketsReq = append(req.BucketsReq, pb)
	}
	return req
}

func (*kvProtocol) response() proto.Message { return &protocol.PutKvResponse{} }

func (*kvProtocol) results(resp proto.Message) []bucketResult {
	r := resp.(*protocol.PutKvResponse)
	out := make([]bucketResult, 0, len(r.GetBucketsResp()))
	for _, b := range r.GetBucketsResp() {
		pid := int64(-1)
		if b.PartitionId != nil {
			pid = b.GetPartitionId()
		}
		out = append(out, bucketResult{key: bucketKey{pid, b.GetBucketId()}, code: b.GetErrorCode(), msg: b.GetErrorMessage(), pressure: b.GetPressure()})
	}
	return out
}
