package planner

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

func dec(t *testing.T, s string) datum.Decimal {
	d, err := datum.ParseDecimal(s)
	require.NoError(t, err)
	return d
}

func TestConvertArg(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	require.NoError(t, err)
	at := time.Date(2024, 3, 31, 1, 30, 15, 123456789, berlin)
	tests := []struct {
		name string
		typ  types.DataType
		arg  any
		want any
		err  string
	}{
		{"nil", types.NewInt(), nil, nil, ""},
		{"int to INT", types.NewInt(), 7, int32(7), ""},
		{"int64 to TINYINT", types.NewTinyInt(), int64(-128), int8(-128), ""},
		{"int64 over TINYINT", types.NewTinyInt(), int64(128), nil, `column "c" is TINYINT; 128 is out of range`},
		{"int64 over INT", types.NewInt(), int64(1) << 31, nil, `column "c" is INT; 2147483648 is out of range`},
		{"uint64 over BIGINT", types.NewBigInt(), uint64(math.MaxUint64), nil, "out of range"},
		{"uint8 to SMALLINT", types.NewSmallInt(), uint8(200), int16(200), ""},
		{"int to DOUBLE", types.NewDouble(), 3, 3.0, ""},
		{"int to DECIMAL", types.NewDecimal(5, 2), 123, dec(t, "123.00"), ""},
		{"int over DECIMAL", types.NewDecimal(5, 2), 1234, nil, "more than 3 digits before the point"},
		{"float64 integral to BIGINT", types.NewBigInt(), 42.0, int64(42), ""},
		{"float64 fraction to INT", types.NewInt(), 0.5, nil, `column "c" is INT; got float 0.5`},
		{"float64 to FLOAT", types.NewFloat(), 0.1, float32(0.1), ""},
		{"float64 over FLOAT", types.NewFloat(), 1e40, nil, "out of range"},
		{"float64 inf to FLOAT", types.NewFloat(), math.Inf(1), float32(math.Inf(1)), ""},
		{"float64 to DECIMAL exact", types.NewDecimal(10, 3), 0.1, dec(t, "0.100"), ""},
		{"float64 to DECIMAL lossy", types.NewDecimal(10, 1), 0.25, nil, "more than 1 digits after the point"},
		{"NaN to DECIMAL", types.NewDecimal(10, 1), math.NaN(), nil, "got float NaN"},
		{"string to BIGINT", types.NewBigInt(), "-17", int64(-17), ""},
		{"bad string to BIGINT", types.NewBigInt(), "abc", nil, `column "c" is BIGINT; got string 'abc'`},
		{"string to DECIMAL", types.NewDecimal(38, 10), "12345678901234567890.5", dec(t, "12345678901234567890.5000000000"), ""},
		{"string hex to INT", types.NewInt(), "0x10", nil, "got string '0x10'"},
		{"fraction string to DOUBLE", types.NewDouble(), "1/3", nil, "got string '1/3'"},
		{"string NaN to DOUBLE", types.NewDouble(), "NaN", math.NaN(), ""},
		{"string to BOOLEAN", types.NewBoolean(), "TRUE", true, ""},
		{"string to CHAR", types.NewChar(2), "héé", nil, "longer than 2 characters"},
		{"string to BYTES", types.NewBytes(), "ab", []byte("ab"), ""},
		{"bytes to STRING", types.NewString(), []byte("ab"), "ab", ""},
		{"bytes to BINARY too long", types.NewBinary(1), []byte("ab"), nil, "2 bytes is too long"},
		{"bool to INT", types.NewInt(), true, nil, `column "c" is INT; got bool TRUE`},
		{"time to DATE", types.NewDate(), at, datum.Date(19813), ""},
		{"time to TIME", types.NewTime(3), at, datum.Time((1*3600+30*60+15)*1000 + 123), ""},
		{"time to TIMESTAMP(3)", types.NewTimestamp(3), at,
			datum.TimestampNTZOf(time.Date(2024, 3, 31, 1, 30, 15, 123000000, time.UTC)), ""},
		{"time to TIMESTAMP_LTZ(6)", types.NewTimestampLTZ(6), at,
			datum.TimestampLTZOf(time.Date(2024, 3, 31, 0, 30, 15, 123456000, time.UTC)), ""},
		{"time to STRING", types.NewString(), at, nil, "got time.Time"},
		{"string to TIMESTAMP", types.NewTimestamp(9), "2024-01-02 03:04:05.000000001",
			datum.TimestampNTZ{Millis: 1704164645000, NanoOfMilli: 1}, ""},
		{"zoned string to TIMESTAMP", types.NewTimestamp(3), "2024-01-02T03:04:05Z", nil, "got string"},
		{"zoned string to LTZ", types.NewTimestampLTZ(3), "2024-01-02T03:04:05+01:00",
			datum.TimestampLTZ{EpochMillis: 1704161045000}, ""},
		{"decimal to DECIMAL", types.NewDecimal(4, 2), datum.NewDecimal(15, 1), dec(t, "1.50"), ""},
		{"decimal over DECIMAL", types.NewDecimal(4, 2), datum.NewDecimal(1000, 0), nil, "more than 2 digits before the point"},
		{"date to DATE", types.NewDate(), datum.Date(3), datum.Date(3), ""},
		{"date to TIMESTAMP", types.NewTimestamp(3), datum.Date(3), nil, "got datum.Date"},
		{"struct", types.NewInt(), struct{}{}, nil, "cannot use a Go struct {} value"},
		{"string to ARRAY", types.NewArray(types.NewInt()), "[1]", nil, `column "c" is ARRAY<INT>; got string; pass a slice`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := convertArg("c", tt.typ, tt.arg, time.UTC)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			if f, ok := tt.want.(float64); ok && math.IsNaN(f) {
				assert.True(t, math.IsNaN(got.(float64)))
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLTZStringUsesSessionLocation(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	got, err := convertArg("c", types.NewTimestampLTZ(3), "2024-01-01 09:00:00", tokyo)
	require.NoError(t, err)
	assert.Equal(t, datum.TimestampLTZ{EpochMillis: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli()}, got)
	// TIMESTAMP (no zone) keeps the wall clock whatever the session zone.
	got, err = convertArg("c", types.NewTimestamp(3), "2024-01-01 09:00:00", tokyo)
	require.NoError(t, err)
	assert.Equal(t, "2024-01-01 09:00:00", got.(datum.TimestampNTZ).String())
}

func TestPartitionString(t *testing.T) {
	// Expected values follow Java's PartitionUtils.convertValueOfType.
	tests := []struct {
		typ  types.DataType
		v    any
		want string
	}{
		{types.NewString(), "US", "US"},
		{types.NewBoolean(), true, "true"},
		{types.NewBytes(), []byte{0x0a, 0xff}, "0aff"},
		{types.NewTinyInt(), int8(-3), "-3"},
		{types.NewBigInt(), int64(1) << 40, "1099511627776"},
		{types.NewDate(), datum.Date(19723), "2024-01-01"},
		{types.NewTime(3), datum.Time(3723004), "01-02-03_004"},
		{types.NewDouble(), 1.5, "1_5"},
		{types.NewDouble(), 100.0, "100_0"},
		{types.NewDouble(), 0.001, "0_001"},
		{types.NewDouble(), 0.0001, "1_0E-4"},
		{types.NewDouble(), 1e7, "1_0E7"},
		{types.NewDouble(), 1234567.0, "1234567_0"},
		{types.NewDouble(), -2.5e-10, "-2_5E-10"},
		{types.NewDouble(), 0.0, "0_0"},
		{types.NewDouble(), math.Inf(-1), "-Inf"},
		// Java prints Double.MIN_VALUE with two digits, not the shortest form "5E-324"
		// (the planner once had its own copy of these rules and got this one wrong).
		{types.NewDouble(), math.SmallestNonzeroFloat64, "4_9E-324"},
		{types.NewFloat(), float32(0.1), "0_1"},
		{types.NewTimestamp(6), datum.TimestampNTZOf(time.Date(2024, 1, 2, 3, 4, 5, 120000000, time.UTC)), "2024-01-02-03-04-05_12"},
		{types.NewTimestamp(6), datum.TimestampNTZOf(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)), "2024-01-02-03-04-05_"},
		{types.NewTimestampLTZ(3), datum.TimestampLTZOf(time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600))), "2024-01-02-02-04-05_"},
	}
	for _, tt := range tests {
		got, err := partitionString(tt.typ, tt.v)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "%s %v", tt.typ, tt.v)
	}
	_, err := partitionString(types.NewString(), nil)
	require.Error(t, err)
}
