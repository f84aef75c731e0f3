package engine

import (
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// assign sets gids[r] to row r's group, adding the groups not seen yet.
func (a *aggregateOp) assign(keyCols []arrow.Array, gids []int32) error {
	if len(gids) == 0 {
		return nil // an empty batch (an empty array may have no value buffer to type-switch on)
	}
	switch a.mode {
	case keysNone:
		clear(gids)
		a.groups = 1
	case keyInt:
		if n := len(a.intKeys); cap(a.intKeys)-n < len(gids) { // room for every row to be a new group
			a.intKeys = grown(a.intKeys, n+len(gids))[:n] // doubling: append's 1.25× copies too often
		}
		i8, i16, i32, i64 := ints(keyCols[0])
		switch c := keyCols[0].(type) {
		case *array.Date32:
			assignInts(a, c, c.Date32Values(), gids)
			return nil
		case *array.Time32:
			assignInts(a, c, c.Time32Values(), gids)
			return nil
		case *array.Time64:
			assignInts(a, c, c.Time64Values(), gids)
			return nil
		case *array.Timestamp:
			assignInts(a, c, c.TimestampValues(), gids)
			return nil
		}
		switch {
		case i64 != nil:
			assignInts(a, keyCols[0], i64, gids)
		case i32 != nil:
			assignInts(a, keyCols[0], i32, gids)
		case i16 != nil:
			assignInts(a, keyCols[0], i16, gids)
		case i8 != nil:
			assignInts(a, keyCols[0], i8, gids)
		default:
			return fmt.Errorf("engine: GROUP BY %s got a %s column", a.node.Keys[0], keyCols[0].DataType())
		}
	case keyString:
		col, ok := keyCols[0].(*array.String)
		if !ok {
			return fmt.Errorf("engine: GROUP BY %s got a %s column", a.node.Keys[0], keyCols[0].DataType())
		}
		for r := range gids {
			if col.IsNull(r) {
				gids[r] = a.nullKeyGroup()
				continue
			}
			s := col.Value(r)
			g, added := a.strs.find(unsafe.Slice(unsafe.StringData(s), len(s)), int32(a.groups))
			if added {
				a.groups++
			}
			gids[r] = g
		}
	case keysMulti:
		return a.assignMulti(keyCols, gids)
	default:
		return a.assignEncoded(keyCols, gids)
	}
	return nil
}

// nullKeyGroup is the group of a single key's NULL, added when first seen.
func (a *aggregateOp) nullKeyGroup() int32 {
	if a.nullGroup < 0 {
		a.nullGroup = int32(a.groups)
		a.groups++
		if a.mode == keyInt {
			a.intKeys = append(a.intKeys, 0)
		} else {
			a.strs.offs = append(a.strs.offs, int64(len(a.strs.data))) // an empty key, not in the table
			a.strs.skip = a.nullGroup
		}
	}
	return a.nullGroup
}

func assignInts[T ~int8 | ~int16 | ~int32 | ~int64](a *aggregateOp, col arrow.Array, vals []T, gids []int32) {
	nulls := col.NullN() > 0
	if !a.ints.sparse && len(vals) > 0 {
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for r, v := range vals {
			if !nulls || col.IsValid(r) {
				lo, hi = min(lo, int64(v)), max(hi, int64(v))
			}
		}
		if lo <= hi && a.ints.widen(lo, hi, a.groups+len(vals), a.intKeys, a.nullGroup, a.denseRoom()) {
			dense, base := a.ints.dense, a.ints.lo
			for r := range gids {
				if nulls && col.IsNull(r) {
					gids[r] = a.nullKeyGroup()
					continue
				}
				k := int64(vals[r])
				d := &dense[k-base]
				if *d == 0 {
					a.intKeys = append(a.intKeys, k)
					*d = int32(a.groups) + 1
					a.groups++
				}
				gids[r] = *d - 1
			}
			return
		}
	}
	for r := range gids {
		if nulls && col.IsNull(r) {
			gids[r] = a.nullKeyGroup()
			continue
		}
		k := int64(vals[r])
		g, added := a.ints.find(k, int32(a.groups))
		if added {
			a.intKeys = append(a.intKeys, k)
			a.groups++
		}
		gids[r] = g
	}
}

// denseRoom is what a dense integer index may take: half the budget left
// (with what the index takes now), so that the index never fails a query
// that a hash table would let through.
func (a *aggregateOp) denseRoom() int64 {
	if a.budget == nil || a.budget.Limit <= 0 {
		return math.MaxInt64
	}
	return (a.budget.Limit-a.budget.Used())/2 + int64(cap(a.ints.dense))*4
}

func (a *aggregateOp) assignEncoded(keyCols []arrow.Array, gids []int32) error {
	keyEnc := make([]func([]byte, int) []byte, len(keyCols))
	keyGet := make([]func(int) any, len(keyCols))
	for i, c := range keyCols {
		var err error
		if keyEnc[i], err = keyAppender(c); err != nil {
			return err
		}
		if keyGet[i], err = getter(c); err != nil {
			return err
		}
	}
	for r := range gids {
		key := a.key[:0]
		for i := range keyCols {
			key = keyEnc[i](key, r)
		}
		a.key = key
		g, added := a.strs.find(key, int32(a.groups))
		if added {
			a.groups++
			for i, c := range keyCols { // read the values only for a new group
				var k any
				if c.IsValid(r) {
					k = keyGet[i](r)
				}
				a.keys[i].add(k)
			}
		}
		gids[r] = g
	}
	return nil
}

// buildKeys makes the result column of key i.
func (a *aggregateOp) buildKeys(i int, t types.DataType) (arrow.Array, error) {
	if a.mode == keysEncoded {
		return buildArray(a.ec.mem, t, a.keys[i].vals)
	}
	if a.mode == keysMulti {
		return a.multi.build(a, i, t)
	}
	b, err := newBuilder(a.ec.mem, t)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(a.groups)
	if a.mode == keyInt {
		appendInt := intAppender(b)
		for g, k := range a.intKeys {
			if int32(g) == a.nullGroup {
				b.AppendNull()
				continue
			}
			appendInt(k)
		}
		return b.NewArray(), nil
	}
	sb, ok := b.(*array.StringBuilder)
	if !ok {
		return nil, fmt.Errorf("engine: GROUP BY %s builds %s", a.node.Keys[i], b.Type())
	}
	sb.ReserveData(len(a.strs.data))
	for g := range a.groups {
		if int32(g) == a.nullGroup {
			sb.AppendNull()
			continue
		}
		sb.BinaryBuilder.Append(a.strs.key(g))
	}
	return sb.NewArray(), nil
}
