package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type castName string

func (c castName) String() string { return string(c) }

func TestParseDecimalText(t *testing.T) {
	cases := []struct {
		in         string
		p, s       int32
		want       string // as the DECIMAL's text; "" for an error
		arithmetic bool
	}{
		{"1.5", 4, 2, "1.50", false},
		{" -2 ", 4, 2, "-2.00", false},
		{".5", 4, 2, "0.50", false},
		{"1e2", 5, 2, "100.00", false},
		{"1.005", 4, 2, "1.01", false},   // half up
		{"-1.005", 4, 2, "-1.01", false}, // away from zero
		{"1.004", 4, 2, "1.00", false},
		{"99.995", 4, 2, "", true}, // rounds to 100.00: 3 integer digits
		{"123", 4, 2, "", true},
		{"abc", 4, 2, "", false},
		{"", 4, 2, "", false},
		{"1/2", 4, 2, "", false},
		{"0x10", 4, 2, "", false},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := parseDecimalText(c.in, c.p, c.s, castName("CAST(x AS DECIMAL)"))
			if c.want == "" {
				require.Error(t, err)
				assert.Equal(t, c.arithmetic, errors.Is(err, ErrArithmetic), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got.ToString(c.s))
		})
	}
}
