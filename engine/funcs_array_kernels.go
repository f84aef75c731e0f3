package engine

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// The kernels of the ARRAY functions (funcs_array.go) that build arrays;
// those that pick or order single elements are in funcs_array_elems.go.

// keyer encodes pool elements for equality (NULL included, as one key).
type keyer struct {
	enc func(key []byte, i int) []byte
	buf []byte
}

func newKeyer(pool arrow.Array) (*keyer, error) {
	enc, err := keyAppender(pool)
	if err != nil {
		return nil, err
	}
	return &keyer{enc: enc}, nil
}

// key is element j's encoding, valid until the next call.
func (k *keyer) key(j int64) []byte {
	k.buf = k.enc(k.buf[:0], int(j))
	return k.buf
}

func arrayAppend(prepend bool) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		l, err := listOf(c, ins[0])
		if err != nil {
			return nil, err
		}
		pool, base, err := elemPool(ec, *c.T.Elem, l, ins[1])
		if err != nil {
			return nil, err
		}
		defer pool.Release()
		sel := newListSel(n)
		for r := range n {
			if l.IsNull(r) {
				sel.end(false)
				continue
			}
			s, e := l.ValueOffsets(r)
			if prepend {
				sel.add(base[1] + int64(r))
			}
			for j := s; j < e; j++ {
				sel.add(j)
			}
			if !prepend {
				sel.add(base[1] + int64(r))
			}
			sel.end(true)
		}
		return sel.build(ec, c.T, pool)
	}
}

func arrayConcat(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	ls := make([]*array.List, len(ins))
	for i, a := range ins {
		var err error
		if ls[i], err = listOf(c, a); err != nil {
			return nil, err
		}
	}
	pool, base, err := elemPool(ec, *c.T.Elem, ins...)
	if err != nil {
		return nil, err
	}
	defer pool.Release()
	sel := newListSel(n)
	for r := range n {
		if anyNull(ins, r) {
			sel.end(false)
			continue
		}
		for i, l := range ls {
			s, e := l.ValueOffsets(r)
			for j := s; j < e; j++ {
				sel.add(base[i] + j)
			}
		}
		sel.end(true)
	}
	return sel.build(ec, c.T, pool)
}

// needlePool is the pool of a's elements followed by the needles x, each
// cast to a's element type, and its keyer.
func needlePool(ec *evalCtx, c *Call, ins []arrow.Array) (*array.List, arrow.Array, int64, *keyer, error) {
	l, err := listOf(c, ins[0])
	if err != nil {
		return nil, nil, 0, nil, err
	}
	pool, base, err := elemPool(ec, *c.Args[0].Type().Elem, l, ins[1])
	if err != nil {
		return nil, nil, 0, nil, err
	}
	k, err := newKeyer(pool)
	if err != nil {
		pool.Release()
		return nil, nil, 0, nil, err
	}
	return l, pool, base[1], k, nil
}

// find is the offset of the first element of row r equal to its needle,
// -1 when none is (with skipNull, NULL elements never match).
func find(l *array.List, pool arrow.Array, needles int64, k *keyer, r int, skipNull bool) int64 {
	want := bytes.Clone(k.key(needles + int64(r)))
	s, e := l.ValueOffsets(r)
	for j := s; j < e; j++ {
		if skipNull && pool.IsNull(int(j)) {
			continue
		}
		if bytes.Equal(k.key(j), want) {
			return j - s
		}
	}
	return -1
}

func arrayContains(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	l, pool, needles, k, err := needlePool(ec, c, ins)
	if err != nil {
		return nil, err
	}
	defer pool.Release()
	return boolRows(ec, n, ins, true, func(r int) (bool, bool, error) {
		if l.IsNull(r) {
			return false, false, nil
		}
		return find(l, pool, needles, k, r, false) >= 0, true, nil
	})
}

func arrayPosition(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	l, pool, needles, k, err := needlePool(ec, c, ins)
	if err != nil {
		return nil, err
	}
	defer pool.Release()
	return intRows(ec, c.T, n, ins, false, func(r int) (int64, bool, error) {
		return find(l, pool, needles, k, r, true) + 1, true, nil
	})
}

func arrayRemove(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	l, pool, needles, k, err := needlePool(ec, c, ins)
	if err != nil {
		return nil, err
	}
	defer pool.Release()
	sel := newListSel(n)
	var want []byte
	for r := range n {
		if l.IsNull(r) {
			sel.end(false)
			continue
		}
		want = append(want[:0], k.key(needles+int64(r))...)
		s, e := l.ValueOffsets(r)
		for j := s; j < e; j++ {
			if !bytes.Equal(k.key(j), want) {
				sel.add(j)
			}
		}
		sel.end(true)
	}
	return sel.build(ec, c.T, pool)
}

func arrayDistinct(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	return arraySetOp(setUnion)(ec, c, []arrow.Array{ins[0], nil}, n)
}

// Set operations of ARRAY_EXCEPT, ARRAY_INTERSECT and ARRAY_UNION (and,
// with one array, ARRAY_DISTINCT).
const (
	setUnion = iota
	setIntersect
	setExcept
)

