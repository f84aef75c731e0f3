package engine

import (
	"bytes"
	"hash/maphash"
	"math"
)

// intIndex maps integer group keys to group numbers. While the keys span
// a range of at most a few times the number of groups (ids, counters,
// dates), it is an array over that range (dense, key lo+i at i); when they
// spread wider, an open-addressing table with linear probing, kept at most
// 3/4 full. Neither holds pointers, so a million groups are a few large
// allocations that the garbage collector does not scan, and a look-up is
// one cache line.
type intIndex struct {
	sparse bool
	dense  []int32 // the group number + 1; 0 marks a key not seen
	lo     int64
	slots  []intSlot // g is the group number + 1; 0 marks an empty slot
	shift  uint      // 64 - log2(len(slots))
	n      int
}

// maxDense bounds the range of a dense index: 4 slots (16 bytes) a group
// or row, as much as the hash table's, or 8Mi slots (32 MiB) whatever the
// groups, and no more than 256 MiB. Keys arriving out of order, as a scan's
// buckets deliver them, span a wide range before the groups between are
// seen: TPC-H Q18's GROUP BY l_orderkey at scale 1 spans 6M keys from its
// first batches, and ends with 1.5M groups; in a hash table its look-ups
// were a third of the query's time. (The caller bounds the array by the
// budget too.)
func maxDense(groups int) int64 { return min(max(4*int64(groups)+4096, 1<<23), 1<<26) }

// widen makes the index cover keys [lo, hi] for at most groups groups:
// a dense index is re-based or grown, or turned into a hash table (from
// keys, the key of each group; skip is a group not in the index, or -1)
// when the range is too wide or its array would take more than room bytes.
// It reports whether the index is still dense.
func (x *intIndex) widen(lo, hi int64, groups int, keys []int64, skip int32, room int64) bool {
	if x.sparse {
		return false
	}
	if len(x.dense) > 0 {
		lo, hi = min(lo, x.lo), max(hi, x.lo+int64(len(x.dense))-1)
	}
	if span := hi - lo + 1; span > 0 && span <= maxDense(groups) && 4*span <= room { // span <= 0: the range overflowed
		if len(x.dense) > 0 && lo >= x.lo && hi < x.lo+int64(len(x.dense)) {
			return true
		}
		n := min(max(span, 2*int64(len(x.dense))), maxDense(groups))
		base := lo
		if len(x.dense) > 0 && lo < x.lo { // growing downward: room below
			if b := hi - n + 1; b <= lo {
				base = b
			}
		}
		if base > math.MaxInt64-(n-1) {
			base = math.MaxInt64 - (n - 1)
		}
		d := make([]int32, n)
		if len(x.dense) > 0 {
			copy(d[x.lo-base:], x.dense)
		}
		x.dense, x.lo = d, base
		return true
	}
	x.sparse = true
	x.dense = nil
	x.slots, x.shift, x.n = make([]intSlot, 1024), 64-10, 0
	for g, k := range keys {
		if int32(g) != skip {
			x.find(k, int32(g))
		}
	}
	return false
}

type intSlot struct {
	k int64
	g int32
}

const intSlotBytes = 16

// find returns the group of k, or adds k as group next (and reports added).
func (x *intIndex) find(k int64, next int32) (g int32, added bool) {
	mask := uint64(len(x.slots) - 1)
	i := (uint64(k) * 0x9E3779B97F4A7C15) >> x.shift
	for {
		s := &x.slots[i]
		if s.g == 0 {
			s.k, s.g = k, next+1
			x.n++
			if x.n*4 >= len(x.slots)*3 {
				x.rehash()
			}
			return next, true
		}
		if s.k == k {
			return s.g - 1, false
		}
		i = (i + 1) & mask
	}
}

func (x *intIndex) rehash() {
	old := x.slots
	x.slots = make([]intSlot, 2*len(old))
	x.shift--
	mask := uint64(len(x.slots) - 1)
	for _, s := range old {
		if s.g == 0 {
			continue
		}
		i := (uint64(s.k) * 0x9E3779B97F4A7C15) >> x.shift
		for x.slots[i].g != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = s
	}
}

func (x *intIndex) bytes() int64 { return int64(cap(x.slots))*intSlotBytes + int64(cap(x.dense))*4 }

// bytesIndex maps byte-string group keys to group numbers; the keys are
// kept back to back in data (group g's is data[offs[g]:offs[g+1]]), so
// that a new group costs no allocation of its own. Each slot holds the
// group number + 1 in its low 32 bits and 32 bits of the key's hash in its
// high ones, so that most mismatches are told without reading the key.
type bytesIndex struct {
	slots []uint64
	shift uint
	data  []byte
	offs  []int64
	seed  maphash.Seed
	// skip is a group with no key in the table (a NULL key's, whose place
	// in offs is empty), -1 if none.
	skip int32
}

func newBytesIndex() bytesIndex {
	return bytesIndex{slots: make([]uint64, 1024), shift: 64 - 10, offs: []int64{0}, seed: maphash.MakeSeed(), skip: -1}
}

// key is group g's key; it is valid until the next find.
func (x *bytesIndex) key(g int) []byte { return x.data[x.offs[g]:x.offs[g+1]] }

// find returns the group of k, or adds a copy of k as group next.
func (x *bytesIndex) find(k []byte, next int32) (g int32, added bool) {
	h := maphash.Bytes(x.seed, k)
	mask := uint64(len(x.slots) - 1)
	i := (h * 0x9E3779B97F4A7C15) >> x.shift
	tag := h >> 32
	for {
		s := x.slots[i]
		if s == 0 {
			x.slots[i] = tag<<32 | uint64(next+1)
			x.data = append(x.data, k...)
			x.offs = append(x.offs, int64(len(x.data)))
			if (len(x.offs)-1)*4 >= len(x.slots)*3 {
				x.rehash()
			}
			return next, true
		}
		if s>>32 == tag {
			if g := int32(uint32(s)) - 1; bytes.Equal(x.key(int(g)), k) {
				return g, false
			}
		}
		i = (i + 1) & mask
	}
}

// lookup returns the group of k, if k has one.
func (x *bytesIndex) lookup(k []byte) (g int32, found bool) {
	h := maphash.Bytes(x.seed, k)
	mask := uint64(len(x.slots) - 1)
	i := (h * 0x9E3779B97F4A7C15) >> x.shift
	tag := h >> 32
	for {
		s := x.slots[i]
		if s == 0 {
			return 0, false
		}
		if s>>32 == tag {
			if g := int32(uint32(s)) - 1; bytes.Equal(x.key(int(g)), k) {
				return g, true
			}
		}
		i = (i + 1) & mask
	}
}

func (x *bytesIndex) rehash() {
	x.slots = make([]uint64, 2*len(x.slots))
	x.shift--
	mask := uint64(len(x.slots) - 1)
	for g := range len(x.offs) - 1 {
		if int32(g) == x.skip {
			continue
		}
		k := x.key(g)
		h := maphash.Bytes(x.seed, k)
		i := (h * 0x9E3779B97F4A7C15) >> x.shift
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = (h>>32)<<32 | uint64(g+1)
	}
}

func (x *bytesIndex) bytes() int64 {
	return int64(cap(x.slots))*8 + int64(cap(x.data)) + int64(cap(x.offs))*8
}
