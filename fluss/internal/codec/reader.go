package codec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// ErrTruncated is returned when row bytes end inside a value.
var ErrTruncated = errors.New("row: truncated input")

// AppendVarint32 appends the unsigned LEB128 encoding of the 32-bit two's-complement
// value v (negative values take 5 bytes), as CompactedRowWriter.writeInt does.
func AppendVarint32(dst []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// AppendVarint64 appends the unsigned LEB128 encoding of the 64-bit two's-complement
// value v (negative values take 10 bytes), as CompactedRowWriter.writeLong does.
func AppendVarint64(dst []byte, v int64) []byte {
	return binary.AppendUvarint(dst, uint64(v))
}

// Reader walks a byte slice with bounds-checked reads.
type Reader struct {
	B   []byte
	Pos int
}

// Remaining returns the number of unread bytes.
func (r *Reader) Remaining() int { return len(r.B) - r.Pos }

// Byte reads one byte.
func (r *Reader) Byte() (byte, error) {
	if r.Pos >= len(r.B) {
		return 0, ErrTruncated
	}
	c := r.B[r.Pos]
	r.Pos++
	return c, nil
}

// Fixed reads n bytes (aliasing the input).
func (r *Reader) Fixed(n int) ([]byte, error) {
	if n < 0 || n > r.Remaining() {
		return nil, ErrTruncated
	}
	s := r.B[r.Pos : r.Pos+n]
	r.Pos += n
	return s, nil
}

// Varint32 reads what CompactedRowReader.readInt reads: at most 5 bytes, the fifth
// contributing its low 4 bits. A fifth byte with the continuation bit is rejected.
func (r *Reader) Varint32() (int32, error) {
	x, n, err := Varint32(r.B[r.Pos:])
	r.Pos += n
	return x, err
}

// Varint64 reads what CompactedRowReader.readLong reads: at most 10 bytes.
func (r *Reader) Varint64() (int64, error) {
	x, n, err := Varint64(r.B[r.Pos:])
	r.Pos += n
	return x, err
}

// LengthPrefixed reads a varint32 length and that many bytes.
func (r *Reader) LengthPrefixed() ([]byte, error) {
	b, n, err := LengthPrefixed(r.B[r.Pos:])
	r.Pos += n
	return b, err
}

// Int16LE reads a little-endian int16.
func (r *Reader) Int16LE() (int16, error) {
	b, err := r.Fixed(2)
	if err != nil {
		return 0, err
	}
	return int16(binary.LittleEndian.Uint16(b)), nil
}

// Int32LE reads a little-endian int32.
func (r *Reader) Int32LE() (int32, error) {
	b, err := r.Fixed(4)
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b)), nil
}

// Int64LE reads a little-endian int64.
func (r *Reader) Int64LE() (int64, error) {
	b, err := r.Fixed(8)
	if err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(b)), nil
}

// Float32LE reads a little-endian IEEE 754 float32.
func (r *Reader) Float32LE() (float32, error) {
	b, err := r.Fixed(4)
	if err != nil {
		return 0, err
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
}

// Float64LE reads a little-endian IEEE 754 float64.
func (r *Reader) Float64LE() (float64, error) {
	b, err := r.Fixed(8)
	if err != nil {
		return 0, err
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
}

// Varint32 decodes a CompactedRow varint32 from the start of b (see
// Reader.Varint32) and returns its length.
func Varint32(b []byte) (int32, int, error) {
	var u uint32
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, 0, ErrTruncated
		}
		c := b[i]
		u |= uint32(c&0x7f) << (7 * uint(i))
		if c < 0x80 {
			return int32(u), i + 1, nil
		}
	}
	return 0, 0, errors.New("row: varint32 longer than 5 bytes")
}

// Varint64 decodes a CompactedRow varint64 from the start of b (see
// Reader.Varint64) and returns its length.
func Varint64(b []byte) (int64, int, error) {
	var u uint64
	for i := 0; i < 10; i++ {
		if i >= len(b) {
			return 0, 0, ErrTruncated
		}
		c := b[i]
		u |= uint64(c&0x7f) << (7 * uint(i))
		if c < 0x80 {
			return int64(u), i + 1, nil
		}
	}
	return 0, 0, errors.New("row: varint64 longer than 10 bytes")
}

// LengthPrefixed decodes a varint32 length and that many bytes from the start of
// b and returns the bytes (aliasing b) and the total length.
func LengthPrefixed(b []byte) ([]byte, int, error) {
	n, m, err := Varint32(b)
	if err != nil {
		return nil, 0, err
	}
	if n < 0 {
		return nil, 0, fmt.Errorf("row: negative length %d", n)
	}
	if int(n) > len(b)-m {
		return nil, 0, ErrTruncated
	}
	return b[m : m+int(n)], m + int(n), nil
}
