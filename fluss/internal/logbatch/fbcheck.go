package logbatch

import "encoding/binary"

// checkMessageVectors checks, before arrow-go reads the flatbuffer metadata of a record
// batch message, that every vector it sizes allocations by fits inside the metadata:
// the message's custom_metadata and the record batch's nodes, buffers and
// variadicBufferCounts. arrow-go trusts these lengths (a corrupt custom_metadata length
// makes it allocate gigabytes before anything else fails), so a batch from the wire must
// pass this check first.
func checkMessageVectors(meta []byte) error {
	root, ok := u32(meta, 0)
	if !ok {
		return errCorruptf("arrow metadata of %d bytes has no root table", len(meta))
	}
	msg := int(root)
	// Message: 0 version, 1 header_type, 2 header, 3 bodyLength, 4 custom_metadata.
	if err := checkVector(meta, msg, 4, 4); err != nil {
		return err
	}
	header, ok, err := tableField(meta, msg, 2)
	if err != nil || !ok {
		return err
	}
	// RecordBatch: 0 length, 1 nodes (16-byte structs), 2 buffers (16-byte structs),
	// 3 compression, 4 variadicBufferCounts (longs).
	for _, f := range []struct{ field, size int }{{1, 16}, {2, 16}, {4, 8}} {
		if err := checkVector(meta, header, f.field, f.size); err != nil {
			return err
		}
	}
	return nil
}

func u32(b []byte, at int) (uint32, bool) {
	if at < 0 || at+4 > len(b) {
		return 0, false
	}
	return binary.LittleEndian.Uint32(b[at:]), true
}

// fieldOffset returns the position of field in the table at pos, or 0 when it is absent.
func fieldOffset(b []byte, pos, field int) (int, error) {
	soff, ok := u32(b, pos)
	if !ok {
		return 0, errCorruptf("arrow metadata: table at %d out of range", pos)
	}
	vt := pos - int(int32(soff))
	if vt < 0 || vt+4 > len(b) {
		return 0, errCorruptf("arrow metadata: vtable at %d out of range", vt)
	}
	vtSize := int(binary.LittleEndian.Uint16(b[vt:]))
	at := vt + 4 + 2*field
	if at+2 > vt+vtSize || at+2 > len(b) {
		return 0, nil
	}
	off := int(binary.LittleEndian.Uint16(b[at:]))
	if off == 0 {
		return 0, nil
	}
	return pos + off, nil
}

// tableField follows the offset stored in field of the table at pos.
func tableField(b []byte, pos, field int) (int, bool, error) {
	at, err := fieldOffset(b, pos, field)
	if err != nil || at == 0 {
		return 0, false, err
	}
	rel, ok := u32(b, at)
	if !ok {
		return 0, false, errCorruptf("arrow metadata: field offset at %d out of range", at)
	}
	target := at + int(rel)
	if target < 0 || target+4 > len(b) {
		return 0, false, errCorruptf("arrow metadata: field target %d out of range", target)
	}
	return target, true, nil
}

// checkVector checks that the vector in field of the table at pos, with elements of
// elemSize bytes, lies inside b.
func checkVector(b []byte, pos, field, elemSize int) error {
	vec, ok, err := tableField(b, pos, field)
	if err != nil || !ok {
		return err
	}
	n, _ := u32(b, vec)
	if int64(n)*int64(elemSize) > int64(len(b)-vec-4) {
		return errCorruptf("arrow metadata: vector of %d elements at %d exceeds the %d-byte metadata", n, vec, len(b))
	}
	return nil
}
