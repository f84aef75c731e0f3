package executor

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/planner"
)

// virtualBatches turns the scan batches of a query over t$changelog or t$binlog into the
// virtual table's batches: the metadata columns _change_type, _log_offset and
// _commit_timestamp before the row (Changelog), or before the before/after images of the
// row, with each update_before/update_after pair made one 'update' row (Binlog), as Fluss's
// Flink connector shows them.
type virtualBatches struct {
	kind planner.VirtualTable
	meta []arrow.Field
	// image is the Arrow type of the before/after columns (Binlog).
	image arrow.DataType
	// pending holds, per bucket, an update_before row whose update_after is in the next
	// batch of the bucket (Binlog).
	pending map[fluss.TableBucket]*pendingBefore
}

// pendingBefore is an update_before row waiting for its update_after.
type pendingBefore struct {
	rec    arrow.RecordBatch // one row, the scan's columns
	offset int64
	millis int64
}

func newVirtualBatches(p *planner.Scan) (*virtualBatches, error) {
	v := &virtualBatches{kind: p.Virtual, pending: map[fluss.TableBucket]*pendingBefore{}}
	for _, c := range planner.VirtualMeta() {
		f, err := types.ArrowField(c.Name, c.Type)
		if err != nil {
			return nil, err
		}
		v.meta = append(v.meta, f)
	}
	if p.Virtual == planner.Binlog {
		t, err := types.ArrowType(planner.BinlogImageType(p.Table))
		if err != nil {
			return nil, err
		}
		v.image = t
	}
	return v, nil
}

// changelogType is a change type as $changelog shows it (Fluss's ChangelogRowConverter).
func changelogType(c fluss.ChangeType) string {
	switch c {
	case fluss.AppendOnly, fluss.Insert:
		return "insert"
	case fluss.UpdateBefore:
		return "update_before"
	case fluss.UpdateAfter:
		return "update_after"
	case fluss.Delete:
		return "delete"
	}
	return c.String()
}

// convert returns the virtual table's rows of b (possibly none, for a $binlog batch that
// ends in an update_before). The caller keeps b.
func (v *virtualBatches) convert(ctx context.Context, b *fluss.ScanBatch) (arrow.RecordBatch, error) {
	if v.kind == planner.Binlog {
		return v.binlog(ctx, b)
	}
	n := b.NumRows()
	meta := newMetaBuilder(n)
	defer meta.release()
	millis := b.CommitTime.UnixMilli()
	for i := range n {
		meta.add(changelogType(b.ChangeType(i)), b.Offset(i), millis)
	}
	cols := meta.finish()
	fields := append(append([]arrow.Field(nil), v.meta...), b.Record.Schema().Fields()...)
	cols = append(cols, b.Record.Columns()...)
	rec := array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(n))
	for _, c := range cols[:len(v.meta)] {
		c.Release()
	}
	return rec, nil
}

// metaBuilder builds the three metadata columns.
type metaBuilder struct {
	kinds   *array.StringBuilder
	offsets *array.Int64Builder
	times   *array.TimestampBuilder
}

func newMetaBuilder(n int) *metaBuilder {
	m := &metaBuilder{
		kinds:   array.NewStringBuilder(memory.DefaultAllocator),
		offsets: array.NewInt64Builder(memory.DefaultAllocator),
		times:   array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Millisecond}),
	}
	m.kinds.Reserve(n)
	m.offsets.Reserve(n)
	m.times.Reserve(n)
	return m
}

func (m *metaBuilder) add(kind string, offset, millis int64) {
	m.kinds.Append(kind)
	m.offsets.Append(offset)
	m.times.Append(arrow.Timestamp(millis))
}

func (m *metaBuilder) finish() []arrow.Array {
	return []arrow.Array{m.kinds.NewArray(), m.offsets.NewArray(), m.times.NewArray()}
}

func (m *metaBuilder) release() {
	m.kinds.Release()
	m.offsets.Release()
	m.times.Release()
}

