package row_test

import (
	"encoding/hex"
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

func TestCompactedSmallCases(t *testing.T) {
	tests := []struct {
		name   string
		types  []types.DataType
		values []any
		want   string
	}{
		{"int 1 string a", []types.DataType{types.NewInt(), types.NewString()}, []any{int32(1), "a"}, "00010161"},
		{"negative int is 5 bytes", []types.DataType{types.NewInt()}, []any{int32(-1)}, "00ffffffff0f"},
		{"negative bigint is 10 bytes", []types.DataType{types.NewBigInt()}, []any{int64(-1)}, "00ffffffffffffffffff01"},
		{"smallint is fixed LE", []types.DataType{types.NewSmallInt()}, []any{int16(-2)}, "00feff"},
		{"null second of nine", make9(), nine(1), "0200" + "0000000000000000"},
		{"timestamp p3 drops nanos", []types.DataType{types.NewTimestamp(3)}, []any{datum.TimestampNTZ{Millis: 1, NanoOfMilli: 5}}, "0001"},
		{"timestamp p4 keeps nanos", []types.DataType{types.NewTimestamp(4)}, []any{datum.TimestampNTZ{Millis: 1, NanoOfMilli: 5}}, "000105"},
		{"decimal scale raised exactly", []types.DataType{types.NewDecimal(5, 2)}, []any{datum.NewDecimal(7, 0)}, "00bc05"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			enc, err := row.NewCompactedEncoder(tt.types)
			require.NoError(t, err)
			got, err := enc.Append(nil, tt.values)
			require.NoError(t, err)
			assert.Equal(t, tt.want, hex.EncodeToString(got))
		})
	}
}

// nine columns of BIGINT with column i NULL and the others 0.
func make9() []types.DataType {
	ts := make([]types.DataType, 9)
	for i := range ts {
		ts[i] = types.NewBigInt()
	}
	return ts
}

func nine(null int) []any {
	v := make([]any, 9)
	for i := range v {
		if i != null {
			v[i] = int64(0)
		}
	}
	return v
}

func TestEncodeErrors(t *testing.T) {
	tests := []struct {
		name   string
		typ    types.DataType
		value  any
		errMsg string
	}{
		{"wrong go type", types.NewInt(), int64(1), "int32"},
		{"int for date", types.NewDate(), int32(1), "datum.Date"},
		{"null in not null", types.NewInt().AsNotNull(), nil, "NULL"},
		{"decimal too wide", types.NewDecimal(4, 2), datum.NewDecimal(12345, 2), "does not fit"},
		{"decimal needs rounding", types.NewDecimal(10, 1), datum.NewDecimal(12345, 2), "rounding"},
		{"nanos out of range", types.NewTimestamp(9), datum.TimestampNTZ{NanoOfMilli: 1_000_000}, "out of range"},
		{"negative nanos", types.NewTimestampLTZ(6), datum.TimestampLTZ{NanoOfMilli: -1}, "out of range"},
		{"nested row arity", types.NewRow(types.Field{Name: "a", Type: types.NewInt()}), []any{}, "0 values for 1 columns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []row.Format{row.Compacted, row.Indexed} {
				enc, err := row.NewEncoder(f, []types.DataType{tt.typ})
				require.NoError(t, err)
				dst := []byte{0xaa}
				out, err := enc.Append(dst, []any{tt.value})
				require.ErrorContains(t, err, tt.errMsg, f)
				assert.Equal(t, []byte{0xaa}, out, "dst unchanged on error")
			}
		})
	}
	enc, err := row.NewCompactedEncoder([]types.DataType{types.NewInt()})
	require.NoError(t, err)
	_, err = enc.Append(nil, []any{int32(1), int32(2)})
	require.ErrorContains(t, err, "2 values for 1 columns")
}

