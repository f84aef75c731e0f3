package row

import (
	"encoding/binary"
	"fmt"

	"github.com/flussql/flussql/fluss/types"
)

// Fluss's BinaryMap (BinaryMap.valueOf, MapSerializer), the value of a MAP column in
// both row formats:
//
//	int32 LE size in bytes of the key array
//	the keys as a BinaryArray (see array.go); keys are NOT NULL
//	the values as a BinaryArray of the same element count
//
// The entries keep their stored order.

// appendBinaryMap appends the BinaryMap of entries of the MAP type t.
func appendBinaryMap(dst []byte, f Format, t *types.DataType, entries []MapEntry) ([]byte, error) {
	keys := make([]any, len(entries))
	values := make([]any, len(entries))
	for i, e := range entries {
		if e.Key == nil {
			return dst, fmt.Errorf("row: key of entry %d of %s is NULL; map keys must not be NULL", i, t)
		}
		keys[i], values[i] = e.Key, e.Value
	}
	start := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var err error
	if dst, err = appendBinaryArray(dst, f, t.Key, keys); err != nil {
		return dst, fmt.Errorf("map key: %w", err)
	}
	binary.LittleEndian.PutUint32(dst[start:], uint32(len(dst)-start-4))
	if dst, err = appendBinaryArray(dst, f, t.Value, values); err != nil {
		return dst, fmt.Errorf("map value: %w", err)
	}
	return dst, nil
}

// decodeBinaryMap decodes a BinaryMap that spans all of b.
func decodeBinaryMap(b []byte, f Format, t *types.DataType, depth int) ([]MapEntry, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("row: map header: %w", errTruncated)
	}
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	if n < 0 || n > int64(len(b)-4) {
		return nil, fmt.Errorf("row: map key array size %d outside [0, %d]", n, len(b)-4)
	}
	keys, err := decodeBinaryArray(b[4:4+n], f, t.Key, true, depth)
	if err != nil {
		return nil, fmt.Errorf("row: map keys: %w", err)
	}
	values, err := decodeBinaryArray(b[4+n:], f, t.Value, false, depth)
	if err != nil {
		return nil, fmt.Errorf("row: map values: %w", err)
	}
	if len(keys) != len(values) {
		return nil, fmt.Errorf("row: map has %d keys but %d values", len(keys), len(values))
	}
	entries := make([]MapEntry, len(keys))
	for i := range keys {
		entries[i] = MapEntry{Key: keys[i], Value: values[i]}
	}
	return entries, nil
}
