package engine

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// joinIndex indexes the build side of a hash join by key. The rows of one
// key form a chain in row order: the index gives a key's first row, next
// the row after each row (both as row + 1, 0 ending the chain). Nothing in
// it holds pointers, so the garbage collector does not scan a million
// build rows, and a row costs no allocation of its own.
//
// How keys are indexed is decided by their types, the same on both sides
// (the planner casts them to their common type):
//   - one integer key, or DATE, TIME, TIMESTAMP (integers in Arrow): an
//     array over the keys' range when it is at most a few times the rows
//     (ids), else an open-addressing table of int64 keys;
//   - two integer or DATE keys of at most 32 bits each: packed into one
//     int64, then as one integer key (TPC-H's partsupp key);
//   - anything else: the keys' byte encoding (keyAppender, as the
//     aggregation's) in a bytesIndex.
type joinIndex struct {
	mode   joinKeyMode
	dense  []int32 // key lo+i's first row + 1
	lo     int64
	sparse []intSlot // g is the first row + 1; 0 marks an empty slot
	shift  uint
	bytes  bytesIndex
	first  []int32 // per group of bytes: its first row + 1
	next   []int32
	// nullKey: a build row has a NULL key (it is in no chain).
	nullKey bool
	ints    []int64 // scratch: a batch's integer keys
	nulls   []bool  // scratch: a batch's rows with a NULL key
	enc     []byte  // scratch: one row's encoded key
}

type joinKeyMode int

const (
	joinKeyInt    joinKeyMode = iota // one integer-like key
	joinKeyPacked                    // two integer keys of at most 32 bits
	joinKeyBytes                     // encoded keys
)

// joinKeyModeOf picks the index of a join on keys of the types left[i] =
// right[i].
func joinKeyModeOf(left, right []types.DataType) joinKeyMode {
	for i := range left {
		if left[i].Kind != right[i].Kind {
			return joinKeyBytes
		}
	}
	intLike := func(t types.DataType) bool { return isInt(t.Kind) || isIntLike(t.Kind) }
	switch {
	case len(left) == 1 && intLike(left[0]):
		return joinKeyInt
	case len(left) == 2 && fits32(left[0]) && fits32(left[1]):
		return joinKeyPacked
	}
	return joinKeyBytes
}

// fits32 reports whether t's values are integers of at most 32 bits in
// Arrow: TINYINT, SMALLINT, INT, DATE.
func fits32(t types.DataType) bool {
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.Date:
		return true
	}
	return false
}

// maxDenseJoin bounds the range of keys a dense index covers: a few slots
// per build row (4 bytes each), at least 64Ki.
func maxDenseJoin(rows int) int64 { return max(4*int64(rows), 1<<16) }