func TestIndexedFixedWidthLimits(t *testing.T) {
	enc, err := row.NewIndexedEncoder([]types.DataType{types.NewChar(2), types.NewBinary(2)})
	require.NoError(t, err)
	_, err = enc.Append(nil, []any{"abc", []byte{1}})
	require.ErrorContains(t, err, "do not fit CHAR(2)")
	got, err := enc.Append(nil, []any{"é", []byte{1}})
	require.NoError(t, err)
	assert.Equal(t, "00c3a90100", hex.EncodeToString(got))
	_, err = row.NewIndexedEncoder([]types.DataType{{Kind: types.Char}})
	require.Error(t, err, "CHAR without length")
}

func TestInvalidTypes(t *testing.T) {
	_, err := row.NewCompactedEncoder([]types.DataType{{Kind: types.Kind(99)}})
	require.ErrorIs(t, err, row.ErrUnsupportedType)
	for _, typ := range []types.DataType{
		types.NewDecimal(0, 0), types.NewDecimal(39, 0), types.NewDecimal(5, 6), types.NewTimestamp(10),
		{Kind: types.Array}, {Kind: types.Map, Key: &types.DataType{Kind: types.Int}},
		types.NewArray(types.NewDecimal(39, 0)), types.NewMap(types.NewInt(), types.NewTimestamp(10)),
	} {
		_, err := row.NewCompactedDecoder([]types.DataType{typ})
		require.Error(t, err, "%s", typ)
	}
}

func TestDecodeRejectsMalformed(t *testing.T) {
	ts := []types.DataType{types.NewInt(), types.NewString(), types.NewDecimal(20, 2), types.NewTimestamp(9)}
	enc, err := row.NewCompactedEncoder(ts)
	require.NoError(t, err)
	good, err := enc.Append(nil, []any{int32(300), "hello", datum.NewDecimal(-5, 2), datum.TimestampNTZ{Millis: 9, NanoOfMilli: 7}})
	require.NoError(t, err)
	dec, err := row.NewCompactedDecoder(ts)
	require.NoError(t, err)
	_, err = dec.Decode(good)
	require.NoError(t, err)
	for n := 0; n < len(good); n++ {
		_, err := dec.Decode(good[:n])
		require.Error(t, err, "truncated to %d", n)
	}
	_, err = dec.Decode(append(append([]byte(nil), good...), 0))
	require.ErrorContains(t, err, "bytes left")

	// a string length that runs past the end, a negative length, an over-long varint
	for _, bad := range []string{"000105616263", "0001ffffffff0f", "00ffffffffff01"} {
		_, err := dec.Decode(mustHex(bad))
		require.Error(t, err, bad)
	}
	// nano-of-milli out of range
	tsDec, err := row.NewCompactedDecoder([]types.DataType{types.NewTimestamp(9)})
	require.NoError(t, err)
	_, err = tsDec.Decode(mustHex("0001c0843d")) // 1000000
	require.ErrorContains(t, err, "out of range")

	idx, err := row.NewIndexedDecoder(ts)
	require.NoError(t, err)
	ienc, err := row.NewIndexedEncoder(ts)
	require.NoError(t, err)
	igood, err := ienc.Append(nil, []any{int32(1), "x", datum.NewDecimal(1, 2), nil})
	require.NoError(t, err)
	for n := 0; n < len(igood); n++ {
		_, err := idx.Decode(igood[:n])
		require.Error(t, err, "indexed truncated to %d", n)
	}
}

func TestNullBitIgnoredForNotNullColumns(t *testing.T) {
	// Java's readers consult the null bit only for nullable columns.
	ts := []types.DataType{types.NewInt().AsNotNull(), types.NewInt()}
	dec, err := row.NewCompactedDecoder(ts)
	require.NoError(t, err)
	got, err := dec.Decode(mustHex("0305"))
	require.NoError(t, err, "bit 0 is ignored; bit 1 makes the nullable column NULL")
	assert.Equal(t, []any{int32(5), nil}, got)
	_, err = dec.Decode(mustHex("030507"))
	require.ErrorContains(t, err, "bytes left")
	idx, err := row.NewIndexedDecoder(ts)
	require.NoError(t, err)
	got, err = idx.Decode(mustHex("0309000000"))
	require.NoError(t, err)
	assert.Equal(t, []any{int32(9), nil}, got)
}

