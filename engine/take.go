package engine

import (
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// takeArray returns the rows idx of a (valid indexes, as the joins and
// filters make them). Fixed-width columns and STRING are copied here in one
// loop each; the other types go through Arrow's take kernel, whose
// per-call dispatch and index checks cost more than the copy for the
// batches joins make.
func takeArray(ec *evalCtx, a arrow.Array, idx []int64) (arrow.Array, error) {
	if len(idx) == 0 {
		return array.NewSlice(a, 0, 0), nil
	}
	if a.Len() > 0 {
		switch a.DataType().ID() {
		case arrow.INT8, arrow.UINT8:
			return takeFixed[uint8](ec, a, idx), nil
		case arrow.INT16, arrow.UINT16:
			return takeFixed[uint16](ec, a, idx), nil
		case arrow.INT32, arrow.UINT32, arrow.FLOAT32, arrow.DATE32, arrow.TIME32:
			return takeFixed[uint32](ec, a, idx), nil
		case arrow.INT64, arrow.UINT64, arrow.FLOAT64, arrow.DATE64, arrow.TIME64, arrow.TIMESTAMP, arrow.DURATION:
			return takeFixed[uint64](ec, a, idx), nil
		case arrow.DECIMAL128:
			return takeFixed[decimal128.Num](ec, a, idx), nil
		case arrow.STRING:
			if out := takeStrings(ec, a.(*array.String), idx); out != nil {
				return out, nil
			}
		}
	}
	ia := indexArray(idx)
	defer ia.Release()
	return compute.TakeArray(ec.ctx, a, ia)
}

func takeFixed[T arrow.FixedWidthType](ec *evalCtx, a arrow.Array, idx []int64) arrow.Array {
	src := arrow.GetValues[T](a.Data(), 1)
	var zero T
	size := int(unsafe.Sizeof(zero))
	buf := memory.NewResizableBuffer(ec.mem)
	defer buf.Release()
	buf.Resize(len(idx) * size)
	dst := arrow.GetData[T](buf.Bytes())[:len(idx)]
	for i := 0; i < len(idx); {
		j := runEnd(idx, i)
		if j-i >= minRun { // a filter's kept rows: copied a run at a time
			x := idx[i]
			copy(dst[i:j], src[x:x+int64(j-i)])
		} else {
			for k := i; k < j; k++ {
				dst[k] = src[idx[k]]
			}
		}
		i = j
	}
	validity, nulls := takeValidity(ec, a, idx)
	if validity != nil {
		defer validity.Release()
	}
	data := array.NewData(a.DataType(), len(idx), []*memory.Buffer{validity, buf}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// minRun is the length from which takeFixed and takeStrings copy a run of
// consecutive rows at once, not row by row.
const minRun = 8

// runEnd returns the end of the run of consecutive rows idx[i], idx[i]+1, … that
// starts at i.
func runEnd(idx []int64, i int) int {
	j, x := i+1, idx[i]
	for j < len(idx) && idx[j] == x+int64(j-i) {
		j++
	}
	return j
}

// takeValidity is the validity bitmap of the rows idx of a (nil when a has
// no NULL) and their NULL count.
func takeValidity(ec *evalCtx, a arrow.Array, idx []int64) (*memory.Buffer, int) {
	if a.NullN() == 0 {
		return nil, 0
	}
	buf := memory.NewResizableBuffer(ec.mem)
	buf.Resize(int(bitutil.BytesForBits(int64(len(idx)))))
	bits := buf.Bytes()
	clear(bits)
	nulls := 0
	for i, x := range idx {
		if a.IsValid(int(x)) {
			bitutil.SetBit(bits, i)
		} else {
			nulls++
		}
	}
	return buf, nulls
}

// takeStrings copies the strings idx of a; nil when they exceed the 2 GiB
// of 32-bit offsets (the kernel then says so).
func takeStrings(ec *evalCtx, a *array.String, idx []int64) arrow.Array {
	offsets := a.ValueOffsets()
	base, bytes := offsets[0], a.ValueBytes()
	total := 0
	for i := 0; i < len(idx); {
		j := runEnd(idx, i)
		x := idx[i]
		total += int(offsets[x+int64(j-i)] - offsets[x])
		i = j
	}
	if total > math.MaxInt32 {
		return nil
	}
	offs := memory.NewResizableBuffer(ec.mem)
	defer offs.Release()
	offs.Resize((len(idx) + 1) * 4)
	o := arrow.GetData[int32](offs.Bytes())[:len(idx)+1]
	vals := memory.NewResizableBuffer(ec.mem)
	defer vals.Release()
	vals.Resize(total)
	v := vals.Bytes()[:total]
	at := int32(0)
	for i := 0; i < len(idx); {
		j := runEnd(idx, i)
		x := idx[i]
		if j-i >= minRun { // a filter's kept rows: copied a run at a time
			from := offsets[x]
			for k := range j - i {
				o[i+k] = at + offsets[x+int64(k)] - from
			}
			at += int32(copy(v[at:], bytes[from-base:offsets[x+int64(j-i)]-base]))
		} else {
			for k := i; k < j; k++ {
				o[k] = at
				at += int32(copy(v[at:], a.Value(int(idx[k]))))
			}
		}
		i = j
	}
	o[len(idx)] = at
	validity, nulls := takeValidity(ec, a, idx)
	if validity != nil {
		defer validity.Release()
	}
	data := array.NewData(a.DataType(), len(idx), []*memory.Buffer{validity, offs, vals}, nil, nulls, 0)
	defer data.Release()
	return array.MakeFromData(data)
}

// filterBatch keeps the rows of b where mask (BOOLEAN, one per row) is TRUE:
// a NULL drops the row, as FILTER's default.
func filterBatch(ec *evalCtx, b arrow.RecordBatch, mask arrow.Array) (arrow.RecordBatch, error) {
	m, ok := mask.(*array.Boolean)
	if !ok {
		return compute.FilterRecordBatch(ec.ctx, b, mask, compute.DefaultFilterOptions())
	}
	n := m.Len()
	keep := make([]int64, 0, n)
	nulls := m.NullN() > 0
	for r := range n {
		if m.Value(r) && (!nulls || m.IsValid(r)) {
			keep = append(keep, int64(r))
		}
	}
	switch len(keep) {
	case n:
		b.Retain()
		return b, nil
	case 0:
		return b.NewSlice(0, 0), nil
	}
	cols := make([]arrow.Array, 0, b.NumCols())
	defer func() { releaseAll(cols) }()
	for _, c := range b.Columns() {
		a, err := takeArray(ec, c, keep)
		if err != nil {
			return nil, err
		}
		cols = append(cols, a)
	}
	return array.NewRecordBatch(b.Schema(), cols, int64(len(keep))), nil
}
