package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// distinctOp passes the first occurrence of every row: it hashes each row's
// values into a set kept under the budget and filters the batch with
// Arrow's filter kernel. It emits as it reads; only its set grows.
type distinctOp struct {
	ec     *evalCtx
	budget *Budget
	in     Operator
	seen   map[string]struct{}
	held   int64
}

func (d *distinctOp) Next() (arrow.RecordBatch, error) {
	for {
		b, err := d.in.Next()
		if err != nil {
			return nil, err
		}
		out, err := d.filter(b)
		b.Release()
		if err != nil {
			return nil, err
		}
		if out.NumRows() == 0 {
			out.Release()
			continue
		}
		return out, nil
	}
}

func (d *distinctOp) filter(b arrow.RecordBatch) (arrow.RecordBatch, error) {
	if err := d.ec.ctx.Err(); err != nil {
		return nil, err
	}
	enc := make([]func([]byte, int) []byte, b.NumCols())
	for i, c := range b.Columns() {
		var err error
		if enc[i], err = keyAppender(c); err != nil {
			return nil, err
		}
	}
	mb := array.NewBooleanBuilder(d.ec.mem)
	defer mb.Release()
	var key []byte
	for r := range int(b.NumRows()) {
		key = key[:0]
		for i := range enc {
			key = enc[i](key, r)
		}
		if _, dup := d.seen[string(key)]; dup {
			mb.Append(false)
			continue
		}
		sz := int64(len(key) + 48)
		d.held += sz
		if err := d.budget.Grow(sz, "DISTINCT"); err != nil {
			return nil, err
		}
		d.seen[string(key)] = struct{}{}
		mb.Append(true)
	}
	mask := mb.NewArray()
	defer mask.Release()
	return compute.FilterRecordBatch(d.ec.ctx, b, mask, compute.DefaultFilterOptions())
}

func (d *distinctOp) Close() {
	d.in.Close()
	d.seen = nil
	d.budget.Shrink(d.held)
	d.held = 0
}
