package flusslake

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// paimonPartition decodes a manifest entry's _PARTITION, the partition's values as Paimon
// serializes a BinaryRow (SerializationUtils.serializeBinaryRow): a big-endian int32 field
// count, then the row: a null bit set of ((n+63+8)/64)*8 bytes (the first byte is the row
// kind, field i's null bit is bit i+8), then 8 bytes per field. A string of up to 7 bytes
// sits in its 8 bytes (the last byte is 0x80 | length); a longer one is a little-endian
// (offset from the row's start << 32 | length). Fixed-size values are little-endian in
// their 8 bytes. types are the partition keys' Paimon types; the values come back as the
// strings Fluss names partitions with.
func paimonPartition(b []byte, types []string) ([]string, error) {
	if len(types) == 0 {
		return nil, nil
	}
	if len(b) < 4 {
		return nil, fmt.Errorf("a partition of %d bytes", len(b))
	}
	n := int(binary.BigEndian.Uint32(b))
	row := b[4:]
	if n != len(types) {
		return nil, fmt.Errorf("a partition of %d values where the table has %d partition keys", n, len(types))
	}
	nulls := ((n + 63 + 8) / 64) * 8
	if len(row) < nulls+8*n {
		return nil, fmt.Errorf("a partition of %d bytes holds no %d values", len(row), n)
	}
	out := make([]string, n)
	for i, t := range types {
		bit := i + 8
		if row[bit/8]&(1<<(bit%8)) != 0 {
			out[i] = "__DEFAULT_PARTITION__"
			continue
		}
		slot := row[nulls+8*i : nulls+8*i+8]
		switch base := strings.ToUpper(strings.TrimSuffix(strings.Fields(t)[0], "NOT")); {
		case strings.HasPrefix(base, "STRING"), strings.HasPrefix(base, "VARCHAR"), strings.HasPrefix(base, "CHAR"):
			if slot[7]&0x80 != 0 {
				out[i] = string(slot[:slot[7]&0x7f])
				continue
			}
			v := binary.LittleEndian.Uint64(slot)
			off, l := int(v>>32), int(v&0xffffffff)
			if off+l > len(row) {
				return nil, fmt.Errorf("a partition value past the row's %d bytes", len(row))
			}
			out[i] = string(row[off : off+l])
		case strings.HasPrefix(base, "INT"), strings.HasPrefix(base, "DATE"):
			out[i] = strconv.FormatInt(int64(int32(binary.LittleEndian.Uint32(slot))), 10)
		case strings.HasPrefix(base, "BIGINT"):
			out[i] = strconv.FormatInt(int64(binary.LittleEndian.Uint64(slot)), 10)
		case strings.HasPrefix(base, "SMALLINT"):
			out[i] = strconv.FormatInt(int64(int16(binary.LittleEndian.Uint16(slot))), 10)
		case strings.HasPrefix(base, "TINYINT"):
			out[i] = strconv.FormatInt(int64(int8(slot[0])), 10)
		case strings.HasPrefix(base, "BOOLEAN"):
			out[i] = strconv.FormatBool(slot[0] != 0)
		default:
			return nil, fmt.Errorf("a partition key of Paimon type %s, which flusslake does not decode (it reads STRING, integer, DATE and BOOLEAN keys)", t)
		}
	}
	return out, nil
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
