package engine

import (
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func bitmapBytes(t *testing.T, vals ...uint32) []byte {
	t.Helper()
	b, err := roaring.BitmapOf(vals...).ToBytes()
	require.NoError(t, err)
	return b
}

func bitmapOf(t *testing.T, v any) []uint32 {
	t.Helper()
	if v == nil {
		return nil
	}
	b := roaring.New()
	_, err := b.FromBuffer(v.([]byte))
	require.NoError(t, err)
	return b.ToArray()
}

// TestBitmapAggregates feeds each _AGG its non-NULL inputs (the aggregation skips NULLs) and
// checks the NULL rules of Fluss's documentation.
func TestBitmapAggregates(t *testing.T) {
	b12, b23, empty := bitmapBytes(t, 1, 2), bitmapBytes(t, 2, 3), bitmapBytes(t)
	for _, tc := range []struct {
		fn   string
		in   []any
		want []uint32
		null bool
	}{
		{"RB_BUILD_AGG", []any{int64(3), int64(1), int64(3), int64(-1)}, []uint32{1, 3, 0xffffffff}, false},
		{"RB_BUILD_AGG", nil, nil, true},
		{"RB_OR_AGG", []any{b12, empty, b23}, []uint32{1, 2, 3}, false},
		{"RB_OR_AGG", []any{empty}, nil, true},
		{"RB_AND_AGG", []any{b12, empty, b23}, []uint32{2}, false},
		{"RB_AND_AGG", []any{bitmapBytes(t, 1), bitmapBytes(t, 2)}, nil, true},
		{"RB_XOR_AGG", []any{b12, b23}, []uint32{1, 3}, false},
		{"RB_XOR_AGG", []any{b12, b12}, []uint32{}, false},
		{"RB_XOR_AGG", nil, nil, true},
	} {
		d := LookupFunction(tc.fn)
		require.NotNil(t, d)
		s := d.AggState(&Agg{Func: tc.fn})
		for _, v := range tc.in {
			require.NoError(t, s.add(v))
		}
		got, err := s.result()
		require.NoError(t, err)
		if tc.null {
			assert.Nil(t, got, "%s%v", tc.fn, tc.in)
			continue
		}
		require.NotNil(t, got, "%s%v", tc.fn, tc.in)
		assert.Equal(t, tc.want, append([]uint32{}, bitmapOf(t, got)...), "%s%v", tc.fn, tc.in)
	}
	s := LookupFunction("RB_OR_AGG").AggState(&Agg{Func: "RB_OR_AGG"})
	assert.ErrorContains(t, s.add([]byte("not a bitmap")), "RB_OR_AGG: 12 bytes that are not a serialized 32-bit RoaringBitmap")
}

// TestBitmapFormat pins the portable serialization of a small bitmap (the RB_CARDINALITY
// example of the registry): cookie 12346, one array container of key 0 holding 1, 2, 3.
func TestBitmapFormat(t *testing.T) {
	assert.Equal(t, "3a300000010000000000020010000000010002000300", hexOf(bitmapBytes(t, 1, 2, 3)))
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}
