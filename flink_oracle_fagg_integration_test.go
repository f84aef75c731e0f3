package flussql_test

import (
	"context"
	"math"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// flinkFaggSuite is the TestFlinkOracle suite of APPROX_COUNT_DISTINCT over the small tables
// {t} and {x}, where Flink's HyperLogLog++ and flussql's sketch both count exactly.
const flinkFaggSuite = "fagg"

func flinkFaggCases() []flinkDiffCase {
	var out []flinkDiffCase
	for _, c := range []struct{ table, col string }{
		{"t", "a"}, {"t", "b"}, {"t", "big"}, {"t", "m"}, {"t", "n"}, {"t", "d"}, {"t", "s"},
		{"x", "ts"}, {"x", "ts2"}, {"x", "ltz"}, {"x", "dt"}, {"x", "tm"}, {"x", "ti"}, {"x", "si"}, {"x", "f"}, {"x", "w"}, {"x", "p"},
	} {
		e := "APPROX_COUNT_DISTINCT(" + c.col + ")"
		out = append(out, flinkDiffCase{e + " on " + c.table, "SELECT " + e + " FROM {" + c.table + "}", false})
	}
	out = append(out,
		flinkDiffCase{"APPROX_COUNT_DISTINCT grouped", "SELECT k % 2, APPROX_COUNT_DISTINCT(s), APPROX_COUNT_DISTINCT(a + b) FROM {t} GROUP BY k % 2", false},
		flinkDiffCase{"APPROX_COUNT_DISTINCT over no rows", "SELECT APPROX_COUNT_DISTINCT(s) FROM {t} WHERE k < 0", false},
		flinkDiffCase{"APPROX_COUNT_DISTINCT over no rows grouped", "SELECT k, APPROX_COUNT_DISTINCT(s) FROM {t} WHERE k < 0 GROUP BY k", false},
		flinkDiffCase{"APPROX_COUNT_DISTINCT in HAVING", "SELECT k % 3, COUNT(*) FROM {t} GROUP BY k % 3 HAVING APPROX_COUNT_DISTINCT(s) > 1", false},
	)
	return out
}

// The rb_* functions are the Fluss catalog's (Fluss after 0.9.1), not Flink's built-ins:
// SHOW FUNCTIONS of the 0.9.1 connector does not list them. TestBitmapRbm32Interop checks
// their bytes against the Fluss server instead. APPROX_COUNT_DISTINCT is Flink's (the fagg
// suite runs it), but its SHOW FUNCTIONS does not list it (a Calcite operator).
func init() {
	flussqlOwnFunctions = append(flussqlOwnFunctions, "APPROX_COUNT_DISTINCT", "RB_BUILD", "RB_CARDINALITY", "RB_CONTAINS", "RB_TO_ARRAY",
		"RB_OR", "RB_AND", "RB_XOR", "RB_ANDNOT", "RB_BUILD_AGG", "RB_OR_AGG", "RB_AND_AGG", "RB_XOR_AGG")
}

// flinkFaggKnown: none.
var flinkFaggKnown = map[string]string{}

// TestFlinkApproxCountDistinct compares APPROX_COUNT_DISTINCT where it estimates: 100 000
// distinct integers (a cross join of five VALUES of ten digits), in batch mode on Flink and
// on flussql. Both must be within 3 standard deviations of Flink's bound (a relative standard
// deviation of 1%) of the exact count; the figures are logged.
func TestFlinkApproxCountDistinct(t *testing.T) {
	gwAddr := os.Getenv(flinkGatewayEnv)
	if gwAddr == "" {
		t.Skipf("%s is not set: no Flink SQL Gateway to compare with", flinkGatewayEnv)
	}
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	fl := openFlinkSession(ctx, t, gwAddr, dbName)
	const digits = "(VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9))"
	q := "SELECT APPROX_COUNT_DISTINCT(a.x * 10000 + b.x * 1000 + c.x * 100 + d.x * 10 + e.x) FROM " +
		digits + " AS a(x), " + digits + " AS b(x), " + digits + " AS c(x), " + digits + " AS d(x), " + digits + " AS e(x)"
	const exact = 100000
	flink, err := fl.answer(ctx, q)
	require.NoError(t, err)
	require.Len(t, flink.rows, 1)
	ours, err := flussqlAnswer(ctx, db, q)
	require.NoError(t, err)
	require.Len(t, ours.rows, 1)
	t.Logf("exact %d, Flink %s (%s), flussql %s (%s)", exact, flink.rows[0][0], flink.types[0], ours.rows[0][0], ours.types[0])
	for who, v := range map[string]string{"Flink": flink.rows[0][0], "flussql": ours.rows[0][0]} {
		n, err := strconv.ParseInt(v, 10, 64)
		require.NoError(t, err, who)
		assert.LessOrEqual(t, math.Abs(float64(n-exact)), 0.03*exact, "%s estimates %d distinct values as %d", who, exact, n)
	}
}
