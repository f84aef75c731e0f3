package flussql_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/engine"
)

// flinkUncheckedFunctions are the registry's functions that no Flink oracle statement runs,
// and why.
var flinkUncheckedFunctions = map[string]string{
	"CURRENT_DATABASE": "a session value: flussql's database is the test's, Flink's its catalog's default",
	"VERSION":          "flussql's own: the driver's version, Flink has none",
	// Fluss's rb_* functions are not in the 0.9.1 Flink connector the oracle runs; their
	// bitmaps are checked byte for byte against the server's rbm32 aggregation instead
	// (TestBitmapRbm32Interop, TestBitmapArrays).
	"RB_AND": flinkNoBitmaps, "RB_ANDNOT": flinkNoBitmaps, "RB_AND_AGG": flinkNoBitmaps, "RB_BUILD": flinkNoBitmaps,
	"RB_BUILD_AGG": flinkNoBitmaps, "RB_CARDINALITY": flinkNoBitmaps, "RB_CONTAINS": flinkNoBitmaps, "RB_OR": flinkNoBitmaps,
	"RB_OR_AGG": flinkNoBitmaps, "RB_TO_ARRAY": flinkNoBitmaps, "RB_XOR": flinkNoBitmaps, "RB_XOR_AGG": flinkNoBitmaps,
}

const flinkNoBitmaps = "not in Fluss 0.9.1's Flink connector: checked against the server's rbm32 aggregation"

// flinkSpelled are functions whose calls are spelled otherwise in SQL.
var flinkSpelled = map[string]string{"IS_JSON": "IS JSON"}

// TestFlinkOracleCoversRegistry fails for a function of the registry that no statement of the
// Flink oracle (TestFlinkDifferential's cases and every TestFlinkOracle suite, grid included)
// calls, unless flinkUncheckedFunctions says why: issue 31's proof is every function checked
// against Flink. It needs no cluster: it reads the statements.
func TestFlinkOracleCoversRegistry(t *testing.T) {
	var all []flinkDiffCase
	for _, cs := range [][]flinkDiffCase{
		flinkDiffCases, flinkWindowCases, flinkTimeCases, flinkZoneCases, flinkFunctionCases, flinkNumberCases,
		flinkBuiltinCases(), flinkFaggCases(), flinkMapCases(), flinkArrayCases(), flinkScalarCases(), flinkGridCases(),
	} {
		all = append(all, cs...)
	}
	var text strings.Builder
	for _, c := range all {
		text.WriteString(strings.ToUpper(c.sql))
		text.WriteByte('\n')
	}
	sqls := text.String()
	var missing []string
	for _, d := range engine.Functions() {
		names := append([]string{d.Name}, d.Aliases...)
		if sp, ok := flinkSpelled[d.Name]; ok {
			names = append(names, sp)
		}
		found := slices.ContainsFunc(names, func(n string) bool {
			return regexp.MustCompile(`(^|[^A-Z0-9_])` + regexp.QuoteMeta(strings.ToUpper(n)) + `(\b|$)`).MatchString(sqls)
		})
		if !found {
			if _, ok := flinkUncheckedFunctions[d.Name]; !ok {
				missing = append(missing, d.Name)
			}
		}
	}
	t.Logf("%d oracle statements", len(all))
	assert.Empty(t, missing, "functions no Flink oracle statement calls: add cases, or say why in flinkUncheckedFunctions")
}
