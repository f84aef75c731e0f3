package codec_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/types"
)

// samples holds, per scalar kind, a type and a value that every encoding (Arrow
// included) round-trips unchanged. A new scalar kind needs an entry here.
var samples = map[types.Kind][]struct {
	t types.DataType
	v any
}{
	types.Boolean:      {{types.NewBoolean(), true}},
	types.TinyInt:      {{types.NewTinyInt(), int8(-7)}},
	types.SmallInt:     {{types.NewSmallInt(), int16(-300)}},
	types.Int:          {{types.NewInt(), int32(-70000)}},
	types.BigInt:       {{types.NewBigInt(), int64(-1) << 40}},
	types.Float:        {{types.NewFloat(), float32(1.5)}},
	types.Double:       {{types.NewDouble(), -2.25}},
	types.Decimal:      {{types.NewDecimal(10, 2), datum.NewDecimal(-12345, 2)}, {types.NewDecimal(30, 3), datum.NewDecimal(-1234567890123, 3)}},
	types.Char:         {{types.NewChar(5), "ab"}},
	types.String:       {{types.NewString(), "a longer string"}, {types.NewString(), "short"}},
	types.Binary:       {{types.NewBinary(3), []byte{1, 2, 3}}},
	types.Bytes:        {{types.NewBytes(), []byte("some bytes")}},
	types.Date:         {{types.NewDate(), datum.Date(19000)}},
	types.Time:         {{types.NewTime(3), datum.Time(45296789)}, {types.NewTime(0), datum.Time(45296000)}},
	types.Timestamp:    {{types.NewTimestamp(6), datum.TimestampNTZ{Millis: 1700000000123, NanoOfMilli: 456000}}, {types.NewTimestamp(3), datum.TimestampNTZ{Millis: -5}}},
	types.TimestampLTZ: {{types.NewTimestampLTZ(9), datum.TimestampLTZ{EpochMillis: 1700000000123, NanoOfMilli: 456789}}},
}

// scalarKinds lists every non-nested kind of package types.
func scalarKinds() []types.Kind {
	var out []types.Kind
	for _, k := range types.Kinds() {
		if !k.Nested() {
			out = append(out, k)
		}
	}
	return out
}

// TestEveryScalarKindHasACodec fails when a kind of package types has no codec, a
// codec misses a mandatory part, or a kind has no sample in the table above.
func TestEveryScalarKindHasACodec(t *testing.T) {
	require.NotEmpty(t, scalarKinds())
	for _, k := range scalarKinds() {
		c := codec.For(k)
		require.NotNil(t, c, "no codec for %s: add one (see the package doc)", k)
		assert.Equal(t, k, c.Kind)
		assert.NotEmpty(t, c.GoType, k)
		assert.NotNil(t, c.Check, "%s Check", k)
		assert.NotNil(t, c.AppendCompacted, "%s AppendCompacted", k)
		assert.NotNil(t, c.ReadCompacted, "%s ReadCompacted", k)
		assert.NotNil(t, c.IndexedSize, "%s IndexedSize", k)
		assert.NotNil(t, c.AppendIndexed, "%s AppendIndexed", k)
		assert.NotNil(t, c.ReadIndexed, "%s ReadIndexed", k)
		assert.Contains(t, []int{1, 2, 4, 8}, c.ArraySlot, "%s ArraySlot", k)
		assert.NotNil(t, c.AppendArray, "%s AppendArray", k)
		assert.NotNil(t, c.ReadArray, "%s ReadArray", k)
		assert.NotNil(t, c.Arrow, "%s Arrow", k)
		assert.NotNil(t, c.IndexedToArrow, "%s IndexedToArrow", k)
		assert.Equal(t, c.StatsCompute == nil, c.StatsPut == nil, "%s: statistics need all three functions", k)
		assert.Equal(t, c.StatsCompute == nil, c.StatsGet == nil, "%s: statistics need all three functions", k)
		assert.NotEmpty(t, samples[k], "no sample value for %s in the test table", k)
	}
	for _, k := range []types.Kind{types.Array, types.Map, types.Row, types.Kind(99), types.Kind(-1)} {
		assert.Nil(t, codec.For(k), k)
	}
}

