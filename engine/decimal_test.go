package engine

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// randomUnscaled is a random unscaled value of DECIMAL(p, ·): often one of
// the edges (0, ±1, ±(10^p - 1), ±5·10^k for rounding ties), else up to p
// random digits, either sign.
func randomUnscaled(rng *rand.Rand, p int) decimal128.Num {
	var v *big.Int
	switch rng.IntN(8) {
	case 0:
		v = big.NewInt(0)
	case 1:
		v = big.NewInt(1)
	case 2:
		v = new(big.Int).Sub(pow10(p), big.NewInt(1))
	case 3:
		v = new(big.Int).Mul(big.NewInt(5), pow10(rng.IntN(p)))
	default:
		digits := make([]byte, 1+rng.IntN(p))
		for i := range digits {
			digits[i] = byte('0' + rng.IntN(10))
		}
		v, _ = new(big.Int).SetString(string(digits), 10)
	}
	if rng.IntN(2) == 0 {
		v.Neg(v)
	}
	return decimal128.FromBigInt(v)
}

func randomDecimalType(rng *rand.Rand) types.DataType {
	var p int
	switch rng.IntN(3) {
	case 0:
		p = 1 + rng.IntN(18) // fits int64
	case 1:
		p = 15
	default:
		p = 1 + rng.IntN(maxDecimalDigits)
	}
	return types.NewDecimal(p, rng.IntN(p+1))
}

// TestDecimalFixedPointMatchesBig compares the 128-bit kernel with the
// big-number one on random operands of random types: wherever the fixed
// point gives an answer, it is the big-number answer, and for operands of
// at most 18 digits + - * always have one unless the result overflows.
func TestDecimalFixedPointMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	fast, slow := 0, 0
	for range 200000 {
		lt, rt := randomDecimalType(rng), randomDecimalType(rng)
		op := string("+-*/%"[rng.IntN(5)])
		e := must(NewBinary(op, col(0, "x", lt), col(1, "y", rt))).(*Binary)
		d := decimalOp{op: op[0], s1: lt.Scale, s2: rt.Scale, s: e.T.Scale, p: e.T.Precision}
		x, y := randomUnscaled(rng, lt.Precision), randomUnscaled(rng, rt.Precision)
		want, werr := e.bigDecimal(x, y)
		got, ok := d.fast(x, y)
		desc := fmt.Sprintf("%s %s %s = %s: %s %s %s", TypeName(lt), op, TypeName(rt), TypeName(e.T), x.ToString(int32(lt.Scale)), op, y.ToString(int32(rt.Scale)))
		if !ok {
			slow++
			if werr == nil && lt.Precision <= 18 && rt.Precision <= 18 && op != "/" && op != "%" {
				t.Fatalf("%s: the fixed point gave up on %s", desc, want.ToString(int32(e.T.Scale)))
			}
			continue
		}
		fast++
		require.NoError(t, werr, desc)
		require.Equal(t, want, got, "%s: want %s, got %s", desc, want.ToString(int32(e.T.Scale)), got.ToString(int32(e.T.Scale)))
	}
	t.Logf("fixed point %d, big numbers %d", fast, slow)
	assert.Greater(t, fast, slow, "most operations are done in fixed point")
}

// evalDecimal evaluates op over two columns of the given types, the rows
// given as text at scale 2 ("" is NULL), and renders the results.
func evalDecimal(t *testing.T, op string, lt, rt types.DataType, rows [][2]string) ([]string, types.DataType, error) {
	t.Helper()
	cols := []Column{{"x", lt}, {"y", rt}}
	e, err := NewBinary(op, col(0, "x", lt), col(1, "y", rt))
	require.NoError(t, err)
	in := make([][]any, len(rows))
	for i, r := range rows {
		in[i] = []any{parseDec(t, r[0], lt.Scale), parseDec(t, r[1], rt.Scale)}
	}
	out, err := run(t, &Project{Input: &Input{Cols: cols}, Exprs: []Expr{e}, Names: []string{"z"}}, in, 3, nil)
	if err != nil {
		return nil, e.Type(), err
	}
	got := make([]string, len(out))
	for i, r := range out {
		if r[0] != nil {
			got[i] = r[0].(decimal128.Num).ToString(int32(e.Type().Scale))
		}
	}
	return got, e.Type(), nil
}

func parseDec(t *testing.T, s string, scale int) any {
	if s == "" {
		return nil
	}
	n, err := decimal128.FromString(s, 38, int32(scale))
	require.NoError(t, err)
	return n
}

