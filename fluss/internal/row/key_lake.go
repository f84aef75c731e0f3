package row

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/types"
)

// KeyFormat is the byte layout of an encoded key.
type KeyFormat int

const (
	// KeyCompacted is Fluss's own CompactedKeyEncoder: tables without a
	// datalake format, lance tables, and the primary key of kv format 2
	// tables whose bucket key is not the primary key.
	KeyCompacted KeyFormat = iota
	// KeyPaimon is PaimonKeyEncoder: a Paimon BinaryRow of the key columns.
	KeyPaimon
	// KeyIceberg is IcebergKeyEncoder: Iceberg's single-value serialization
	// of the one key column.
	KeyIceberg
)

// String names the format as the table property table.datalake.format does.
func (f KeyFormat) String() string {
	switch f {
	case KeyPaimon:
		return "paimon"
	case KeyIceberg:
		return "iceberg"
	}
	return "compacted"
}

// LakeKeyFormat returns the key format Fluss's KeyEncoder.of picks for a
// datalake format (the table property table.datalake.format, any case):
// compacted for none and lance, paimon, iceberg. An unknown format is an error.
func LakeKeyFormat(lake string) (KeyFormat, error) {
	switch strings.ToLower(lake) {
	case "", "lance":
		return KeyCompacted, nil
	case "paimon":
		return KeyPaimon, nil
	case "iceberg":
		return KeyIceberg, nil
	}
	return 0, fmt.Errorf("row: unknown datalake format %q (known: paimon, iceberg, lance)", lake)
}

// NewLakeKeyEncoderForColumns is NewKeyEncoderForColumns for a key format.
// Iceberg keys have exactly one column (IcebergKeyEncoder); each format
// refuses the types Java refuses (see paimonKeyTypeOK and icebergKeyTypeOK).
func NewLakeKeyEncoderForColumns(format KeyFormat, cols []types.Column, keyNames []string) (*KeyEncoder, error) {
	e, err := NewKeyEncoderForColumns(cols, keyNames)
	if err != nil || format == KeyCompacted {
		return e, err
	}
	e.format = format
	if format == KeyIceberg && len(e.types) != 1 {
		return nil, fmt.Errorf("row: an iceberg table's key must have exactly one column, got %d %v", len(e.types), keyNames)
	}
	ok := paimonKeyTypeOK
	if format == KeyIceberg {
		ok = icebergKeyTypeOK
	}
	for i := range e.types {
		if !ok(e.types[i].Kind) {
			return nil, fmt.Errorf("row: key column %s: a %s table's key cannot be of type %s, which Fluss's %s key encoder does not support", e.describe(i), format, &e.types[i], format)
		}
	}
	return e, nil
}

// paimonKeyTypeOK lists PaimonBinaryRowWriter.createFieldWriter's types:
// every scalar type.
func paimonKeyTypeOK(k types.Kind) bool { return !k.Nested() }

// icebergKeyTypeOK lists IcebergBinaryRowWriter.createFieldWriter's types:
// no BOOLEAN, TINYINT, SMALLINT or TIMESTAMP_LTZ.
func icebergKeyTypeOK(k types.Kind) bool {
	switch k {
	case types.Int, types.Date, types.Time, types.BigInt, types.Float, types.Double,
		types.Timestamp, types.Decimal, types.String, types.Char, types.Binary, types.Bytes:
		return true
	}
	return false
}

// appendLake encodes a key in e.format; row has e.arity values.
func (e *KeyEncoder) appendLake(dst []byte, row []any) ([]byte, error) {
	for i, idx := range e.indexes {
		if row[idx] == nil {
			return dst, fmt.Errorf("row: key column %s is NULL; key columns must not be NULL", e.describe(i))
		}
	}
	if e.format == KeyIceberg {
		out, err := appendIcebergValue(dst, &e.types[0], row[e.indexes[0]])
		if err != nil {
			return dst, fmt.Errorf("key column %s: %w", e.describe(0), err)
		}
		return out, nil
	}
	return e.appendPaimon(dst, row)
}

// paimonHeaderBits is Paimon BinaryRow's header: the row kind byte's bits,
// ahead of the null bits.
const paimonHeaderBits = 8