func TestRoundTrips(t *testing.T) {
	for _, k := range scalarKinds() {
		c := codec.For(k)
		for _, s := range samples[k] {
			t.Run(s.t.String(), func(t *testing.T) {
				typ := s.t
				require.NoError(t, c.Check(&typ, true))

				b, err := c.AppendCompacted([]byte{0xee}, &typ, s.v)
				require.NoError(t, err)
				got, n, err := c.ReadCompacted(b[1:], &typ)
				require.NoError(t, err)
				assert.Equal(t, s.v, got, "compacted")
				assert.Equal(t, len(b)-1, n, "compacted length")
				for cut := range n { // every shorter input is truncated
					_, _, err := c.ReadCompacted(b[1:1+cut], &typ)
					assert.Error(t, err, "compacted, %d of %d bytes", cut, n)
				}

				b, err = c.AppendIndexed(nil, &typ, s.v)
				require.NoError(t, err)
				if n := c.IndexedSize(&typ); n >= 0 {
					assert.Len(t, b, n, "indexed fixed size")
				}
				got, err = c.ReadIndexed(b, &typ)
				require.NoError(t, err)
				assert.Equal(t, s.v, got, "indexed")

				// one-element BinaryArray body: the slot, then any region
				arr := make([]byte, 8)
				arr, err = c.AppendArray(arr, 0, 0, &typ, s.v)
				require.NoError(t, err)
				ar := codec.ArrayReader{B: arr, Next: 8}
				got, _, err = c.ReadArray(ar, 0, &typ)
				require.NoError(t, err)
				assert.Equal(t, s.v, got, "array element")

				col, err := c.Arrow(typ)
				require.NoError(t, err)
				_, err = col.Check(s.v)
				require.NoError(t, err)
				at, err := types.ArrowType(typ)
				require.NoError(t, err)
				bl := array.NewBuilder(memory.DefaultAllocator, at)
				defer bl.Release()
				col.Put(bl, s.v)
				bl.AppendNull()
				require.NoError(t, c.IndexedToArrow(bl, &typ, b))
				a := bl.NewArray()
				defer a.Release()
				assert.Equal(t, s.v, col.Get(a, 0), "arrow")
				assert.Equal(t, s.v, col.Get(a, 2), "indexed to arrow")

				if c.StatsCompute != nil {
					lo, hi, err := c.StatsCompute(a, &typ)
					require.NoError(t, err)
					require.NotNil(t, lo)
					assert.Equal(t, lo, hi)
					row := make([]byte, 16)
					row, ok := c.StatsPut(row, 8, lo)
					require.True(t, ok)
					got, err := c.StatsGet(row, 8)
					require.NoError(t, err)
					assert.Equal(t, lo, got, "statistics")
				}
				if c.Partition != nil {
					p, err := c.Partition(&typ, s.v)
					require.NoError(t, err)
					assert.NotEmpty(t, p)
				}
				if c.Literal != nil {
					lit, err := c.Literal(&typ, s.v)
					require.NoError(t, err)
					assert.False(t, lit.GetIsNull())
				}
			})
		}
	}
}

func TestWrongGoType(t *testing.T) {
	for _, k := range scalarKinds() {
		c := codec.For(k)
		typ := samples[k][0].t
		wrong := any(struct{}{})
		_, err := c.AppendCompacted(nil, &typ, wrong)
		assert.ErrorContains(t, err, "value must be "+c.GoType, k)
		_, err = c.AppendIndexed(nil, &typ, wrong)
		assert.ErrorContains(t, err, "value must be "+c.GoType, k)
		_, err = c.AppendArray(make([]byte, 8), 0, 0, &typ, wrong)
		assert.ErrorContains(t, err, "value must be "+c.GoType, k)
		col, err := c.Arrow(typ)
		require.NoError(t, err)
		_, err = col.Check(wrong)
		assert.ErrorContains(t, err, "takes "+c.GoType, k)
		if c.Partition != nil {
			_, err = c.Partition(&typ, wrong)
			assert.ErrorContains(t, err, "partition value must be "+c.GoType, k)
		}
	}
}
