package datum_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
)

func TestParseDecimal(t *testing.T) {
	tests := []struct {
		in    string
		str   string
		scale int
		prec  int
	}{
		{"123.45", "123.45", 2, 5},
		{"-0.001", "-0.001", 3, 1},
		{"+7", "7", 0, 1},
		{"0.00", "0.00", 2, 1},
		{".5", "0.5", 1, 1},
		{"1.", "1", 0, 1},
		{"12345678901234567890123.4567", "12345678901234567890123.4567", 4, 27},
	}
	for _, tt := range tests {
		d, err := datum.ParseDecimal(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.str, d.String())
		assert.Equal(t, tt.scale, d.Scale())
		assert.Equal(t, tt.prec, d.Precision())
	}
	for _, bad := range []string{"", ".", "-", "1e5", "1.2.3", "abc", "1 "} {
		_, err := datum.ParseDecimal(bad)
		require.Error(t, err, "%q", bad)
		assert.ErrorContains(t, err, "such as -123.45", "the error shows a valid literal")
	}
}

func TestDecimalRescale(t *testing.T) {
	d, err := datum.NewDecimal(150, 2).Rescale(1)
	require.NoError(t, err)
	assert.Equal(t, "1.5", d.String())
	assert.True(t, d.Equal(datum.NewDecimal(15, 1)))
	assert.False(t, d.Equal(datum.NewDecimal(150, 2)), "equal values of different scales differ")

	up, err := d.Rescale(4)
	require.NoError(t, err)
	assert.Equal(t, "1.5000", up.String())

	_, err = datum.NewDecimal(155, 2).Rescale(1)
	assert.ErrorContains(t, err, "without rounding")
	_, err = d.Rescale(-1)
	assert.ErrorContains(t, err, "negative decimal scale")
}

// TestDecimalBig: values past int64 keep every digit, and the accessors say whether the
// unscaled value fits an int64.
func TestDecimalBig(t *testing.T) {
	u, ok := new(big.Int).SetString("-123456789012345678901234567890", 10)
	require.True(t, ok)
	d := datum.NewDecimalFromBig(u, 5)
	u.SetInt64(0) // the Decimal holds a copy
	assert.Equal(t, "-1234567890123456789012345.67890", d.String())
	assert.Equal(t, 30, d.Precision())
	assert.Equal(t, -1, d.Sign())
	_, fits := d.UnscaledInt64()
	assert.False(t, fits)
	assert.Equal(t, "-123456789012345678901234567890", d.Unscaled().String())

	small := datum.NewDecimalFromBig(big.NewInt(-42), 1)
	n, fits := small.UnscaledInt64()
	assert.True(t, fits)
	assert.Equal(t, int64(-42), n)
	assert.True(t, small.Equal(datum.NewDecimal(-42, 1)))

	assert.Equal(t, 19, datum.NewDecimal(math.MinInt64, 0).Precision())
	assert.Equal(t, 0, datum.Decimal{}.Sign())
	assert.Equal(t, "0", datum.Decimal{}.String())
	assert.Equal(t, "0.05", datum.NewDecimal(5, 2).String())
}
