package row_test

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

func TestArrayLayoutGolden(t *testing.T) {
	arrInt := types.NewArray(types.NewInt())
	arrStr := types.NewArray(types.NewString())
	tests := []struct {
		name      string
		typ       types.DataType
		value     any
		compacted string // null byte, varint length, BinaryArray
		indexed   string // null byte, int32 length, BinaryArray
	}{
		{"empty array is count and one null word", arrInt, []any{},
			"0008" + "0000000000000000", "0008000000" + "0000000000000000"},
		{"int slots padded to 8", arrInt, []any{int32(1), nil, int32(-1)},
			"0018" + "03000000" + "02000000" + "01000000" + "00000000" + "ffffffff" + "00000000", ""},
		{"7 bytes inline with mark", arrStr, []any{"1234567"},
			"0010" + "01000000" + "00000000" + "31323334353637" + "87", ""},
		{"8 bytes in a region", arrStr, []any{"12345678"},
			"0018" + "01000000" + "00000000" + "08000000" + "10000000" + "3132333435363738", ""},
		{"NaN stored as Java's Double.NaN", types.NewArray(types.NewDouble()), []any{math.NaN()},
			"0010" + "01000000" + "00000000" + "000000000000f87f", ""},
		{"empty map is key size and two empty arrays", types.NewMap(types.NewString(), types.NewInt()), []datum.MapEntry{},
			"0014" + "08000000" + "0000000000000000" + "0000000000000000", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []row.Format{row.Compacted, row.Indexed} {
				want := tt.compacted
				if f == row.Indexed {
					want = tt.indexed
					if want == "" { // same BinaryArray, a 4-byte length instead of a varint
						body := mustHex(tt.compacted)[2:]
						want = "00" + hex.EncodeToString(binary.LittleEndian.AppendUint32(nil, uint32(len(body)))) + hex.EncodeToString(body)
					}
				}
				enc, err := row.NewEncoder(f, []types.DataType{tt.typ})
				require.NoError(t, err)
				got, err := enc.Append(nil, []any{tt.value})
				require.NoError(t, err)
				assert.Equal(t, want, hex.EncodeToString(got), f)
			}
		})
	}
}

func TestArrayMapRoundTrip(t *testing.T) {
	deep := types.NewMap(types.NewInt(), types.NewArray(types.NewMap(types.NewString(), types.NewRow(
		types.Field{Name: "d", Type: types.NewDecimal(20, 2)}, types.Field{Name: "ts", Type: types.NewTimestampLTZ(9)},
		types.Field{Name: "c", Type: types.NewChar(2)}))))
	ts := []types.DataType{
		deep, types.NewArray(types.NewBinary(4)), types.NewArray(types.NewChar(5).AsNotNull()).AsNotNull(),
		types.NewArray(types.NewDate()), types.NewArray(types.NewTime(0)), types.NewArray(types.NewTinyInt()),
		types.NewArray(types.NewFloat()), types.NewArray(types.NewTimestamp(2)),
	}
	big := make([]any, 70) // three null words
	for i := range big {
		if i%7 != 0 {
			big[i] = int8(i)
		}
	}
	values := []any{
		[]datum.MapEntry{
			{Key: int32(-1), Value: []any{[]datum.MapEntry{{Key: "k", Value: []any{datum.NewDecimal(-5, 2),
				datum.TimestampLTZ{EpochMillis: -1, NanoOfMilli: 999999}, "x"}}}, nil, []datum.MapEntry{}}},
			{Key: int32(0), Value: nil},
		},
		[]any{[]byte{0, 1}, []byte{}, nil}, []any{"abc", "", "abcde"},
		[]any{datum.Date(-1), nil}, []any{datum.Time(0), datum.Time(86399999)}, big,
		[]any{float32(math.Copysign(0, -1)), float32(math.Inf(1))}, []any{datum.TimestampNTZ{Millis: math.MinInt64}},
	}
	for _, f := range []row.Format{row.Compacted, row.Indexed} {
		enc, err := row.NewEncoder(f, ts)
		require.NoError(t, err)
		b, err := enc.Append([]byte{0xee}, values)
		require.NoError(t, err)
		dec, err := row.NewDecoder(f, ts)
		require.NoError(t, err)
		got, err := dec.Decode(b[1:])
		require.NoError(t, err, f)
		assert.Equal(t, normalize(values), normalize(got), f)
	}
}