// arraySetOp keeps, for each row, the distinct elements of a (in order)
// that op selects with b's: union appends b's new ones; intersect keeps
// those in b; except those not in b (a NULL is one more element).
func arraySetOp(op int) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		parts := []arrow.Array{ins[0]}
		if ins[1] != nil {
			parts = append(parts, ins[1])
		}
		ls := make([]*array.List, len(parts))
		for i, a := range parts {
			var err error
			if ls[i], err = listOf(c, a); err != nil {
				return nil, err
			}
		}
		pool, base, err := elemPool(ec, *c.T.Elem, parts...)
		if err != nil {
			return nil, err
		}
		defer pool.Release()
		k, err := newKeyer(pool)
		if err != nil {
			return nil, err
		}
		seen, other := map[string]struct{}{}, map[string]struct{}{}
		sel := newListSel(n)
		for r := range n {
			if ls[0].IsNull(r) || op != setExcept && len(ls) > 1 && ls[1].IsNull(r) {
				sel.end(false)
				continue
			}
			clear(seen)
			clear(other)
			if op != setUnion && !ls[1].IsNull(r) {
				s, e := ls[1].ValueOffsets(r)
				for j := s; j < e; j++ {
					other[string(k.key(base[1]+j))] = struct{}{}
				}
			}
			for i, l := range ls {
				if i > 0 && op != setUnion {
					break
				}
				s, e := l.ValueOffsets(r)
				for j := base[i] + s; j < base[i]+e; j++ {
					key := k.key(j)
					if _, dup := seen[string(key)]; dup {
						continue
					}
					_, inOther := other[string(key)]
					switch {
					case op == setIntersect && !inOther, op == setExcept && inOther:
						continue
					}
					seen[string(key)] = struct{}{}
					sel.add(j)
				}
			}
			sel.end(true)
		}
		return sel.build(ec, c.T, pool)
	}
}

func arrayReverse(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	return eachList(ec, c, ins, n, func(r int, s, e int64, sel *listSel) {
		for j := e - 1; j >= s; j-- {
			sel.add(j)
		}
	})
}

// eachList runs f over every row whose arguments are not NULL, with its
// array's element range; the elements f adds make the row's array.
func eachList(ec *evalCtx, c *Call, ins []arrow.Array, n int, f func(r int, s, e int64, sel *listSel)) (arrow.Array, error) {
	l, err := listOf(c, ins[0])
	if err != nil {
		return nil, err
	}
	pool := l.ListValues()
	sel := newListSel(n)
	for r := range n {
		if anyNull(ins, r) {
			sel.end(false)
			continue
		}
		s, e := l.ValueOffsets(r)
		f(r, s, e, sel)
		sel.end(true)
	}
	return sel.build(ec, c.T, pool)
}

// arraySlice follows Flink's ARRAY_SLICE: negative positions count from the
// end, 0 is the first, an empty array when from is after to.
func arraySlice(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	from := intValuesOf(ins[1])
	to := func(int) int64 { return -1 }
	if len(ins) > 2 {
		to = intValuesOf(ins[2])
	}
	return eachList(ec, c, ins, n, func(r int, s, e int64, sel *listSel) {
		size := e - s
		if size == 0 {
			return
		}
		lo, hi := from(r), to(r)
		if lo < 0 {
			lo += size + 1
		}
		if hi < 0 {
			hi += size + 1
		}
		lo = max(lo, 1)
		if hi == 0 {
			hi = 1
		}
		hi = min(hi, size)
		for j := lo; j <= hi; j++ {
			sel.add(s + j - 1)
		}
	})
}

// arraySort sorts each row's elements with a typed comparator, stably; the
// NULLs go first or last as nulls_first says (by default as ascending).
func arraySort(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	l, err := listOf(c, ins[0])
	if err != nil {
		return nil, err
	}
	less, err := elemCompare(l.ListValues())
	if err != nil {
		return nil, err
	}
	flag := func(i int, def func(r int) bool) func(r int) bool {
		if len(ins) <= i {
			return def
		}
		b := ins[i].(*array.Boolean)
		return b.Value
	}
	asc := flag(1, func(int) bool { return true })
	nullsFirst := flag(2, asc)
	vals := l.ListValues()
	var idx, nulls []int64
	return eachList(ec, c, ins, n, func(r int, s, e int64, sel *listSel) {
		idx, nulls = idx[:0], nulls[:0]
		for j := s; j < e; j++ {
			if vals.IsNull(int(j)) {
				nulls = append(nulls, j)
			} else {
				idx = append(idx, j)
			}
		}
		up := asc(r)
		slices.SortStableFunc(idx, func(a, b int64) int {
			if up {
				return less(int(a), int(b))
			}
			return less(int(b), int(a))
		})
		first := nullsFirst(r)
		if first {
			sel.idx = append(sel.idx, nulls...)
		}
		sel.idx = append(sel.idx, idx...)
		if !first {
			sel.idx = append(sel.idx, nulls...)
		}
	})
}
