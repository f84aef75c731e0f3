package row_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

// fuzzTypes covers every scalar type plus a nested ROW, a NOT NULL column, and ARRAY
// and MAP columns whose elements use every kind of array slot.
func fuzzTypes() []types.DataType {
	rowAB := types.NewRow(types.Field{Name: "a", Type: types.NewInt()}, types.Field{Name: "b", Type: types.NewString()})
	return []types.DataType{
		types.NewBoolean(), types.NewTinyInt(), types.NewSmallInt(), types.NewInt().AsNotNull(), types.NewBigInt(),
		types.NewFloat(), types.NewDouble(), types.NewDecimal(10, 2), types.NewDecimal(38, 6), types.NewChar(4),
		types.NewString(), types.NewBinary(3), types.NewBytes(), types.NewDate(), types.NewTime(3),
		types.NewTimestamp(3), types.NewTimestamp(9), types.NewTimestampLTZ(0), types.NewTimestampLTZ(6),
		types.NewRow(types.Field{Name: "x", Type: types.NewInt()},
			types.Field{Name: "r", Type: types.NewRow(types.Field{Name: "s", Type: types.NewString()})}),
		types.NewArray(types.NewInt()), types.NewArray(types.NewString()), types.NewArray(types.NewBoolean()),
		types.NewArray(types.NewDecimal(30, 5)), types.NewArray(types.NewTimestamp(6)),
		types.NewArray(types.NewArray(types.NewBigInt())), types.NewArray(rowAB),
		types.NewMap(types.NewString(), types.NewArray(types.NewSmallInt())),
	}
}

func addRowSeeds(f *testing.F, pick func(compacted, indexed string) string) {
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff, 0xff})
	v, err := javavectors.Load()
	require.NoError(f, err)
	for _, rc := range v.Rows {
		f.Add(javavectors.Hex(pick(rc.Compacted, rc.Indexed)))
	}
	// rows of the fuzz schema itself, so that mutations start from valid input
	full := []any{
		true, int8(-3), int16(300), int32(-70000), int64(1) << 40, float32(1.5), -2.5,
		datum.NewDecimal(-12345, 2), datum.NewDecimal(987654321, 6), "ab", "héllo", []byte{1, 0, 2},
		[]byte{0xde, 0xad}, datum.Date(19000), datum.Time(3600000), datum.TimestampNTZ{Millis: -5},
		datum.TimestampNTZ{Millis: 1700000000000, NanoOfMilli: 999}, datum.TimestampLTZ{EpochMillis: 1},
		datum.TimestampLTZ{EpochMillis: 2, NanoOfMilli: 3000}, []any{int32(7), []any{"in"}},
		[]any{int32(1), nil, int32(-3)}, []any{"", "seven77", "eight888", nil}, []any{true, nil, false},
		[]any{datum.NewDecimal(-123456789, 5), nil}, []any{datum.TimestampNTZ{Millis: 1, NanoOfMilli: 2}, nil},
		[]any{[]any{int64(1)}, nil, []any{}}, []any{[]any{int32(1), "a string longer than 7"}, nil},
		[]datum.MapEntry{{Key: "k", Value: []any{int16(1), nil}}, {Key: "key number two", Value: nil}},
	}
	sparse := make([]any, len(full))
	sparse[3], sparse[10], sparse[19] = int32(1), "", []any{nil, nil}
	sparse[20], sparse[25], sparse[27] = []any{}, []any{nil}, []datum.MapEntry{}
	for _, format := range []row.Format{row.Compacted, row.Indexed} {
		if pick("c", "i") != map[row.Format]string{row.Compacted: "c", row.Indexed: "i"}[format] {
			continue
		}
		enc, err := row.NewEncoder(format, fuzzTypes())
		require.NoError(f, err)
		empty := make([]any, len(full))
		empty[3] = int32(0)
		for _, values := range [][]any{full, sparse, empty} {
			b, err := enc.Append(nil, values)
			require.NoError(f, err)
			f.Add(b)
		}
	}
}

// fuzzDecode checks that decoding never panics and that whatever decodes survives
// an encode/decode round trip unchanged.
func fuzzDecode(t *testing.T, format row.Format, data []byte) {
	ts := fuzzTypes()
	dec, err := row.NewDecoder(format, ts)
	require.NoError(t, err)
	values, err := dec.Decode(data)
	if err != nil {
		return
	}
	enc, err := row.NewEncoder(format, ts)
	require.NoError(t, err)
	again, err := enc.Append(nil, values)
	require.NoError(t, err, "decoded values must re-encode")
	back, err := dec.Decode(again)
	require.NoError(t, err)
	require.Equal(t, normalize(values), normalize(back))
}

func FuzzCompactedDecode(f *testing.F) {
	addRowSeeds(f, func(c, _ string) string { return c })
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, row.Compacted, data) })
}

func FuzzIndexedDecode(f *testing.F) {
	addRowSeeds(f, func(_, i string) string { return i })
	f.Fuzz(func(t *testing.T, data []byte) { fuzzDecode(t, row.Indexed, data) })
}
