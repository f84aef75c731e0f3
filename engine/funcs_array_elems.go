package engine

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// The ARRAY kernels that order or pick single elements: ARRAY_MAX, ARRAY_MIN,
// ELEMENT, and ARRAY_JOIN; the comparator ARRAY_SORT shares.

// elemCompare orders two non-NULL elements of a values array.
func elemCompare(a arrow.Array) (func(i, j int) int, error) {
	switch x := a.(type) {
	case *array.Int8:
		return ordered(x.Value), nil
	case *array.Int16:
		return ordered(x.Value), nil
	case *array.Int32:
		return ordered(x.Value), nil
	case *array.Int64:
		return ordered(x.Value), nil
	case *array.Float32:
		return ordered(x.Value), nil
	case *array.Float64:
		return ordered(x.Value), nil
	case *array.Date32:
		return ordered(x.Value), nil
	case *array.Time32:
		return ordered(x.Value), nil
	case *array.Time64:
		return ordered(x.Value), nil
	case *array.Timestamp:
		return ordered(x.Value), nil
	case *array.String:
		return ordered(x.Value), nil
	case *array.Decimal128:
		return func(i, j int) int { return x.Value(i).Cmp(x.Value(j)) }, nil
	case *array.Boolean:
		return func(i, j int) int { return boolCmp(x.Value(i), x.Value(j)) }, nil
	case *array.Binary:
		return func(i, j int) int { return bytes.Compare(x.Value(i), x.Value(j)) }, nil
	}
	return nil, fmt.Errorf("elements of type %s cannot be ordered", a.DataType())
}

func ordered[T cmp.Ordered](v func(int) T) func(i, j int) int {
	return func(i, j int) int { return cmp.Compare(v(i), v(j)) }
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

// pickElems takes one element (an offset into l's values) per row, or NULL
// for -1.
func pickElems(ec *evalCtx, l *array.List, n int, pick func(r int) (int64, error)) (arrow.Array, error) {
	ib := array.NewInt64Builder(ec.mem)
	defer ib.Release()
	ib.Reserve(n)
	for r := range n {
		if l.IsNull(r) {
			ib.AppendNull()
			continue
		}
		j, err := pick(r)
		if err != nil {
			return nil, err
		}
		if j < 0 {
			ib.AppendNull()
		} else {
			ib.Append(j)
		}
	}
	take := ib.NewArray()
	defer take.Release()
	return compute.TakeArray(ec.ctx, l.ListValues(), take)
}

// arrayExtreme is ARRAY_MAX (sign 1) or ARRAY_MIN (-1).
func arrayExtreme(sign int) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		l, err := listOf(c, ins[0])
		if err != nil {
			return nil, err
		}
		vals := l.ListValues()
		order, err := elemCompare(vals)
		if err != nil {
			return nil, err
		}
		return pickElems(ec, l, n, func(r int) (int64, error) {
			best := int64(-1)
			s, e := l.ValueOffsets(r)
			for j := s; j < e; j++ {
				if vals.IsValid(int(j)) && (best < 0 || sign*order(int(j), int(best)) > 0) {
					best = j
				}
			}
			return best, nil
		})
	}
}

func arrayElement(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	l, err := listOf(c, ins[0])
	if err != nil {
		return nil, err
	}
	return pickElems(ec, l, n, func(r int) (int64, error) {
		s, e := l.ValueOffsets(r)
		switch e - s {
		case 0:
			return -1, nil
		case 1:
			return s, nil
		}
		return 0, fmt.Errorf("ELEMENT(%s): the array has %d elements; ELEMENT wants at most one", c.Args[0], e-s)
	})
}

func arrayJoin(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	l, err := listOf(c, ins[0])
	if err != nil {
		return nil, err
	}
	vals := l.ListValues()
	elem, sep := strs(vals), strs(ins[1])
	repl := func(int) (string, bool) { return "", false }
	if len(ins) > 2 {
		r := strs(ins[2])
		repl = func(i int) (string, bool) { return r(i), true }
	}
	var b strings.Builder
	return stringRows(ec, n, ins, false, func(r int) (string, bool, error) {
		b.Reset()
		s, e := l.ValueOffsets(r)
		first := true
		for j := s; j < e; j++ {
			v, ok := "", vals.IsValid(int(j))
			if ok {
				v = elem(int(j))
			} else if v, ok = repl(r); !ok {
				continue
			}
			if !first {
				b.WriteString(sep(r))
			}
			b.WriteString(v)
			first = false
		}
		return b.String(), true, nil
	})
}
