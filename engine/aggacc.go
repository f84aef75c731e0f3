package engine

import (
	"cmp"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/fluss/types"
)

// accumulator is one aggregate's state for every group, as columns: the
// hash aggregation assigns each row of a batch its group number, then each
// accumulator folds its argument column into the groups in one loop.
type accumulator interface {
	// resize gives groups [old, n) their initial state.
	resize(n int)
	// update folds row r of arg (nil for COUNT(*)) into group gids[r].
	update(gids []int32, arg arrow.Array) error
	// build makes the result column.
	build(mem memory.Allocator) (arrow.Array, error)
	// bytes is the memory the state holds.
	bytes() int64
}

// newAccumulator picks a typed accumulator for COUNT, and for SUM, AVG, MIN
// and MAX of integers, floats and DECIMALs; others (strings, DISTINCT) keep
// one aggState per group.
func newAccumulator(a *Agg, grow func(int64) error) accumulator {
	switch {
	case a.user != nil:
		return &udafAcc{agg: a, grow: grow}
	case a.Distinct && a.Func == "COUNT" && a.Arg != nil && isInt(a.Arg.Type().Kind):
		return newCountDistinctInt(a)
	case a.Distinct:
	case a.Func == "COUNT":
		return &countAcc{}
	case isInt(a.Arg.Type().Kind) && (a.Func == "SUM" || a.Func == "AVG"):
		return &intSumAcc{agg: a, avg: a.Func == "AVG"}
	case isFloat(a.Arg.Type().Kind) && (a.Func == "SUM" || a.Func == "AVG"):
		return &floatSumAcc{agg: a, avg: a.Func == "AVG"}
	case isInt(a.Arg.Type().Kind) && (a.Func == "MIN" || a.Func == "MAX"):
		return &intMinMaxAcc{agg: a, max: a.Func == "MAX"}
	case isFloat(a.Arg.Type().Kind) && (a.Func == "MIN" || a.Func == "MAX"):
		return &floatMinMaxAcc{agg: a, max: a.Func == "MAX"}
	case a.Arg.Type().Kind == types.Decimal && (a.Func == "SUM" || a.Func == "AVG"):
		return newDecSumAcc(a)
	case a.Arg.Type().Kind == types.Decimal && (a.Func == "MIN" || a.Func == "MAX"):
		return &decMinMaxAcc{agg: a, max: a.Func == "MAX"}
	}
	return &stateAcc{agg: a, grow: grow}
}

// grown extends s to n zero elements.
func grown[T any](s []T, n int) []T {
	if n <= len(s) {
		return s
	}
	if n <= cap(s) {
		return s[:n]
	}
	t := make([]T, n, max(n, 2*cap(s), 1024))
	copy(t, s)
	return t
}

// ints and floats are an integer or float argument column's values (nil
// when the column has another type).
func ints(arr arrow.Array) (i8 []int8, i16 []int16, i32 []int32, i64 []int64) {
	switch a := arr.(type) {
	case *array.Int8:
		return a.Int8Values(), nil, nil, nil
	case *array.Int16:
		return nil, a.Int16Values(), nil, nil
	case *array.Int32:
		return nil, nil, a.Int32Values(), nil
	case *array.Int64:
		return nil, nil, nil, a.Int64Values()
	}
	return
}

func unexpected(a *Agg, arr arrow.Array) error {
	if arr.DataType().ID() == arrow.NULL {
		return nil // every row NULL: nothing to fold
	}
	return fmt.Errorf("engine: %s got a %s column", a, arr.DataType())
}

type countAcc struct{ n []int64 }

func (c *countAcc) resize(n int) { c.n = grown(c.n, n) }
func (c *countAcc) bytes() int64 { return int64(cap(c.n)) * 8 }

func (c *countAcc) update(gids []int32, arg arrow.Array) error {
	n := c.n
	if arg == nil || arg.NullN() == 0 {
		for _, g := range gids {
			n[g]++
		}
		return nil
	}
	for r, g := range gids {
		if arg.IsValid(r) {
			n[g]++
		}
	}
	return nil
}

func (c *countAcc) build(memory.Allocator) (arrow.Array, error) { return int64Array(c.n, nil), nil }

// int64Array makes a BIGINT array over vals itself, not a copy (the state
// is dropped once the result is built), NULL where valid is false (valid
// nil: no NULLs).
func int64Array(vals []int64, valid func(i int) bool) arrow.Array {
	bufs := []*memory.Buffer{nil, memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(vals))}
	nulls := 0
	if valid != nil {
		bits := make([]byte, bitutil.BytesForBits(int64(len(vals))))
		for i := range vals {
			if valid(i) {
				bitutil.SetBit(bits, i)
			} else {
				nulls++
			}
		}
		if nulls > 0 {
			bufs[0] = memory.NewBufferBytes(bits)
		}
	}
	d := array.NewData(arrow.PrimitiveTypes.Int64, len(vals), bufs, nil, nulls, 0)
	defer d.Release()
	return array.NewInt64Data(d)
}

