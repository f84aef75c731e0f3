package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// BinaryArray element slots (see package row's array.go for the layout): an 8-byte
// slot of a variable-length element holds (offset << 32 | size), the offset counted
// from the array's first byte; strings and bytes of at most 7 bytes are stored in the
// slot itself, the last slot byte 0x80 | length.

// MaxInlineBytes is the longest string/bytes value stored inside its 8-byte slot.
const MaxInlineBytes = 7

// ArrayReader reads the slots and variable-length regions of one BinaryArray from
// untrusted bytes. The regions must follow the fixed part in element order without
// overlapping (as Java writes them), so no byte is decoded twice.
type ArrayReader struct {
	B    []byte // the whole array
	Next int    // where the next variable-length region may start
}

// U64 reads the 8-byte slot at pos.
func (a *ArrayReader) U64(pos int) uint64 { return binary.LittleEndian.Uint64(a.B[pos:]) }

// Region returns the variable-length bytes [off, off+size) named by a slot.
func (a *ArrayReader) Region(off, size int64) ([]byte, error) {
	if off < int64(a.Next) || size < 0 || off+size > int64(len(a.B)) {
		return nil, fmt.Errorf("row: array region [%d, +%d) outside [%d, %d) or out of order",
			off, size, a.Next, len(a.B))
	}
	a.Next = int(off + size)
	return a.B[off : off+size], nil
}

// OffsetAndSize reads a slot holding (offset << 32 | size) and returns its region.
func (a *ArrayReader) OffsetAndSize(pos int) ([]byte, error) {
	v := a.U64(pos)
	if v&(1<<63) != 0 {
		return nil, errors.New("row: array slot has the inline mark but the type is never inline")
	}
	return a.Region(int64(v>>32), int64(uint32(v)))
}

// Bytes reads a string/bytes slot: inline (mark bit set) or a region.
func (a *ArrayReader) Bytes(pos int) ([]byte, error) {
	v := a.U64(pos)
	if v&(1<<63) == 0 {
		return a.Region(int64(v>>32), int64(uint32(v)))
	}
	n := int(v >> 56 & 0x7f)
	if n > MaxInlineBytes {
		return nil, fmt.Errorf("row: inline length %d > %d", n, MaxInlineBytes)
	}
	return a.B[pos : pos+n], nil
}

// PadTo8 zero-pads dst so that len(dst)-base is a multiple of 8.
func PadTo8(dst []byte, base int) []byte {
	for (len(dst)-base)%8 != 0 {
		dst = append(dst, 0)
	}
	return dst
}

// appendArrayBytes stores a string or byte slice inline (<= 7 bytes) or as a region.
func appendArrayBytes[T string | []byte](dst []byte, base, pos int, b T) []byte {
	if len(b) <= MaxInlineBytes {
		copy(dst[pos:pos+MaxInlineBytes], b)
		dst[pos+7] = 0x80 | byte(len(b))
		return dst
	}
	off := len(dst) - base
	dst = append(dst, b...)
	dst = PadTo8(dst, base)
	binary.LittleEndian.PutUint64(dst[pos:], uint64(off)<<32|uint64(len(b)))
	return dst
}
