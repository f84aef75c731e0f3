package codec

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// DECIMAL(p, s) (datum.Decimal). With p <= 18 the unscaled value is an int64
// (varint64 in CompactedRow, 8 bytes LE in IndexedRow and BinaryArray slots); larger
// precisions store Java's BigInteger.toByteArray bytes (length-prefixed in
// CompactedRow, variable-length in IndexedRow, a zeroed 16-byte region in
// BinaryArray). Arrow: Decimal128(p, s).

func init() { register(decimalCodec) }

// MaxCompactPrecision is the largest DECIMAL precision whose unscaled value Fluss
// stores as a 64-bit integer; larger precisions are stored as bytes.
const MaxCompactPrecision = 18

// FitDecimal checks v against DECIMAL(p,s) and returns it at scale s.
func FitDecimal(v datum.Decimal, precision, scale int) (datum.Decimal, error) {
	d, err := v.Rescale(scale)
	if err != nil {
		return datum.Decimal{}, err
	}
	if d.Precision() > precision {
		return datum.Decimal{}, fmt.Errorf("row: decimal %s does not fit DECIMAL(%d, %d)", v, precision, scale)
	}
	return d, nil
}

// checkedDecimal rejects a decoded value with more digits than its column allows.
func checkedDecimal(d datum.Decimal, t *types.DataType) (any, error) {
	if d.Precision() > t.Precision {
		return nil, fmt.Errorf("row: decimal %s exceeds %s", d, t)
	}
	return d, nil
}

// AppendTwosComplement appends the minimal big-endian two's-complement encoding of
// d's unscaled value, as Java's BigInteger.toByteArray produces it.
func AppendTwosComplement(dst []byte, d datum.Decimal) []byte {
	u := d.Unscaled()
	var bitLen int
	if u.Sign() >= 0 {
		bitLen = u.BitLen()
	} else {
		bitLen = new(big.Int).Not(u).BitLen() // bit length of -u-1
	}
	n := bitLen/8 + 1
	if u.Sign() < 0 {
		// 2^(8n) + u is the unsigned image of the two's-complement value.
		u.Add(u, new(big.Int).Lsh(big.NewInt(1), uint(8*n)))
	}
	start := len(dst)
	dst = append(dst, make([]byte, n)...)
	u.FillBytes(dst[start:])
	return dst
}

// DecimalFromTwosComplement is the inverse of AppendTwosComplement.
func DecimalFromTwosComplement(b []byte, scale int) (datum.Decimal, error) {
	if len(b) == 0 {
		return datum.Decimal{}, errors.New("row: empty decimal bytes")
	}
	u := new(big.Int).SetBytes(b)
	if b[0]&0x80 != 0 {
		u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return datum.NewDecimalFromBig(u, scale), nil
}

func fitDecimalValue(t *types.DataType, v any) (datum.Decimal, error) {
	d, ok := v.(datum.Decimal)
	if !ok {
		return datum.Decimal{}, TypeError(t, "datum.Decimal", v)
	}
	return FitDecimal(d, t.Precision, t.Scale)
}

func readBigDecimal(b []byte, t *types.DataType) (any, error) {
	d, err := DecimalFromTwosComplement(b, t.Scale)
	if err != nil {
		return nil, err
	}
	return checkedDecimal(d, t)
}

var decimalCodec = &Codec{
	Kind: types.Decimal, GoType: "datum.Decimal",
	Check: func(t *types.DataType, _ bool) error {
		if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
			return fmt.Errorf("row: invalid %s", t)
		}
		return nil
	},
	AppendCompacted: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		d, err := fitDecimalValue(t, v)
		if err != nil {
			return dst, err
		}
		if t.Precision <= MaxCompactPrecision {
			u, _ := d.UnscaledInt64() // 18 digits always fit
			return AppendVarint64(dst, u), nil
		}
		n := len(dst)
		dst = append(dst, 0) // placeholder for the (1-byte, as 17 bytes suffice) length
		dst = AppendTwosComplement(dst, d)
		dst[n] = byte(len(dst) - n - 1)
		return dst, nil
	},
	ReadCompacted: func(b []byte, t *types.DataType) (any, int, error) {
		if t.Precision <= MaxCompactPrecision {
			u, n, err := Varint64(b)
			if err != nil {
				return nil, 0, err
			}
			v, err := checkedDecimal(datum.NewDecimal(u, t.Scale), t)
			return v, n, err
		}
		raw, n, err := LengthPrefixed(b)
		if err != nil {
			return nil, 0, err
		}
		v, err := readBigDecimal(raw, t)
		return v, n, err
	},
	IndexedSize: func(t *types.DataType) int {
		if t.Precision <= MaxCompactPrecision {
			return 8
		}
		return -1
	},
	AppendIndexed: func(dst []byte, t *types.DataType, v any) ([]byte, error) {
		d, err := fitDecimalValue(t, v)
		if err != nil {
			return dst, err
		}
		if t.Precision <= MaxCompactPrecision {
			u, _ := d.UnscaledInt64()
			return le.AppendUint64(dst, uint64(u)), nil
		}
		return AppendTwosComplement(dst, d), nil
	},
	ReadIndexed: func(b []byte, t *types.DataType) (any, error) {
		if t.Precision <= MaxCompactPrecision {
			return checkedDecimal(datum.NewDecimal(int64(le.Uint64(b)), t.Scale), t)
		}
		return readBigDecimal(b, t)
	},
	ArraySlot: 8,
	AppendArray: func(dst []byte, base, pos int, t *types.DataType, v any) ([]byte, error) {
		d, err := fitDecimalValue(t, v)
		if err != nil {
			return dst, err
		}
		if t.Precision <= MaxCompactPrecision {
			u, _ := d.UnscaledInt64()
			le.PutUint64(dst[pos:], uint64(u))
			return dst, nil
		}
		// like AbstractBinaryWriter.writeDecimal: a zeroed 16-byte region, the bytes at its start
		off := len(dst) - base
		dst = AppendTwosComplement(dst, d)
		size := len(dst) - base - off
		dst = append(dst, make([]byte, 16-size)...) // p <= 38 needs at most 16 bytes
		le.PutUint64(dst[pos:], uint64(off)<<32|uint64(size))
		return dst, nil
	},
	ReadArray: func(a ArrayReader, pos int, t *types.DataType) (any, int, error) {
		if t.Precision <= MaxCompactPrecision {
			v, err := checkedDecimal(datum.NewDecimal(int64(a.U64(pos)), t.Scale), t)
			return v, a.Next, err
		}
		raw, err := a.OffsetAndSize(pos)
		if err != nil {
			return nil, 0, err
		}
		v, err := readBigDecimal(raw, t)
		return v, a.Next, err
	},
	Arrow: decimalArrow,
	IndexedToArrow: func(bl array.Builder, t *types.DataType, b []byte) error {
		n, err := indexedDecimal(t, b)
		if err != nil {
			return err
		}
		bl.(*array.Decimal128Builder).Append(n)
		return nil
	},
}

