package sqlkind

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// slowDecimal is the exact big.Rat path decimalNumber took before the
// fixed-point one.
func slowDecimal(t types.DataType, text string) (any, error) {
	r, ok := ParseRat(text)
	if !ok {
		return nil, ErrNoFit
	}
	return FitDecimal("c", t, r, text)
}

var plainDecimal = regexp.MustCompile(`^[+-]?[0-9]+(\.[0-9]+)?$`)

// checkDecimalText compares decimalNumber with the exact path on one text:
// the same value at the same scale, or the same error; and the fixed point
// answers every plain number the exact path takes.
func checkDecimalText(t *testing.T, typ types.DataType, text string) {
	want, werr := slowDecimal(typ, text)
	got, gerr := Of(types.Decimal).Number("c", typ, text)
	desc := fmt.Sprintf("%q as %s", text, TypeName(typ))
	if werr != nil {
		require.Error(t, gerr, desc)
		assert.Equal(t, werr.Error(), gerr.Error(), desc)
		return
	}
	require.NoError(t, gerr, desc)
	w, g := want.(datum.Decimal), got.(datum.Decimal)
	assert.True(t, w.Equal(g) && w.Scale() == g.Scale() && w.String() == g.String(), "%s: want %s, got %s", desc, w, g)
	if _, ok := fastDecimal(typ, text); !ok && plainDecimal.MatchString(text) {
		t.Errorf("%s: the fixed point gave up on a plain number", desc)
	}
}

func TestDecimalTextEdges(t *testing.T) {
	max38 := strings.Repeat("9", 38)
	for _, tc := range []struct {
		typ  types.DataType
		text string
		want string // "" when an error is expected
		err  string
	}{
		{types.NewDecimal(15, 2), "104949.5", "104949.50", ""},
		{types.NewDecimal(15, 2), "-0.07", "-0.07", ""},
		{types.NewDecimal(15, 2), "-0", "0.00", ""},
		{types.NewDecimal(15, 2), "+007.10", "7.10", ""},
		{types.NewDecimal(15, 2), "1.2300", "1.23", ""},
		{types.NewDecimal(15, 2), "1.235", "", "has more than 2 digits after the point (no rounding is done)"},
		{types.NewDecimal(15, 2), "10000000000000", "", "has more than 13 digits before the point"},
		{types.NewDecimal(15, 2), "9999999999999.99", "9999999999999.99", ""},
		{types.NewDecimal(18, 0), "-999999999999999999", "-999999999999999999", ""},
		{types.NewDecimal(19, 0), "9999999999999999999", "9999999999999999999", ""},
		{types.NewDecimal(38, 0), max38, max38, ""},
		{types.NewDecimal(38, 0), "-" + max38, "-" + max38, ""},
		{types.NewDecimal(38, 0), "1" + strings.Repeat("0", 38), "", "has more than 38 digits before the point"},
		{types.NewDecimal(38, 38), "0." + max38, "0." + max38, ""},
		{types.NewDecimal(38, 38), "-1", "", "has more than 0 digits before the point"},
		{types.NewDecimal(10, 2), "1e2", "100.00", ""},
		{types.NewDecimal(10, 2), ".5", "0.50", ""},
		{types.NewDecimal(10, 2), "1.2.3", "", "no fit"},
		{types.NewDecimal(10, 2), " 1", "", "no fit"},
		{types.NewDecimal(10, 2), "", "", "no fit"},
		{types.NewDecimal(10, 2), "--1", "", "no fit"},
	} {
		t.Run(tc.text+" "+TypeName(tc.typ), func(t *testing.T) {
			checkDecimalText(t, tc.typ, tc.text)
			got, err := Of(types.Decimal).Number("c", tc.typ, tc.text)
			if tc.want == "" {
				require.Error(t, err)
				if tc.err == "no fit" {
					assert.ErrorIs(t, err, ErrNoFit)
				} else {
					assert.Contains(t, err.Error(), tc.err)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got.(datum.Decimal).String())
		})
	}
}

// TestDecimalTextMatchesExact compares the two paths on random numbers of
// random types (plain and scientific, edges of precision and scale).
func TestDecimalTextMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 3))
	digits := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + rng.IntN(10))
		}
		return string(b)
	}
	for range 100000 {
		p := 1 + rng.IntN(38)
		typ := types.NewDecimal(p, rng.IntN(p+1))
		text := digits(rng.IntN(p + 3))
		if rng.IntN(3) > 0 {
			text += "." + digits(1+rng.IntN(typ.Scale+3))
		}
		switch rng.IntN(6) {
		case 0:
			text = "-" + text
		case 1:
			text = "+" + text
		case 2:
			text += "e" + fmt.Sprint(rng.IntN(5)-2)
		}
		checkDecimalText(t, typ, text)
	}
}

// FuzzDecimalText: the fixed point never disagrees with the exact path.
func FuzzDecimalText(f *testing.F) {
	for _, s := range []string{"0", "-0.07", "104949.5", "1e3", strings.Repeat("9", 38), "0." + strings.Repeat("1", 40), "+.5", "1."} {
		f.Add(s, 15, 2)
	}
	f.Fuzz(func(t *testing.T, text string, p, s int) {
		p = 1 + abs(p)%38
		checkDecimalText(t, types.NewDecimal(p, abs(s)%(p+1)), text)
	})
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
