package engine

import (
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
)

// checkFloatToInt fails when a FLOAT or DOUBLE value of arr, its fraction dropped, does not
// fit the integer type t (or is NaN or infinite): Arrow's cast with AllowFloatTruncate wraps
// such a value silently (CAST(1e10 AS INT) gave -2147483648). Other arrays pass.
func checkFloatToInt(arr arrow.Array, t types.DataType) error {
	if !isInt(t.Kind) {
		return nil
	}
	lo, _ := sqlkind.IntRange(sqlkind.IntWidth(t.Kind))
	limit := -float64(lo) // 2^(bits-1), exact in a float64: the first value that does not fit
	check := func(v float64) error {
		if w := math.Trunc(v); math.IsNaN(v) || w < float64(lo) || w >= limit {
			return fmt.Errorf("%w: %g does not fit %s", ErrArithmetic, v, TypeName(t))
		}
		return nil
	}
	switch a := arr.(type) {
	case *array.Float64:
		for i, v := range a.Float64Values() {
			if a.IsValid(i) {
				if err := check(v); err != nil {
					return err
				}
			}
		}
	case *array.Float32:
		for i, v := range a.Float32Values() {
			if a.IsValid(i) {
				if err := check(float64(v)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