// indexedDecimal reads an IndexedRow DECIMAL as a decimal128.Num (no precision check).
func indexedDecimal(t *types.DataType, v []byte) (decimal128.Num, error) {
	if t.Precision <= MaxCompactPrecision {
		return decimal128.FromI64(int64(le.Uint64(v))), nil
	}
	if len(v) == 0 || len(v) > 16 {
		return decimal128.Num{}, fmt.Errorf("decimal of %d bytes", len(v))
	}
	n := new(big.Int).SetBytes(v)
	if v[0]&0x80 != 0 { // negative: subtract 2^(8*len)
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(8*len(v))))
	}
	return decimal128.FromBigInt(n), nil
}

func decimalArrow(t types.DataType) (ArrowColumn, error) {
	if t.Precision < 1 || t.Precision > 38 || t.Scale < 0 || t.Scale > t.Precision {
		return ArrowColumn{}, fmt.Errorf("invalid %s", t)
	}
	fit := func(v any) (datum.Decimal, error) {
		d, ok := v.(datum.Decimal)
		if !ok {
			return datum.Decimal{}, badArrowValue(t, "datum.Decimal", v)
		}
		r, err := d.Rescale(t.Scale)
		if err != nil {
			return datum.Decimal{}, err
		}
		if r.Precision() > t.Precision {
			return datum.Decimal{}, fmt.Errorf("decimal %s does not fit %s", d, t)
		}
		return r, nil
	}
	return ArrowColumn{
		Check: func(v any) (int, error) {
			_, err := fit(v)
			return 16, err
		},
		Put: func(b array.Builder, v any) {
			d, _ := fit(v)
			b.(*array.Decimal128Builder).Append(decimalToNum(d))
		},
		Get: func(a arrow.Array, i int) any {
			n := a.(*array.Decimal128).Value(i)
			if n.HighBits() == 0 && n.LowBits() <= 1<<63-1 || n.HighBits() == -1 && n.LowBits() >= 1<<63 {
				return datum.NewDecimal(int64(n.LowBits()), t.Scale)
			}
			return datum.NewDecimalFromBig(n.BigInt(), t.Scale)
		},
	}, nil
}

func decimalToNum(d datum.Decimal) decimal128.Num {
	if u, ok := d.UnscaledInt64(); ok {
		return decimal128.FromI64(u)
	}
	return decimal128.FromBigInt(d.Unscaled())
}