func TestArrayMapEncodeErrors(t *testing.T) {
	arrInt := types.NewArray(types.NewInt())
	tests := []struct {
		name   string
		typ    types.DataType
		value  any
		errMsg string
	}{
		{"array must be []any", arrInt, []int32{1}, "[]any"},
		{"element type", arrInt, []any{int64(1)}, "element 0: row: INT value must be int32"},
		{"NULL in NOT NULL element", types.NewArray(types.NewInt().AsNotNull()), []any{int32(1), nil}, "element 1 of ARRAY<INT NOT NULL> is NULL"},
		{"map must be []MapEntry", types.NewMap(types.NewString(), types.NewInt()), map[string]any{"a": int32(1)}, "[]datum.MapEntry"},
		{"NULL map key", types.NewMap(types.NewString(), types.NewInt()), []datum.MapEntry{{Key: nil, Value: int32(1)}}, "map keys must not be NULL"},
		{"map value type", types.NewMap(types.NewString(), types.NewInt()), []datum.MapEntry{{Key: "a", Value: "b"}}, "map value: element 0"},
		{"decimal too wide in array", types.NewArray(types.NewDecimal(30, 2)), []any{datum.NewDecimal(1, 3)}, "rounding"},
		{"nanos in array", types.NewArray(types.NewTimestamp(3)), []any{datum.TimestampNTZ{NanoOfMilli: -1}}, "out of range"},
		{"row in array arity", types.NewArray(types.NewRow(types.Field{Name: "a", Type: types.NewInt()})), []any{[]any{}}, "0 values for 1 columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []row.Format{row.Compacted, row.Indexed} {
				enc, err := row.NewEncoder(f, []types.DataType{tt.typ})
				require.NoError(t, err)
				out, err := enc.Append([]byte{0xaa}, []any{tt.value})
				require.ErrorContains(t, err, tt.errMsg, f)
				assert.Equal(t, []byte{0xaa}, out, "dst unchanged on error")
			}
		})
	}
}

// TestArrayDecodeRejectsMalformed feeds CompactedRows of one ARRAY/MAP column whose
// BinaryArray is corrupt; each must be an error.
func TestArrayDecodeRejectsMalformed(t *testing.T) {
	tests := []struct {
		name   string
		typ    types.DataType
		array  string // the BinaryArray / BinaryMap bytes
		errMsg string
	}{
		{"short header", types.NewArray(types.NewInt()), "010000", "truncated"},
		{"negative count", types.NewArray(types.NewInt()), "ffffffff00000000", "negative array size"},
		{"count beyond the bytes", types.NewArray(types.NewBoolean()), "ffffff7f00000000", "does not fit"},
		{"slots beyond the bytes", types.NewArray(types.NewBigInt()), "0200000000000000" + "0100000000000000", "does not fit"},
		{"region past the end", types.NewArray(types.NewString()), "01000000" + "00000000" + "08000000" + "10000000" + "3132", "outside"},
		{"region inside the slots", types.NewArray(types.NewString()), "01000000" + "00000000" + "08000000" + "00000000" + "3132333435363738", "outside"},
		{"regions overlap", types.NewArray(types.NewString()),
			"02000000" + "00000000" + "08000000" + "18000000" + "08000000" + "18000000" + "3132333435363738", "out of order"},
		{"inline length 8", types.NewArray(types.NewString()), "01000000" + "00000000" + "31323334353637" + "88", "inline length 8"},
		{"mark bit on a nested array", types.NewArray(types.NewArray(types.NewInt())), "01000000" + "00000000" + "0000000000000080", "inline mark"},
		{"empty big decimal", types.NewArray(types.NewDecimal(30, 0)), "01000000" + "00000000" + "00000000" + "10000000" + "0000000000000000", "empty decimal"},
		{"decimal over precision", types.NewArray(types.NewDecimal(5, 0)), "01000000" + "00000000" + "a086010000000000", "exceeds"},
		{"timestamp nanos out of range", types.NewArray(types.NewTimestamp(9)), "01000000" + "00000000" + "40420f00" + "10000000" + "0000000000000000", "out of range"},
		{"timestamp region short", types.NewArray(types.NewTimestamp(9)), "01000000" + "00000000" + "01000000" + "10000000" + "00000000", "outside"},
		{"map key size past the end", types.NewMap(types.NewInt(), types.NewInt()), "10000000" + "0000000000000000", "outside"},
		{"map negative key size", types.NewMap(types.NewInt(), types.NewInt()), "ffffffff" + "0000000000000000", "outside"},
		{"map count mismatch", types.NewMap(types.NewInt(), types.NewInt()),
			"08000000" + "0000000000000000" + "01000000" + "00000000" + "0100000000000000", "0 keys but 1 values"},
		{"map without value array", types.NewMap(types.NewInt(), types.NewInt()), "08000000" + "0000000000000000", "truncated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := mustHex(tt.array)
			for _, f := range []row.Format{row.Compacted, row.Indexed} {
				var data []byte
				if f == row.Compacted {
					data = append([]byte{0, byte(len(body))}, body...)
				} else {
					data = append(binary.LittleEndian.AppendUint32([]byte{0}, uint32(len(body))), body...)
				}
				dec, err := row.NewDecoder(f, []types.DataType{tt.typ})
				require.NoError(t, err)
				_, err = dec.Decode(data)
				require.ErrorContains(t, err, tt.errMsg, f)
			}
		})
	}
}