// intSumAcc is SUM or AVG of an integer: BIGINT sums checked for overflow
// and counts of the non-NULL values.
type intSumAcc struct {
	agg    *Agg
	avg    bool
	sum, n []int64
}

func (s *intSumAcc) resize(n int) { s.sum, s.n = grown(s.sum, n), grown(s.n, n) }
func (s *intSumAcc) bytes() int64 { return int64(cap(s.sum)+cap(s.n)) * 8 }

func (s *intSumAcc) update(gids []int32, arg arrow.Array) error {
	i8, i16, i32, i64 := ints(arg)
	var ok bool
	switch {
	case i64 != nil:
		ok = sumInts(s.sum, s.n, gids, i64, arg)
	case i32 != nil:
		ok = sumInts(s.sum, s.n, gids, i32, arg)
	case i16 != nil:
		ok = sumInts(s.sum, s.n, gids, i16, arg)
	case i8 != nil:
		ok = sumInts(s.sum, s.n, gids, i8, arg)
	default:
		return unexpected(s.agg, arg)
	}
	if !ok {
		return fmt.Errorf("%w: %s overflows BIGINT", ErrArithmetic, s.agg)
	}
	return nil
}

// sumInts adds vals to their groups' sums, false on an overflow.
func sumInts[T int8 | int16 | int32 | int64](sum, cnt []int64, gids []int32, vals []T, arg arrow.Array) bool {
	nulls := arg.NullN() > 0
	for r, g := range gids {
		if nulls && arg.IsNull(r) {
			continue
		}
		x := int64(vals[r])
		s := sum[g]
		t := s + x
		if (s^t)&(x^t) < 0 {
			return false
		}
		sum[g] = t
		cnt[g]++
	}
	return true
}

func (s *intSumAcc) build(mem memory.Allocator) (arrow.Array, error) {
	if !s.avg && s.agg.T.Kind == types.BigInt {
		return int64Array(s.sum, func(g int) bool { return s.n[g] > 0 }), nil
	}
	b, err := newBuilder(mem, s.agg.T)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(len(s.sum))
	appendInt := intAppender(b)
	for g, v := range s.sum {
		switch {
		case s.n[g] == 0:
			b.AppendNull()
		case s.avg:
			appendInt(v / s.n[g]) // Go's / truncates toward zero, as Java's
		default:
			appendInt(v)
		}
	}
	return b.NewArray(), nil
}

// intAppender appends an int64 to an integer builder as its type.
func intAppender(b array.Builder) func(int64) {
	switch x := b.(type) {
	case *array.Int8Builder:
		return func(v int64) { x.UnsafeAppend(int8(v)) }
	case *array.Int16Builder:
		return func(v int64) { x.UnsafeAppend(int16(v)) }
	case *array.Int32Builder:
		return func(v int64) { x.UnsafeAppend(int32(v)) }
	case *array.Int64Builder:
		return x.UnsafeAppend
	case *array.Date32Builder:
		return func(v int64) { x.UnsafeAppend(arrow.Date32(v)) }
	case *array.Time32Builder:
		return func(v int64) { x.UnsafeAppend(arrow.Time32(v)) }
	case *array.Time64Builder:
		return func(v int64) { x.UnsafeAppend(arrow.Time64(v)) }
	case *array.TimestampBuilder:
		return func(v int64) { x.UnsafeAppend(arrow.Timestamp(v)) }
	}
	put := putter(b)
	return func(v int64) { put(v) }
}

// floatAppender appends a float64 to a FLOAT or DOUBLE builder.
func floatAppender(b array.Builder) func(float64) {
	switch x := b.(type) {
	case *array.Float32Builder:
		return func(v float64) { x.UnsafeAppend(float32(v)) }
	case *array.Float64Builder:
		return x.UnsafeAppend
	}
	put := putter(b)
	return func(v float64) { put(v) }
}

func floats(arr arrow.Array) (f32 []float32, f64 []float64) {
	switch a := arr.(type) {
	case *array.Float32:
		return a.Float32Values(), nil
	case *array.Float64:
		return nil, a.Float64Values()
	}
	return
}

// floatSumAcc is SUM or AVG of a FLOAT or DOUBLE (a DOUBLE).
type floatSumAcc struct {
	agg *Agg
	avg bool
	sum []float64
	n   []int64
}

