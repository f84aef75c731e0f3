package planner

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/parser"
)

// allRow is a row of fluss.alltypes in the value model; set overrides
// columns by name.
func allRow(t *testing.T, set map[string]any) []any {
	info := testCatalog().tables[fluss.TablePath{Database: "fluss", Table: "alltypes"}]
	row := []any{
		true, int8(1), int16(2), int32(3), int64(4), float32(1.5), 2.5, datum.NewDecimal(1234, 2),
		"abc", "hello", []byte{1, 2}, []byte("xyz"), datum.Date(19723), datum.Time(3600000),
		datum.TimestampNTZOf(time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)),
		datum.TimestampLTZOf(time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)), nil,
	}
	for k, v := range set {
		i := info.Schema().Index(k)
		require.GreaterOrEqual(t, i, 0, k)
		row[i] = v
	}
	return row
}

// filterOf plans SELECT * FROM alltypes WHERE cond and returns its filter.
func filterOf(t *testing.T, cond string, args ...any) *Filter {
	t.Helper()
	st, err := parser.Parse("SELECT * FROM alltypes WHERE " + cond)
	require.NoError(t, err)
	p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss"})
	require.NoError(t, err)
	if len(args) > 0 {
		var as []Arg
		for i, a := range args {
			as = append(as, Arg{Ordinal: i + 1, Value: a})
		}
		p, err = Bind(p, as)
		require.NoError(t, err)
	}
	return p.(*Scan).Filter
}