func TestArrayDecodeNullBits(t *testing.T) {
	// the null bit of element 0 is set; a nullable element reads NULL, a NOT NULL element
	// (and a map key) ignores the bit and reads the slot, as Java's element getters do
	body := "01000000" + "01000000" + "0700000000000000"
	data := append([]byte{0, 16}, mustHex(body)...)
	for _, tt := range []struct {
		typ  types.DataType
		want any
	}{
		{types.NewArray(types.NewInt()), []any{nil}},
		{types.NewArray(types.NewInt().AsNotNull()), []any{int32(7)}},
	} {
		dec, err := row.NewCompactedDecoder([]types.DataType{tt.typ})
		require.NoError(t, err)
		got, err := dec.Decode(data)
		require.NoError(t, err)
		assert.Equal(t, []any{tt.want}, got, "%s", tt.typ)
	}
	mapBytes := "10000000" + body + "01000000" + "01000000" + "0900000000000000"
	dec, err := row.NewCompactedDecoder([]types.DataType{types.NewMap(types.NewInt(), types.NewInt())})
	require.NoError(t, err)
	got, err := dec.Decode(append([]byte{0, byte(len(mapBytes) / 2)}, mustHex(mapBytes)...))
	require.NoError(t, err)
	assert.Equal(t, []any{[]datum.MapEntry{{Key: int32(7), Value: nil}}}, got)
}

func TestKeyEncoderRejectsNestedTypes(t *testing.T) {
	for _, typ := range []types.DataType{
		types.NewArray(types.NewInt()), types.NewMap(types.NewInt(), types.NewInt()),
		types.NewRow(types.Field{Name: "a", Type: types.NewInt()}),
	} {
		_, err := row.NewKeyEncoder([]types.DataType{types.NewInt(), typ}, []int{0, 1})
		require.ErrorContains(t, err, "does not allow ARRAY, MAP or ROW in primary or bucket keys", "%s", typ)
	}
	// a value column may be an ARRAY when the key does not include it
	enc, err := row.NewKeyEncoder([]types.DataType{types.NewInt(), types.NewArray(types.NewInt())}, []int{0})
	require.NoError(t, err)
	key, err := enc.Encode([]any{int32(3), []any{int32(1)}})
	require.NoError(t, err)
	assert.Equal(t, "03", hex.EncodeToString(key))
}
