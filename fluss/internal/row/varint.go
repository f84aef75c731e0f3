package row

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

var errTruncated = errors.New("row: truncated input")

// appendVarint32 appends the unsigned LEB128 encoding of the 32-bit two's-complement
// value v (negative values take 5 bytes), as CompactedRowWriter.writeInt does.
func appendVarint32(dst []byte, v int32) []byte {
	u := uint32(v)
	for u >= 0x80 {
		dst = append(dst, byte(u)|0x80)
		u >>= 7
	}
	return append(dst, byte(u))
}

// appendVarint64 appends the unsigned LEB128 encoding of the 64-bit two's-complement
// value v (negative values take 10 bytes), as CompactedRowWriter.writeLong does.
func appendVarint64(dst []byte, v int64) []byte {
	return binary.AppendUvarint(dst, uint64(v))
}

// reader walks a byte slice with bounds-checked reads.
type reader struct {
	b   []byte
	pos int
}

func (r *reader) remaining() int { return len(r.b) - r.pos }

func (r *reader) byte1() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errTruncated
	}
	c := r.b[r.pos]
	r.pos++
	return c, nil
}

func (r *reader) fixed(n int) ([]byte, error) {
	if n < 0 || n > r.remaining() {
		return nil, errTruncated
	}
	s := r.b[r.pos : r.pos+n]
	r.pos += n
	return s, nil
}

// varint32 reads what CompactedRowReader.readInt reads: at most 5 bytes, the fifth
// contributing its low 4 bits. A fifth byte with the continuation bit is rejected.
func (r *reader) varint32() (int32, error) {
	var u uint32
	for shift := uint(0); shift < 35; shift += 7 {
		c, err := r.byte1()
		if err != nil {
			return 0, err
		}
		u |= uint32(c&0x7f) << shift
		if c < 0x80 {
			return int32(u), nil
		}
	}
	return 0, errors.New("row: varint32 longer than 5 bytes")
}

// varint64 reads what CompactedRowReader.readLong reads: at most 10 bytes.
func (r *reader) varint64() (int64, error) {
	var u uint64
	for shift := uint(0); shift < 70; shift += 7 {
		c, err := r.byte1()
		if err != nil {
			return 0, err
		}
		u |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return int64(u), nil
		}
	}
	return 0, errors.New("row: varint64 longer than 10 bytes")
}

// lengthPrefixed reads a varint32 length and that many bytes.
func (r *reader) lengthPrefixed() ([]byte, error) {
	n, err := r.varint32()
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("row: negative length %d", n)
	}
	return r.fixed(int(n))
}

func (r *reader) int16le() (int16, error) {
	b, err := r.fixed(2)
	if err != nil {
		return 0, err
	}
	return int16(binary.LittleEndian.Uint16(b)), nil
}

func (r *reader) int32le() (int32, error) {
	b, err := r.fixed(4)
	if err != nil {
		return 0, err
	}
	return int32(binary.LittleEndian.Uint32(b)), nil
}

func (r *reader) int64le() (int64, error) {
	b, err := r.fixed(8)
	if err != nil {
		return 0, err
	}
	return int64(binary.LittleEndian.Uint64(b)), nil
}

func (r *reader) float32le() (float32, error) {
	b, err := r.fixed(4)
	if err != nil {
		return 0, err
	}
	return math.Float32frombits(binary.LittleEndian.Uint32(b)), nil
}

func (r *reader) float64le() (float64, error) {
	b, err := r.fixed(8)
	if err != nil {
		return 0, err
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(b)), nil
}

func isNullBit(bits []byte, i int) bool { return bits[i>>3]&(1<<(uint(i)&7)) != 0 }

func setNullBit(bits []byte, i int) { bits[i>>3] |= 1 << (uint(i) & 7) }
