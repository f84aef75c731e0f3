package engine

import (
	"fmt"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/types"
)

// multiKeys indexes the groups of several key columns of integers (and
// the temporal types Arrow holds as integers), strings and DECIMALs as
// rows of 64-bit codes, filled a column at a time: an integer is its
// value, a string of at most 7 bytes its bytes and length packed, a
// DECIMAL that fits 64 bits its value, and a longer string or wider
// DECIMAL its number in a dictionary of that column; one more word per
// row flags the NULLs and the dictionary numbers. A row's codes are hashed
// and looked up once in an open-addressing table whose slots hold the
// group number and 32 bits of the hash, the group's codes kept back to
// back (gkeys). Encoding each row's key into bytes went through a call per
// column and row, and the key columns were kept as boxed values (TPC-H
// Q1's GROUP BY l_returnflag, l_linestatus over six million rows; Q10's
// and Q18's keys of a name, a number and a price).
type multiKeys struct {
	cols  []keyCodes
	width int      // words per key: a code per column and the flags
	slots []uint64 // the hash's low 32 bits << 32 | the group number + 1; 0 marks an empty slot
	shift uint
	n     int
	gkeys []uint64 // group g's key at g*width
	codes []uint64 // a batch's keys, row r's at r*width (scratch)
}

// keyCodes turns one key column's values into codes.
type keyCodes struct {
	str, dec bool
	long     bytesIndex // the longer strings and wider DECIMALs
	longN    int32
}

// maxMultiKeys bounds multiKeys' columns: the flags word has a NULL bit
// and a dictionary bit for each.
const maxMultiKeys = 32

// multiKeyable reports whether keys of type t can be multiKeys' columns.
func multiKeyable(t types.DataType) bool {
	return isInt(t.Kind) || isIntLike(t.Kind) || isString(t.Kind) || t.Kind == types.Decimal
}

func newMultiKeys(keys []Expr) *multiKeys {
	m := &multiKeys{cols: make([]keyCodes, len(keys)), width: len(keys) + 1, slots: make([]uint64, 1024), shift: 64 - 10}
	for i, k := range keys {
		c := &m.cols[i]
		c.str, c.dec = isString(k.Type().Kind), k.Type().Kind == types.Decimal
		c.long = newBytesIndex()
	}
	return m
}

func (m *multiKeys) bytes() int64 {
	n := int64(cap(m.slots)+cap(m.gkeys)+cap(m.codes)) * 8
	for i := range m.cols {
		n += m.cols[i].long.bytes()
	}
	return n
}

// assignMulti sets gids[r] to row r's group, adding the groups not seen yet.
func (a *aggregateOp) assignMulti(keyCols []arrow.Array, gids []int32) error {
	m, w := a.multi, a.multi.width
	m.codes = grown(m.codes[:0], len(gids)*w)
	flags := len(keyCols)
	for r := range gids {
		m.codes[r*w+flags] = 0
	}
	for i, c := range keyCols {
		if err := m.cols[i].code(c, m.codes, i, w, a.node.Keys[i]); err != nil {
			return err
		}
	}
	for r := range gids {
		key := m.codes[r*w : r*w+w]
		h := hashWords(key)
		mask := uint64(len(m.slots) - 1)
		i := (h * 0x9E3779B97F4A7C15) >> m.shift
		for {
			s := m.slots[i]
			if s == 0 {
				g := int32(a.groups)
				m.slots[i] = h<<32 | uint64(g+1)
				m.gkeys = append(m.gkeys, key...)
				a.groups++
				if m.n++; m.n*4 >= len(m.slots)*3 {
					m.rehash()
				}
				gids[r] = g
				break
			}
			if uint32(s>>32) == uint32(h) {
				g := int32(uint32(s)) - 1
				if slicesEqual(m.gkeys[int(g)*w:int(g)*w+w], key) {
					gids[r] = g
					break
				}
			}
			i = (i + 1) & mask
		}
	}
	return nil
}

func slicesEqual(a, b []uint64) bool {
	for i, x := range a {
		if b[i] != x {
			return false
		}
	}
	return true
}

func hashWords(key []uint64) uint64 {
	h := uint64(len(key))
	for _, c := range key {
		h = (h ^ c) * 0x9E3779B97F4A7C15
		h ^= h >> 29
	}
	return h
}

func (m *multiKeys) rehash() {
	m.slots = make([]uint64, 2*len(m.slots))
	m.shift--
	mask := uint64(len(m.slots) - 1)
	for g := range m.n {
		h := hashWords(m.gkeys[g*m.width : g*m.width+m.width])
		i := (h * 0x9E3779B97F4A7C15) >> m.shift
		for m.slots[i] != 0 {
			i = (i + 1) & mask
		}
		m.slots[i] = h<<32 | uint64(g+1)
	}
}