// binlog pairs the batch's changes into $binlog rows. The rows' images are taken from the
// batch's columns, after the pending update_before row of the bucket if there is one.
func (v *virtualBatches) binlog(ctx context.Context, b *fluss.ScanBatch) (arrow.RecordBatch, error) {
	values := b.Record.Columns()
	shift := 0
	pendIdx, pendOff, pendMillis := -1, int64(0), int64(0)
	if p := v.pending[b.Bucket]; p != nil {
		delete(v.pending, b.Bucket)
		defer p.rec.Release()
		joined := make([]arrow.Array, len(values))
		for j := range values {
			c, err := array.Concatenate([]arrow.Array{p.rec.Column(j), values[j]}, memory.DefaultAllocator)
			if err != nil {
				releaseAll(joined)
				return nil, fmt.Errorf("flussql: $binlog: joining an update across batches: %w", err)
			}
			joined[j] = c
		}
		defer releaseAll(joined)
		values, shift = joined, 1
		pendIdx, pendOff, pendMillis = 0, p.offset, p.millis
	}
	n := b.NumRows()
	meta := newMetaBuilder(n)
	defer meta.release()
	before := array.NewInt32Builder(memory.DefaultAllocator)
	defer before.Release()
	after := array.NewInt32Builder(memory.DefaultAllocator)
	defer after.Release()
	idx := func(bld *array.Int32Builder, i int) {
		if i < 0 {
			bld.AppendNull()
		} else {
			bld.Append(int32(i))
		}
	}
	emit := func(kind string, off, millis int64, bi, ai int) {
		meta.add(kind, off, millis)
		idx(before, bi)
		idx(after, ai)
	}
	millis := b.CommitTime.UnixMilli()
	for i := range n {
		k := i + shift
		switch ct := b.ChangeType(i); ct {
		case fluss.Insert, fluss.AppendOnly:
			emit("insert", b.Offset(i), millis, -1, k)
		case fluss.UpdateBefore:
			pendIdx, pendOff, pendMillis = k, b.Offset(i), millis
		case fluss.UpdateAfter:
			if pendIdx >= 0 {
				// Like Fluss's BinlogRowConverter: the offset and time of the update_before.
				emit("update", pendOff, pendMillis, pendIdx, k)
				pendIdx = -1
			} else {
				emit("update", b.Offset(i), millis, -1, k) // the scan started between the two
			}
		case fluss.Delete:
			emit("delete", b.Offset(i), millis, k, -1)
		default:
			return nil, fmt.Errorf("flussql: $binlog: unexpected change type %s at offset %d", ct, b.Offset(i))
		}
	}
	if pendIdx >= 0 {
		cols := make([]arrow.Array, len(values))
		for j, c := range values {
			cols[j] = array.NewSlice(c, int64(pendIdx), int64(pendIdx+1))
		}
		v.pending[b.Bucket] = &pendingBefore{rec: array.NewRecordBatch(b.Record.Schema(), cols, 1), offset: pendOff, millis: pendMillis}
		releaseAll(cols)
	}
	cols := meta.finish()
	defer releaseAll(cols)
	bi, ai := before.NewInt32Array(), after.NewInt32Array()
	defer bi.Release()
	defer ai.Release()
	for _, ix := range []*array.Int32{bi, ai} {
		img, err := v.takeImage(ctx, values, ix)
		if err != nil {
			return nil, err
		}
		defer img.Release()
		cols = append(cols, img)
	}
	fields := append(append([]arrow.Field(nil), v.meta...),
		arrow.Field{Name: planner.ColBefore, Type: v.image, Nullable: true},
		arrow.Field{Name: planner.ColAfter, Type: v.image, Nullable: true})
	return array.NewRecordBatch(arrow.NewSchema(fields, nil), cols, int64(bi.Len())), nil
}

// takeImage builds a before or after column: the rows of values at ix, NULL where ix is.
func (v *virtualBatches) takeImage(ctx context.Context, values []arrow.Array, ix *array.Int32) (arrow.Array, error) {
	children := make([]arrow.ArrayData, len(values))
	taken := make([]arrow.Array, 0, len(values))
	defer func() { releaseAll(taken) }()
	for j, c := range values {
		t, err := compute.TakeArray(ctx, c, ix)
		if err != nil {
			return nil, fmt.Errorf("flussql: $binlog: taking column %d: %w", j, err)
		}
		taken = append(taken, t)
		children[j] = t.Data()
	}
	validity := ix.Data().Buffers()[0]
	data := array.NewData(v.image, ix.Len(), []*memory.Buffer{validity}, children, ix.NullN(), 0)
	defer data.Release()
	return array.MakeFromData(data), nil
}

func releaseAll(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}

// close releases the pending rows.
func (v *virtualBatches) close() {
	for k, p := range v.pending {
		p.rec.Release()
		delete(v.pending, k)
	}
}
