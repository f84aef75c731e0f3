package engine

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestApproxCountDistinctBound feeds n distinct values (each twice, as int64 and as a
// string in two runs) and checks the estimate is within 3 standard deviations of Flink's
// 1% bound of n — exact up to hllExact values.
func TestApproxCountDistinctBound(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1024, 1025, 5000, 20000, 40000, 41000, 60000, 100000, 300000} {
		for _, kind := range []string{"int", "string"} {
			t.Run(fmt.Sprint(kind, n), func(t *testing.T) {
				s := &hllState{}
				for rep := 0; rep < 2; rep++ {
					for i := range n {
						var v any = int64(i) * 7919
						if kind == "string" {
							v = fmt.Sprintf("user-%d", i)
						}
						require.NoError(t, s.add(v))
					}
				}
				got, err := s.result()
				require.NoError(t, err)
				if n <= hllExact {
					assert.Equal(t, int64(n), got)
					return
				}
				t.Logf("%s %d: %d", kind, n, got)
				assert.LessOrEqual(t, math.Abs(float64(got.(int64)-int64(n))), 0.03*float64(n), "estimate %d of %d", got, n)
			})
		}
	}
}