func (s *floatSumAcc) resize(n int) { s.sum, s.n = grown(s.sum, n), grown(s.n, n) }
func (s *floatSumAcc) bytes() int64 { return int64(cap(s.sum)+cap(s.n)) * 8 }

func (s *floatSumAcc) update(gids []int32, arg arrow.Array) error {
	switch f32, f64 := floats(arg); {
	case f64 != nil:
		sumFloats(s.sum, s.n, gids, f64, arg)
	case f32 != nil:
		sumFloats(s.sum, s.n, gids, f32, arg)
	default:
		return unexpected(s.agg, arg)
	}
	return nil
}

func sumFloats[T float32 | float64](sum []float64, cnt []int64, gids []int32, vals []T, arg arrow.Array) {
	nulls := arg.NullN() > 0
	for r, g := range gids {
		if nulls && arg.IsNull(r) {
			continue
		}
		sum[g] += float64(vals[r])
		cnt[g]++
	}
}

func (s *floatSumAcc) build(mem memory.Allocator) (arrow.Array, error) {
	b := array.NewFloat64Builder(mem)
	defer b.Release()
	b.Reserve(len(s.sum))
	for g, v := range s.sum {
		switch {
		case s.n[g] == 0:
			b.AppendNull()
		case s.avg:
			b.UnsafeAppend(v / float64(s.n[g]))
		default:
			b.UnsafeAppend(v)
		}
	}
	return b.NewArray(), nil
}

// intMinMaxAcc is MIN or MAX of an integer.
type intMinMaxAcc struct {
	agg *Agg
	max bool
	v   []int64
	has []bool
}

func (m *intMinMaxAcc) resize(n int) { m.v, m.has = grown(m.v, n), grown(m.has, n) }
func (m *intMinMaxAcc) bytes() int64 { return int64(cap(m.v))*8 + int64(cap(m.has)) }

func (m *intMinMaxAcc) update(gids []int32, arg arrow.Array) error {
	i8, i16, i32, i64 := ints(arg)
	switch {
	case i64 != nil:
		minMax(m.v, m.has, m.max, gids, i64, arg)
	case i32 != nil:
		minMax(m.v, m.has, m.max, gids, i32, arg)
	case i16 != nil:
		minMax(m.v, m.has, m.max, gids, i16, arg)
	case i8 != nil:
		minMax(m.v, m.has, m.max, gids, i8, arg)
	default:
		return unexpected(m.agg, arg)
	}
	return nil
}

// minMax keeps each group's least (greatest when max) value, ordered as
// compareValues orders them (NaN below every number).
func minMax[T int8 | int16 | int32 | int64 | float32 | float64, V int64 | float64](v []V, has []bool, max bool, gids []int32, vals []T, arg arrow.Array) {
	nulls := arg.NullN() > 0
	for r, g := range gids {
		if nulls && arg.IsNull(r) {
			continue
		}
		x := V(vals[r])
		if !has[g] {
			v[g], has[g] = x, true
			continue
		}
		if c := cmp.Compare(x, v[g]); (c > 0) == max && c != 0 {
			v[g] = x
		}
	}
}

func (m *intMinMaxAcc) build(mem memory.Allocator) (arrow.Array, error) {
	b, err := newBuilder(mem, m.agg.T)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(len(m.v))
	appendInt := intAppender(b)
	for g, v := range m.v {
		if !m.has[g] {
			b.AppendNull()
			continue
		}
		appendInt(v)
	}
	return b.NewArray(), nil
}

// floatMinMaxAcc is MIN or MAX of a FLOAT or DOUBLE.
type floatMinMaxAcc struct {
	agg *Agg
	max bool
	v   []float64
	has []bool
}

func (m *floatMinMaxAcc) resize(n int) { m.v, m.has = grown(m.v, n), grown(m.has, n) }
func (m *floatMinMaxAcc) bytes() int64 { return int64(cap(m.v))*8 + int64(cap(m.has)) }

func (m *floatMinMaxAcc) update(gids []int32, arg arrow.Array) error {
	switch f32, f64 := floats(arg); {
	case f64 != nil:
		minMax(m.v, m.has, m.max, gids, f64, arg)
	case f32 != nil:
		minMax(m.v, m.has, m.max, gids, f32, arg)
	default:
		return unexpected(m.agg, arg)
	}
	return nil
}

func (m *floatMinMaxAcc) build(mem memory.Allocator) (arrow.Array, error) {
	b, err := newBuilder(mem, m.agg.T)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(len(m.v))
	appendFloat := floatAppender(b)
	for g, v := range m.v {
		if !m.has[g] {
			b.AppendNull()
			continue
		}
		appendFloat(v)
	}
	return b.NewArray(), nil
}
