package flusslake

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// paimonPartition decodes a manifest entry's _PARTITION, the partition's values as Paimon
// serializes a BinaryRow (paimonBinaryRow), as the strings Fluss names partitions with.
// types are the partition keys' Paimon types.
func paimonPartition(b []byte, types []string) ([]string, error) {
	if len(types) == 0 {
		return nil, nil
	}
	row, err := paimonBinaryRow(b, len(types))
	if err != nil {
		return nil, fmt.Errorf("a partition %w", err)
	}
	out := make([]string, len(types))
	for i, t := range types {
		v, err := row.field(i, t)
		if err != nil {
			return nil, fmt.Errorf("a partition key %w", err)
		}
		switch v := v.(type) {
		case nil:
			out[i] = "__DEFAULT_PARTITION__"
		case string:
			out[i] = v
		case int64:
			out[i] = strconv.FormatInt(v, 10)
		case bool:
			out[i] = strconv.FormatBool(v)
		}
	}
	return out, nil
}

// binaryRow is a Paimon BinaryRow: a null bit set of ((n+63+8)/64)*8 bytes (the first
// byte is the row kind, field i's null bit is bit i+8), then 8 bytes per field. A string
// of up to 7 bytes sits in its 8 bytes (the last byte is 0x80 | length); a longer one is
// a little-endian (offset from the row's start << 32 | length). Fixed-size values are
// little-endian in their 8 bytes.
type binaryRow struct {
	row   []byte
	n     int
	nulls int
}

// paimonBinaryRow reads a BinaryRow as Paimon serializes it in manifests
// (SerializationUtils.serializeBinaryRow: a big-endian int32 field count, then the row),
// checking that it has n fields.
func paimonBinaryRow(b []byte, n int) (*binaryRow, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("of %d bytes", len(b))
	}
	if got := int(binary.BigEndian.Uint32(b)); got != n {
		return nil, fmt.Errorf("of %d values where %d are expected", got, n)
	}
	r := &binaryRow{row: b[4:], n: n, nulls: ((n + 63 + 8) / 64) * 8}
	if len(r.row) < r.nulls+8*n {
		return nil, fmt.Errorf("of %d bytes holds no %d values", len(r.row), n)
	}
	return r, nil
}

// field returns field i of Paimon type t: nil (null), a string, an int64 (the integer
// types and DATE) or a bool.
func (r *binaryRow) field(i int, t string) (any, error) {
	bit := i + 8
	if r.row[bit/8]&(1<<(bit%8)) != 0 {
		return nil, nil
	}
	slot := r.row[r.nulls+8*i : r.nulls+8*i+8]
	switch base := strings.ToUpper(strings.Fields(t + " ")[0]); {
	case strings.HasPrefix(base, "STRING"), strings.HasPrefix(base, "VARCHAR"), strings.HasPrefix(base, "CHAR"):
		if slot[7]&0x80 != 0 {
			return string(slot[:slot[7]&0x7f]), nil
		}
		v := binary.LittleEndian.Uint64(slot)
		off, l := int(v>>32), int(v&0xffffffff)
		if off+l > len(r.row) {
			return nil, fmt.Errorf("value past the row's %d bytes", len(r.row))
		}
		return string(r.row[off : off+l]), nil
	case strings.HasPrefix(base, "INT"), strings.HasPrefix(base, "DATE"):
		return int64(int32(binary.LittleEndian.Uint32(slot))), nil
	case strings.HasPrefix(base, "BIGINT"):
		return int64(binary.LittleEndian.Uint64(slot)), nil
	case strings.HasPrefix(base, "SMALLINT"):
		return int64(int16(binary.LittleEndian.Uint16(slot))), nil
	case strings.HasPrefix(base, "TINYINT"):
		return int64(int8(slot[0])), nil
	case strings.HasPrefix(base, "BOOLEAN"):
		return slot[0] != 0, nil
	}
	return nil, fmt.Errorf("of Paimon type %s, which flusslake does not decode (it reads STRING, integer, DATE and BOOLEAN values)", t)
}

// paimonPartitionPath is the folder of a partition under the table's: k=v per key, the
// values escaped as Paimon escapes path names (%XX for the characters a path cannot hold).
func paimonPartitionPath(keys, values []string) string {
	var b strings.Builder
	for i, k := range keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(escapePathName(values[i]))
		b.WriteByte('/')
	}
	return b.String()
}

// escapePathName escapes the characters Paimon's PartitionPathUtils escapes.
func escapePathName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || strings.ContainsRune("\"#%'*/:=?\\{[]^", r) {
			fmt.Fprintf(&b, "%%%02X", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