// buildJoinIndex indexes the rows of the key columns keys (the build
// side's, n rows); grow accounts the bytes it takes.
func buildJoinIndex(mode joinKeyMode, keys []arrow.Array, n int, grow func(int64) error) (*joinIndex, error) {
	x := &joinIndex{mode: mode, next: make([]int32, n)}
	if err := grow(int64(n) * 4); err != nil {
		return nil, err
	}
	if mode == joinKeyBytes {
		return x, x.buildBytes(keys, n, grow)
	}
	vals, err := x.intKeys(keys, n)
	if err != nil {
		return nil, err
	}
	lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
	for r, v := range vals {
		if !x.nulls[r] {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if lo > hi { // no row with a key
		x.nullKey = n > 0
		return x, nil
	}
	if span := hi - lo + 1; span > 0 && span <= maxDenseJoin(n) {
		x.dense, x.lo = make([]int32, span), lo
		if err := grow(span * 4); err != nil {
			return nil, err
		}
		for r := n - 1; r >= 0; r-- { // from the last row, so that chains are in row order
			if x.nulls[r] {
				x.nullKey = true
				continue
			}
			d := &x.dense[vals[r]-lo]
			x.next[r], *d = *d, int32(r)+1
		}
		return x, nil
	}
	size := 1024
	for size < 2*n {
		size *= 2
	}
	x.sparse, x.shift = make([]intSlot, size), uint(64-bitsOf(size))
	if err := grow(int64(size) * intSlotBytes); err != nil {
		return nil, err
	}
	mask := uint64(size - 1)
	for r := n - 1; r >= 0; r-- {
		if x.nulls[r] {
			x.nullKey = true
			continue
		}
		k := vals[r]
		i := (uint64(k) * 0x9E3779B97F4A7C15) >> x.shift
		for {
			s := &x.sparse[i]
			if s.g == 0 {
				s.k, s.g = k, int32(r)+1
				break
			}
			if s.k == k {
				x.next[r], s.g = s.g, int32(r)+1
				break
			}
			i = (i + 1) & mask
		}
	}
	return x, nil
}

func bitsOf(pow2 int) int {
	b := 0
	for 1<<b < pow2 {
		b++
	}
	return b
}

func (x *joinIndex) buildBytes(keys []arrow.Array, n int, grow func(int64) error) error {
	x.bytes = newBytesIndex()
	enc, err := keyAppenders(keys)
	if err != nil {
		return err
	}
	before := x.bytes.bytes()
	for r := n - 1; r >= 0; r-- {
		key, ok := x.encode(keys, enc, r)
		if !ok {
			x.nullKey = true
			continue
		}
		g, added := x.bytes.find(key, int32(len(x.first)))
		if added {
			x.first = append(x.first, 0)
		}
		x.next[r], x.first[g] = x.first[g], int32(r)+1
	}
	return grow(x.bytes.bytes() - before + int64(cap(x.first))*4)
}

func keyAppenders(keys []arrow.Array) ([]func([]byte, int) []byte, error) {
	enc := make([]func([]byte, int) []byte, len(keys))
	for i, a := range keys {
		var err error
		if enc[i], err = keyAppender(a); err != nil {
			return nil, err
		}
	}
	return enc, nil
}

// encode is row r's key (valid until the next encode); ok is false when a
// key column is NULL.
func (x *joinIndex) encode(keys []arrow.Array, enc []func([]byte, int) []byte, r int) ([]byte, bool) {
	buf := x.enc[:0]
	for i, a := range keys {
		if a.IsNull(r) {
			return nil, false
		}
		buf = enc[i](buf, r)
	}
	x.enc = buf
	return buf, true
}

// intKeys returns the integer keys of n rows (one column, or two packed)
// and sets x.nulls; both are scratch space valid until the next call.
func (x *joinIndex) intKeys(keys []arrow.Array, n int) ([]int64, error) {
	x.ints, x.nulls = grown(x.ints[:0], n), grown(x.nulls[:0], n)
	vals, nulls := x.ints[:n], x.nulls[:n]
	clear(nulls)
	if err := intsOf(keys[0], vals); err != nil {
		return nil, err
	}
	markNulls(keys[0], nulls)
	if x.mode == joinKeyPacked {
		x.ints = grown(x.ints, 2*n)
		vals = x.ints[:n]
		low := x.ints[n : 2*n]
		if err := intsOf(keys[1], low); err != nil {
			return nil, err
		}
		markNulls(keys[1], nulls)
		for r := range vals {
			vals[r] = int64(uint64(uint32(vals[r]))<<32 | uint64(uint32(low[r])))
		}
	}
	return vals, nil
}

func markNulls(a arrow.Array, nulls []bool) {
	if a.NullN() == 0 {
		return
	}
	for r := range nulls {
		if a.IsNull(r) {
			nulls[r] = true
		}
	}
}

// intsOf copies an integer-like column's values into dst.
func intsOf(a arrow.Array, dst []int64) error {
	switch c := a.(type) {
	case *array.Int8:
		widen(c.Int8Values(), dst)
	case *array.Int16:
		widen(c.Int16Values(), dst)
	case *array.Int32:
		widen(c.Int32Values(), dst)
	case *array.Int64:
		copy(dst, c.Int64Values())
	case *array.Date32:
		widen(c.Date32Values(), dst)
	case *array.Time32:
		widen(c.Time32Values(), dst)
	case *array.Time64:
		widen(c.Time64Values(), dst)
	case *array.Timestamp:
		widen(c.TimestampValues(), dst)
	case *array.Null:
		clear(dst) // every row NULL
	default:
		return fmt.Errorf("engine: a join key got a %s column", a.DataType())
	}
	return nil
}

func widen[T ~int8 | ~int16 | ~int32 | ~int64](src []T, dst []int64) {
	for i, v := range src[:len(dst)] {
		dst[i] = int64(v)
	}
}

// probe sets heads[r] to the first build row + 1 with row r's key, 0 when
// none has it, -1 when the key is NULL. keys are the probe side's key
// columns (n rows).
func (x *joinIndex) probe(keys []arrow.Array, n int, heads []int32) error {
	if x.mode == joinKeyBytes {
		enc, err := keyAppenders(keys)
		if err != nil {
			return err
		}
		for r := range n {
			key, ok := x.encode(keys, enc, r)
			switch g, found := x.bytes.lookup(key); {
			case !ok:
				heads[r] = -1
			case found:
				heads[r] = x.first[g]
			default:
				heads[r] = 0
			}
		}
		return nil
	}
	vals, err := x.intKeys(keys, n)
	if err != nil {
		return err
	}
	nulls := x.nulls[:n]
	switch {
	case x.dense != nil:
		span := uint64(len(x.dense))
		for r, v := range vals {
			heads[r] = 0
			if i := uint64(v - x.lo); i < span {
				heads[r] = x.dense[i]
			}
		}
	case x.sparse != nil:
		mask := uint64(len(x.sparse) - 1)
		for r, k := range vals {
			i := (uint64(k) * 0x9E3779B97F4A7C15) >> x.shift
			for {
				s := &x.sparse[i]
				if s.g == 0 || s.k == k {
					heads[r] = s.g
					break
				}
				i = (i + 1) & mask
			}
		}
	default:
		clear(heads[:n])
	}
	for r, null := range nulls {
		if null {
			heads[r] = -1
		}
	}
	return nil
}
