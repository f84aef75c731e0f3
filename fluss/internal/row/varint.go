package row

import "github.com/flussql/flussql/fluss/internal/codec"

// The byte-level primitives are package codec's; these names keep the row code short.
type reader = codec.Reader

var errTruncated = codec.ErrTruncated

func isNullBit(bits []byte, i int) bool { return bits[i>>3]&(1<<(uint(i)&7)) != 0 }

func setNullBit(bits []byte, i int) { bits[i>>3] |= 1 << (uint(i) & 7) }