// code writes the codes of column i of the keys into codes (row r's at
// r*w+i) and sets the flags (word len(cols) of a row).
func (k *keyCodes) code(c arrow.Array, codes []uint64, i, w int, key Expr) error {
	flags := w - 1
	nullBit, longBit := uint64(1)<<i, uint64(1)<<(32+i)
	if c.NullN() == c.Len() {
		for r := range c.Len() {
			codes[r*w+i] = 0
			codes[r*w+flags] |= nullBit
		}
		return nil
	}
	nulls := c.NullN() > 0
	switch col := c.(type) {
	case *array.String:
		if !k.str {
			break
		}
		for r := range col.Len() {
			if nulls && col.IsNull(r) {
				codes[r*w+i] = 0
				codes[r*w+flags] |= nullBit
				continue
			}
			s := col.Value(r)
			if len(s) <= 7 {
				x := uint64(len(s)) << 56
				for j := range len(s) {
					x |= uint64(s[j]) << (8 * j)
				}
				codes[r*w+i] = x
				continue
			}
			codes[r*w+i] = k.number(unsafe.Slice(unsafe.StringData(s), len(s)))
			codes[r*w+flags] |= longBit
		}
		return nil
	case *array.Decimal128:
		if !k.dec {
			break
		}
		vals := col.Values()
		for r := range vals {
			if nulls && col.IsNull(r) {
				codes[r*w+i] = 0
				codes[r*w+flags] |= nullBit
				continue
			}
			v := &vals[r]
			if lo := v.LowBits(); v.HighBits() == int64(lo)>>63 {
				codes[r*w+i] = lo
				continue
			}
			codes[r*w+i] = k.number(unsafe.Slice((*byte)(unsafe.Pointer(v)), 16))
			codes[r*w+flags] |= longBit
		}
		return nil
	case *array.Date32:
		codeInts(col, col.Date32Values(), codes, i, w)
		return nil
	case *array.Time32:
		codeInts(col, col.Time32Values(), codes, i, w)
		return nil
	case *array.Time64:
		codeInts(col, col.Time64Values(), codes, i, w)
		return nil
	case *array.Timestamp:
		codeInts(col, col.TimestampValues(), codes, i, w)
		return nil
	case *array.Int64:
		codeInts(col, col.Int64Values(), codes, i, w)
		return nil
	case *array.Int32:
		codeInts(col, col.Int32Values(), codes, i, w)
		return nil
	case *array.Int16:
		codeInts(col, col.Int16Values(), codes, i, w)
		return nil
	case *array.Int8:
		codeInts(col, col.Int8Values(), codes, i, w)
		return nil
	}
	return fmt.Errorf("engine: GROUP BY %s got a %s column", key, c.DataType())
}

func (k *keyCodes) number(b []byte) uint64 {
	g, added := k.long.find(b, k.longN)
	if added {
		k.longN++
	}
	return uint64(g)
}

func codeInts[T ~int8 | ~int16 | ~int32 | ~int64](col arrow.Array, vals []T, codes []uint64, i, w int) {
	flags, nullBit := w-1, uint64(1)<<i
	nulls := col.NullN() > 0
	for r, v := range vals {
		if nulls && col.IsNull(r) {
			codes[r*w+i] = 0
			codes[r*w+flags] |= nullBit
			continue
		}
		codes[r*w+i] = uint64(int64(v))
	}
}

// build makes the result column of key i, of type t.
func (m *multiKeys) build(a *aggregateOp, i int, t types.DataType) (arrow.Array, error) {
	b, err := newBuilder(a.ec.mem, t)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	b.Reserve(a.groups)
	k, w := &m.cols[i], m.width
	nullBit, longBit := uint64(1)<<i, uint64(1)<<(32+i)
	var appendInt func(int64)
	sb, isStr := b.(*array.StringBuilder)
	db, isDec := b.(*array.Decimal128Builder)
	switch {
	case k.str && !isStr, k.dec && !isDec:
		return nil, fmt.Errorf("engine: GROUP BY %s builds %s", a.node.Keys[i], b.Type())
	case !k.str && !k.dec:
		appendInt = intAppender(b)
	}
	var buf [7]byte
	for g := range a.groups {
		code, flags := m.gkeys[g*w+i], m.gkeys[g*w+w-1]
		switch {
		case flags&nullBit != 0:
			b.AppendNull()
		case k.str && flags&longBit != 0:
			sb.BinaryBuilder.Append(k.long.key(int(code)))
		case k.str:
			n := int(code >> 56)
			for j := range n {
				buf[j] = byte(code >> (8 * j))
			}
			sb.BinaryBuilder.Append(buf[:n])
		case k.dec && flags&longBit != 0:
			var v decimal128.Num
			copy(unsafe.Slice((*byte)(unsafe.Pointer(&v)), 16), k.long.key(int(code)))
			db.UnsafeAppend(v)
		case k.dec:
			db.UnsafeAppend(decimal128.FromI64(int64(code)))
		default:
			appendInt(int64(code))
		}
	}
	return b.NewArray(), nil
}
