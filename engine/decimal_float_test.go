package engine

import (
	"context"
	"math/big"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestDecimalToFloat64(t *testing.T) {
	for _, c := range []struct {
		unscaled string
		scale    int
		want     float64
	}{
		{"10010", 2, 100.1}, // Arrow's cast gave 100.10000000000001
		{"-10010", 2, -100.1},
		{"1", 1, 0.1},
		{"0", 5, 0},
		{"123456789012345678", 2, 1234567890123456.78}, // beyond 2^53: through the text
		{"-99999999999999999999999999999999999999", 10, -9999999999999999999999999999.9999999999},
		{"3", 30, 3e-30}, // scale beyond the exact powers of ten
		{"9007199254740993", 0, 9007199254740992},
		{"7", -2, 700},
	} {
		bi, _ := new(big.Int).SetString(c.unscaled, 10)
		got := decimalToFloat64(decimal128.FromBigInt(bi), c.scale)
		assert.Equal(t, c.want, got, "%se-%d", c.unscaled, c.scale)
		want, _ := strconv.ParseFloat(decimal128.FromBigInt(bi).ToString(int32(c.scale)), 64)
		assert.Equal(t, want, got, "%se-%d: the nearest double", c.unscaled, c.scale)
	}
}

func TestCastDecimalToDouble(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	ec := &evalCtx{ctx: context.Background(), mem: mem}
	b := array.NewDecimal128Builder(mem, &arrow.Decimal128Type{Precision: 5, Scale: 2})
	defer b.Release()
	b.Append(decimal128.FromI64(10010))
	b.AppendNull()
	b.Append(decimal128.FromI64(-1))
	in := b.NewArray()
	defer in.Release()
	for _, typ := range []types.DataType{types.NewDouble(), types.NewFloat()} {
		out, err := castArray(ec, in, typ)
		require.NoError(t, err)
		assert.Equal(t, "100.1", render(out, 0), "CAST(100.10 AS %s), as Flink", TypeName(typ))
		assert.True(t, out.IsNull(1))
		assert.Equal(t, "-0.01", render(out, 2))
		out.Release()
	}
}