func TestFilterEval(t *testing.T) {
	tests := []struct {
		cond string
		set  map[string]any
		want bool
	}{
		{"i = 3", nil, true},
		{"i = 4", nil, false},
		{"i <> 4", nil, true},
		{"i != 3", nil, false},
		{"i < 4 AND i <= 3 AND i > 2 AND i >= 3", nil, true},
		{"bi > 3", nil, true},
		{"ti = 1 AND si = 2", nil, true},
		{"f = 1.5 AND d > 2.4", nil, true},
		{"d = 2.5", map[string]any{"d": 2.5}, true},
		{"dec = 12.34", nil, true},
		{"dec > 12.335", nil, true},
		{"dec < 12.3401", nil, true},
		{"s = 'hello'", nil, true},
		{"s > 'help'", nil, false},
		{"c = 'abc'", nil, true},
		{"c = 'abcd'", nil, false},
		{"bs = X'78797a'", nil, true},
		{"dt = DATE '2024-01-01'", nil, true},
		{"dt = '2024-01-02'", nil, false},
		{"tm = TIME '01:00:00'", nil, true},
		{"ts = TIMESTAMP '2024-01-01 12:00:00'", nil, true},
		{"ts > '2024-01-01 11:59:59.999999'", nil, true},
		{"ltz = '2024-01-01T13:00:00+01:00'", nil, true},
		{"b", nil, true},
		{"NOT b", nil, false},
		{"b = FALSE", nil, false},
		{"TRUE", nil, true},
		{"FALSE OR i = 3", nil, true},
		// IN and BETWEEN.
		{"i IN (1, 2, 3)", nil, true},
		{"i IN (1, 2)", nil, false},
		{"i NOT IN (1, 2)", nil, true},
		{"i BETWEEN 1 AND 3", nil, true},
		{"i BETWEEN 4 AND 9", nil, false},
		{"i NOT BETWEEN 4 AND 9", nil, true},
		{"s BETWEEN 'a' AND 'z'", nil, true},
		// LIKE.
		{"s LIKE 'he%'", nil, true},
		{"s LIKE 'h_llo'", nil, true},
		{"s LIKE '%l%o'", nil, true},
		{"s LIKE 'hello_'", nil, false},
		{"s NOT LIKE 'x%'", nil, true},
		{"s LIKE '%'", map[string]any{"s": ""}, true},
		{"s LIKE '_'", map[string]any{"s": "é"}, true},
		// Column against column.
		{"i = ti", map[string]any{"ti": int8(3)}, true},
		{"bi >= i", nil, true},
		{"ts < ts", nil, false},
		// NULL: comparisons are unknown, so neither the condition nor its
		// negation passes; IS [NOT] NULL is never unknown.
		{"i = 3", map[string]any{"i": nil}, false},
		{"NOT (i = 3)", map[string]any{"i": nil}, false},
		{"i <> 3", map[string]any{"i": nil}, false},
		{"i IS NULL", map[string]any{"i": nil}, true},
		{"i IS NOT NULL", map[string]any{"i": nil}, false},
		{"i IS NOT NULL", nil, true},
		{"i = 3 OR s = 'hello'", map[string]any{"i": nil}, true},
		{"i = 3 AND s = 'hello'", map[string]any{"i": nil}, false},
		{"NOT (i = 3 AND s = 'nope')", map[string]any{"i": nil}, true},
		{"NOT (i = 3 OR s = 'nope')", map[string]any{"i": nil}, false},
		{"i = NULL", nil, false},
		{"NOT (i = NULL)", nil, false},
		{"i IN (1, NULL)", nil, false},
		{"NOT (i IN (1, NULL))", nil, false},
		{"i IN (3, NULL)", nil, true},
		{"i NOT IN (1, NULL)", nil, false},
		{"i BETWEEN NULL AND 1", nil, false},
		{"NOT (i BETWEEN NULL AND 1)", nil, true}, // 3 >= NULL is unknown, 3 <= 1 is false
		{"s LIKE 'h%'", map[string]any{"s": nil}, false},
		{"b", map[string]any{"b": nil}, false},
		{"NOT b", map[string]any{"b": nil}, false},
		{"d = 1", map[string]any{"d": 0.0 / zero()}, false},
	}
	for _, tt := range tests {
		t.Run(tt.cond, func(t *testing.T) {
			got, err := filterOf(t, tt.cond).Eval(allRow(t, tt.set))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func zero() float64 { return 0 }

func TestFilterPlaceholders(t *testing.T) {
	f := filterOf(t, "i = ? AND s LIKE ? AND dec BETWEEN ? AND ?", int64(3), "he%", "12.00", datum.NewDecimal(13, 0))
	ok, err := f.Eval(allRow(t, nil))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "i = 3 AND s LIKE 'he%' AND `dec` BETWEEN 12 AND 13", f.String())

	ok, err = filterOf(t, "i = ?", nil).Eval(allRow(t, nil))
	require.NoError(t, err)
	assert.False(t, ok, "i = NULL is unknown")
}

func TestFilterNilAndShortRow(t *testing.T) {
	var f *Filter
	ok, err := f.Eval(nil)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "none", f.String())

	_, err = filterOf(t, "i = 3").Eval([]any{true})
	require.Error(t, err, "a row shorter than the layout is an error, not a panic")
}

func TestMatchLike(t *testing.T) {
	tests := []struct {
		s, p string
		want bool
	}{
		{"", "", true},
		{"", "%", true},
		{"", "_", false},
		{"a", "", false},
		{"abc", "abc", true},
		{"abc", "ABC", false},
		{"abc", "a%", true},
		{"abc", "%c", true},
		{"abc", "%b%", true},
		{"abc", "a_c", true},
		{"abc", "a__c", false},
		{"aXbXc", "a%b%c", true},
		{"aaab", "%ab", true},
		{"abab", "%ab%ab", true},
		{"abab", "%ab%ab%ab", false},
		{"mississippi", "m%iss%ppi", true},
		{"mississippi", "m%iss%ppx", false},
		{"héllo", "h_llo", true},
		{"50%", "50%", true},
		{"x.y", "x_y", true},
		{"line\nbreak", "line%", true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, matchLike(tt.s, tt.p), "%q LIKE %q", tt.s, tt.p)
	}
}

func TestFilterValueErrorsNameTheColumnType(t *testing.T) {
	st, err := parser.Parse("SELECT * FROM alltypes WHERE dec > ? AND ti < ?")
	require.NoError(t, err)
	p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss"})
	require.NoError(t, err)
	_, err = Bind(p, []Arg{{Ordinal: 1, Value: "abc"}, {Ordinal: 2, Value: 1}})
	require.EqualError(t, err, `argument ?1: column "dec" is DECIMAL(10, 2); got string 'abc'`)
	_, err = Bind(p, []Arg{{Ordinal: 1, Value: 1}, {Ordinal: 2, Value: "x"}})
	require.EqualError(t, err, `argument ?2: column "ti" is TINYINT; got string 'x'`)
	// Values the column could not hold still compare.
	bp, err := Bind(p, []Arg{{Ordinal: 1, Value: "12.335"}, {Ordinal: 2, Value: 300}})
	require.NoError(t, err)
	ok, err := bp.(*Scan).Filter.Eval(allRow(t, nil))
	require.NoError(t, err)
	assert.True(t, ok, "dec 12.34 > 12.335 and ti 1 < 300")
}
