package row

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// MaxCompactPrecision is the largest DECIMAL precision whose unscaled value Fluss
// stores as a 64-bit integer; larger precisions are stored as bytes.
const MaxCompactPrecision = 18

// fitDecimal checks v against DECIMAL(p,s) and returns it at scale s.
func fitDecimal(v Decimal, precision, scale int) (Decimal, error) {
	d, err := v.Rescale(scale)
	if err != nil {
		return Decimal{}, err
	}
	if d.Precision() > precision {
		return Decimal{}, fmt.Errorf("row: decimal %s does not fit DECIMAL(%d, %d)", v, precision, scale)
	}
	return d, nil
}

// checkedDecimal rejects a decoded value with more digits than its column allows.
func checkedDecimal(d Decimal, t *types.DataType) (any, error) {
	if d.Precision() > t.Precision {
		return nil, fmt.Errorf("row: decimal %s exceeds %s", d, t)
	}
	return d, nil
}

// appendTwosComplement appends the minimal big-endian two's-complement encoding of
// d's unscaled value, as Java's BigInteger.toByteArray produces it.
func appendTwosComplement(dst []byte, d Decimal) []byte {
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

// decimalFromTwosComplement is the inverse of appendTwosComplement.
func decimalFromTwosComplement(b []byte, scale int) (Decimal, error) {
	if len(b) == 0 {
		return Decimal{}, errors.New("row: empty decimal bytes")
	}
	u := new(big.Int).SetBytes(b)
	if b[0]&0x80 != 0 {
		u.Sub(u, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return datum.NewDecimalFromBig(u, scale), nil
}