func TestRoundTripBothFormats(t *testing.T) {
	ts := []types.DataType{
		types.NewBoolean(), types.NewTinyInt(), types.NewSmallInt(), types.NewInt(), types.NewBigInt(),
		types.NewFloat(), types.NewDouble(), types.NewDecimal(18, 3), types.NewDecimal(38, 0), types.NewChar(3),
		types.NewString(), types.NewBinary(2), types.NewBytes(), types.NewDate(), types.NewTime(3),
		types.NewTimestamp(6), types.NewTimestampLTZ(3),
		types.NewRow(types.Field{Name: "a", Type: types.NewString()}, types.Field{Name: "b", Type: types.NewDecimal(30, 5)}),
	}
	huge, _ := new(big.Int).SetString("-99999999999999999999999999999999999999", 10)
	values := []any{
		true, int8(math.MinInt8), int16(math.MaxInt16), int32(math.MinInt32), int64(math.MaxInt64),
		float32(math.Inf(-1)), math.SmallestNonzeroFloat64, datum.NewDecimal(-999999999999999999, 3),
		datum.NewDecimalFromBig(huge, 0), "ab", "日本語", []byte{0xff, 0x01}, []byte{0, 0, 0},
		datum.Date(-719162), datum.Time(86399999), datum.TimestampNTZ{Millis: -62135596800000, NanoOfMilli: 999999},
		datum.TimestampLTZ{EpochMillis: math.MaxInt64}, []any{nil, datum.NewDecimal(1, 5)},
	}
	for _, f := range []row.Format{row.Compacted, row.Indexed} {
		enc, err := row.NewEncoder(f, ts)
		require.NoError(t, err)
		b, err := enc.Append(nil, values)
		require.NoError(t, err)
		dec, err := row.NewDecoder(f, ts)
		require.NoError(t, err)
		got, err := dec.Decode(b)
		require.NoError(t, err)
		assert.Equal(t, normalize(values), normalize(got), f)
	}
}

func TestKeyEncoder(t *testing.T) {
	cols := []types.Column{
		{Name: "region", Type: types.NewString()},
		{Name: "id", Type: types.NewInt()},
		{Name: "v", Type: types.NewDouble()},
	}
	enc, err := row.NewKeyEncoderForColumns(cols, []string{"id", "region"})
	require.NoError(t, err)
	key, err := enc.Encode([]any{"eu", int32(200), nil})
	require.NoError(t, err)
	assert.Equal(t, "c801026575", hex.EncodeToString(key), "key order, no null bits, value columns may be NULL")

	_, err = enc.Encode([]any{nil, int32(1), 1.0})
	require.ErrorContains(t, err, `key column "region" (STRING) is NULL`)
	_, err = enc.Encode([]any{"eu"})
	require.Error(t, err)
	_, err = row.NewKeyEncoderForColumns(cols, []string{"nope"})
	require.ErrorContains(t, err, "nope")
	_, err = row.NewKeyEncoder([]types.DataType{types.NewMap(types.NewInt(), types.NewInt())}, []int{0})
	require.Error(t, err)
	_, err = row.NewKeyEncoder([]types.DataType{types.NewInt()}, nil)
	require.Error(t, err)
	_, err = row.NewKeyEncoder([]types.DataType{types.NewInt()}, []int{1})
	require.Error(t, err)

	assert.Equal(t, []string{"id", "seq"}, row.PhysicalPrimaryKey([]string{"region", "id", "dt", "seq"}, []string{"dt", "region"}))
	assert.Nil(t, row.PhysicalPrimaryKey([]string{"dt"}, []string{"dt"}))
}

func TestParseFormat(t *testing.T) {
	f, err := row.ParseFormat("compacted")
	require.NoError(t, err)
	assert.Equal(t, row.Compacted, f)
	f, err = row.ParseFormat("INDEXED")
	require.NoError(t, err)
	assert.Equal(t, "INDEXED", f.String())
	_, err = row.ParseFormat("ARROW")
	require.Error(t, err)
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