// TestDecimalArithmeticEdges pins result types, rounding half away from
// zero, NULLs and overflow errors at the edges, through the batch kernel
// (rows the fixed point cannot do take the big-number path in between).
func TestDecimalArithmeticEdges(t *testing.T) {
	d := types.NewDecimal
	max38 := "99999999999999999999999999999999999999"
	for _, tc := range []struct {
		name     string
		op       string
		lt, rt   types.DataType
		rows     [][2]string
		wantType string
		want     []string
		err      string
	}{
		{"TPC-H price times discount", "*", d(15, 2), d(15, 2), [][2]string{{"104949.50", "0.96"}, {"-0.01", "0.01"}, {"", "1"}, {"9999999999999.99", "9999999999999.99"}},
			"DECIMAL(31, 4)", []string{"100751.5200", "-0.0001", "", "99999999999999800000000000.0001"}, ""},
		{"sum type keeps the larger scale", "+", d(10, 2), d(5, 3), [][2]string{{"0.01", "0.001"}, {"-99999999.99", "-99.999"}, {"", ""}},
			"DECIMAL(12, 3)", []string{"0.011", "-100000099.989", ""}, ""},
		{"division rounds half away from zero", "/", d(10, 2), d(10, 2), [][2]string{{"2.00", "3.00"}, {"-2.00", "3.00"}, {"1.00", "-8.00"}, {"0.00", "7.00"}},
			"DECIMAL(23, 13)", []string{"0.6666666666667", "-0.6666666666667", "-0.1250000000000", "0.0000000000000"}, ""},
		{"capped scale rounds each operand", "+", d(38, 10), d(38, 10), [][2]string{{"0.0000000005", "0.0000000005"}, {"-0.0000000005", "0.0000000004"}},
			"DECIMAL(38, 9)", []string{"0.000000002", "-0.000000001"}, ""},
		{"38 digits", "-", d(38, 0), d(38, 0), [][2]string{{max38, "1"}, {"-" + max38, "-" + max38}},
			"DECIMAL(38, 0)", []string{"99999999999999999999999999999999999998", "0"}, ""},
		{"38 digits overflow", "+", d(38, 0), d(38, 0), [][2]string{{"1", "2"}, {max38, "1"}},
			"DECIMAL(38, 0)", nil, "(x + y) overflows DECIMAL(38, 0)"},
		{"product beyond 128 bits", "*", d(38, 0), d(38, 0), [][2]string{{"2", "3"}, {max38, max38}},
			"DECIMAL(38, 0)", nil, "(x * y) overflows DECIMAL(38, 0)"},
		{"division by zero", "/", d(15, 2), d(15, 2), [][2]string{{"1.00", "2.00"}, {"1.00", "0.00"}},
			"DECIMAL(33, 18)", nil, "division by zero in (x / y)"},
		{"NULL divisor is NULL, not an error", "/", d(15, 2), d(15, 2), [][2]string{{"1.00", ""}},
			"DECIMAL(33, 18)", []string{""}, ""},
		{"modulo keeps the dividend's sign", "%", d(10, 2), d(10, 2), [][2]string{{"-7.50", "2.00"}, {"7.50", "-2.00"}},
			"DECIMAL(10, 2)", []string{"-1.50", "1.50"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, typ, err := evalDecimal(t, tc.op, tc.lt, tc.rt, tc.rows)
			assert.Equal(t, tc.wantType, TypeName(typ.AsNullable()))
			if tc.err != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrArithmetic)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestDecimalWholeColumnMatchesBig compares the check-free column kernels
// (exact64) with the big-number path on random columns of random types of
// at most 18 digits.
func TestDecimalWholeColumnMatchesBig(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 4))
	used := 0
	for range 3000 {
		p1, p2 := 1+rng.IntN(18), 1+rng.IntN(18)
		lt, rt := types.NewDecimal(p1, rng.IntN(p1+1)), types.NewDecimal(p2, rng.IntN(p2+1))
		op := string("+-*"[rng.IntN(3)])
		e := must(NewBinary(op, col(0, "x", lt), col(1, "y", rt))).(*Binary)
		d := decimalOp{op: op[0], s1: lt.Scale, s2: rt.Scale, s: e.T.Scale, p: e.T.Precision}
		xs, ys := make([]decimal128.Num, 64), make([]decimal128.Num, 64)
		for i := range xs {
			xs[i], ys[i] = randomUnscaled(rng, p1), randomUnscaled(rng, p2)
		}
		out := make([]decimal128.Num, len(xs))
		if !d.exact64(p1, p2, xs, ys, out) {
			continue
		}
		used++
		for i := range xs {
			want, err := e.bigDecimal(xs[i], ys[i])
			require.NoError(t, err, "%s %s %s", TypeName(lt), op, TypeName(rt))
			require.Equal(t, want, out[i], "%s %s %s = %s: %s %s %s", TypeName(lt), op, TypeName(rt), TypeName(e.T),
				xs[i].ToString(int32(lt.Scale)), op, ys[i].ToString(int32(rt.Scale)))
		}
	}
	assert.Greater(t, used, 1500, "most such operations take the column kernel")
}

func TestDecimalNegate(t *testing.T) {
	lt := types.NewDecimal(38, 2)
	cols := []Column{{"x", lt}}
	max38 := "999999999999999999999999999999999999.99"
	in := [][]any{{parseDec(t, "1.25", 2)}, {nil}, {parseDec(t, "-"+max38, 2)}, {parseDec(t, "0", 2)}}
	out, err := run(t, &Project{Input: &Input{Cols: cols}, Exprs: []Expr{must(NewNeg(col(0, "x", lt)))}, Names: []string{"n"}}, in, 3, nil)
	require.NoError(t, err)
	var got []any
	for _, r := range out {
		if r[0] == nil {
			got = append(got, nil)
			continue
		}
		got = append(got, r[0].(decimal128.Num).ToString(2))
	}
	assert.Equal(t, []any{"-1.25", nil, max38, "0.00"}, got)
}