// appendPaimon writes a Paimon BinaryRow (PaimonBinaryRowWriter): a null bit
// set of ceil((arity+8)/64) 8-byte words whose first byte is the row kind (0,
// INSERT), one 8-byte slot per column, then the variable-length part in
// 8-byte-aligned regions. A slot holds a fixed-width value little-endian in
// its low bytes; a string or byte string of up to 7 bytes inline with 0x80|len
// in its last byte, a longer one as (offset<<32 | length) of a region; a
// DECIMAL of precision <= 18 as its unscaled long, a wider one as a zeroed
// 16-byte region holding its big-endian two's complement; a TIMESTAMP(_LTZ) of
// precision <= 3 as its millis, a finer one as an 8-byte region of millis with
// (offset<<32 | nanoOfMilli) in the slot. Offsets count from the row start.
// These slots are exactly Fluss's BinaryArray element encodings at width 8,
// which the codecs' AppendArray write.
func (e *KeyEncoder) appendPaimon(dst []byte, row []any) ([]byte, error) {
	n := len(e.types)
	nullBytes := (n + 63 + paimonHeaderBits) / 64 * 8
	base := len(dst)
	dst = append(dst, make([]byte, nullBytes+8*n)...)
	for i, idx := range e.indexes {
		c := codec.For(e.types[i].Kind)
		if c == nil || c.AppendArray == nil {
			return dst[:base], fmt.Errorf("row: key column %s: %w", e.describe(i), ErrUnsupportedType)
		}
		var err error
		if dst, err = c.AppendArray(dst, base, base+nullBytes+8*i, &e.types[i], row[idx]); err != nil {
			return dst[:base], fmt.Errorf("key column %s: %w", e.describe(i), err)
		}
	}
	return dst, nil
}

// appendIcebergValue appends one value as IcebergBinaryRowWriter writes it,
// Iceberg's single-value serialization: INT and DATE as an 8-byte
// little-endian long, TIME as its microseconds (millis*1000) in a long, BIGINT
// a long, TIMESTAMP microseconds (millis*1000 + nanoOfMilli/1000) in a long,
// FLOAT and DOUBLE their IEEE bits little-endian (4 and 8 bytes), DECIMAL the
// minimal big-endian two's complement of its unscaled value, STRING/CHAR their
// UTF-8 bytes and BINARY/BYTES their bytes, with no length.
func appendIcebergValue(dst []byte, t *types.DataType, v any) ([]byte, error) {
	le := binary.LittleEndian
	bad := func(want string) error { return codec.TypeError(t, want, v) }
	switch t.Kind {
	case types.Int:
		x, ok := v.(int32)
		if !ok {
			return dst, bad("int32")
		}
		return le.AppendUint64(dst, uint64(int64(x))), nil
	case types.Date:
		x, ok := v.(Date)
		if !ok {
			return dst, bad("datum.Date")
		}
		return le.AppendUint64(dst, uint64(int64(x))), nil
	case types.Time:
		x, ok := v.(Time)
		if !ok {
			return dst, bad("datum.Time")
		}
		return le.AppendUint64(dst, uint64(int64(x)*1000)), nil
	case types.BigInt:
		x, ok := v.(int64)
		if !ok {
			return dst, bad("int64")
		}
		return le.AppendUint64(dst, uint64(x)), nil
	case types.Float:
		x, ok := v.(float32)
		if !ok {
			return dst, bad("float32")
		}
		return le.AppendUint32(dst, math.Float32bits(x)), nil
	case types.Double:
		x, ok := v.(float64)
		if !ok {
			return dst, bad("float64")
		}
		return le.AppendUint64(dst, math.Float64bits(x)), nil
	case types.Timestamp:
		x, ok := v.(TimestampNTZ)
		if !ok {
			return dst, bad("datum.TimestampNTZ")
		}
		if err := codec.CheckNanoOfMilli(x.NanoOfMilli); err != nil {
			return dst, err
		}
		return le.AppendUint64(dst, uint64(x.Millis*1000+int64(x.NanoOfMilli/1000))), nil
	case types.Decimal:
		x, ok := v.(Decimal)
		if !ok {
			return dst, bad("datum.Decimal")
		}
		d, err := codec.FitDecimal(x, t.Precision, t.Scale)
		if err != nil {
			return dst, err
		}
		return codec.AppendTwosComplement(dst, d), nil
	case types.String, types.Char:
		x, ok := v.(string)
		if !ok {
			return dst, bad("string")
		}
		return append(dst, x...), nil
	case types.Binary, types.Bytes:
		x, ok := v.([]byte)
		if !ok {
			return dst, bad("[]byte")
		}
		return append(dst, x...), nil
	}
	return dst, fmt.Errorf("%w: %s in an iceberg key", ErrUnsupportedType, t)
}
