package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// maxJoinChunk bounds the rows of one joined batch, so that a left batch
// whose keys match many rows gives several batches, not one huge one.
const maxJoinChunk = 1 << 16

// joiner turns matching (left row, right row) pairs into joined batches:
// it takes the rows with Arrow's take kernel, applies the residual
// condition and, for a LEFT join, adds the left rows left without a match
// (the right columns NULL).
type joiner struct {
	ec       *evalCtx
	kind     JoinKind
	residual Expr
	schema   *arrow.Schema
	nLeft    int
}

func newJoiner(ec *evalCtx, kind JoinKind, cols []Column, nLeft int, residual Expr) (*joiner, error) {
	schema, err := schemaOf(cols)
	if err != nil {
		return nil, err
	}
	return &joiner{ec: ec, kind: kind, residual: residual, schema: schema, nLeft: nLeft}, nil
}

// join returns the joined batches of left with right for the pairs (li[k],
// ri[k]), which come in left-row order; right may be nil when li is empty.
func (j *joiner) join(left, right arrow.RecordBatch, li, ri []int64) ([]arrow.RecordBatch, error) {
	if j.kind == SemiJoin || j.kind == AntiJoin {
		return j.semi(left, right, li, ri)
	}
	var out []arrow.RecordBatch
	fail := func(err error) ([]arrow.RecordBatch, error) {
		for _, b := range out {
			b.Release()
		}
		return nil, err
	}
	var matched []bool
	if j.kind == LeftJoin {
		matched = make([]bool, left.NumRows())
	}
	for from := 0; from < len(li); from += maxJoinChunk {
		to := min(len(li), from+maxJoinChunk)
		b, err := j.take(left, right, li[from:to], ri[from:to])
		if err != nil {
			return fail(err)
		}
		if j.residual != nil {
			if b, err = j.filter(b, li[from:to], matched); err != nil {
				return fail(err)
			}
		} else if matched != nil {
			for _, l := range li[from:to] {
				matched[l] = true
			}
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		out = append(out, b)
	}
	if matched != nil {
		var rest []int64
		for l, m := range matched {
			if !m {
				rest = append(rest, int64(l))
			}
		}
		for from := 0; from < len(rest); from += maxJoinChunk {
			b, err := j.take(left, nil, rest[from:min(len(rest), from+maxJoinChunk)], nil)
			if err != nil {
				return fail(err)
			}
			out = append(out, b)
		}
	}
	return out, nil
}

// filter keeps the rows of b for which the residual is TRUE and marks their
// left rows as matched.
func (j *joiner) filter(b arrow.RecordBatch, li []int64, matched []bool) (arrow.RecordBatch, error) {
	defer b.Release()
	mask, err := j.residual.eval(j.ec, b)
	if err != nil {
		return nil, err
	}
	defer mask.Release()
	if matched != nil {
		m := mask.(*array.Boolean)
		for k, l := range li {
			if m.IsValid(k) && m.Value(k) {
				matched[l] = true
			}
		}
	}
	return filterBatch(j.ec, b, mask)
}

// take builds the joined batch of the pairs; without right (ri nil) the
// right columns are NULL.
func (j *joiner) take(left, right arrow.RecordBatch, li, ri []int64) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, j.schema.NumFields())
	defer func() { releaseAll(cols) }()
	for _, c := range left.Columns() {
		a, err := takeArray(j.ec, c, li)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	if ri == nil {
		for i := j.nLeft; i < j.schema.NumFields(); i++ {
			cols = append(cols, array.MakeArrayOfNull(j.ec.mem, j.schema.Field(i).Type, len(li)))
		}
	} else {
		for _, c := range right.Columns() {
			a, err := takeArray(j.ec, c, ri)
			if err != nil {
				return nil, err
			}
			cols = append(cols, a)
		}
	}
	for i, c := range cols {
		if want := j.schema.Field(i).Type; !arrow.TypeEqual(c.DataType(), want) {
			return nil, fmt.Errorf("engine: join column %d is %s, want %s", i, c.DataType(), want)
		}
	}
	return array.NewRecordBatch(j.schema, cols, int64(len(li))), nil
}

// indexArray wraps row indexes (Go memory, not copied) for the take kernel.
func indexArray(idx []int64) *array.Int64 {
	buf := memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(idx))
	return array.NewInt64Data(array.NewData(arrow.PrimitiveTypes.Int64, len(idx), []*memory.Buffer{nil, buf}, nil, 0, 0))
}
