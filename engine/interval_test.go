package engine

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestIntervalArithmetic(t *testing.T) {
	tsT, dT, ltzT := types.NewTimestamp(6), types.NewDate(), types.NewTimestampLTZ(3)
	cols := []Column{{"ts", tsT}, {"d", dT}, {"ltz", ltzT}}
	at := func(s string) time.Time { v, _ := time.Parse("2006-01-02 15:04:05.999999", s); return v }
	rows := [][]any{
		{fromTime(tsT, at("2024-01-31 23:30:00.000001")), fromTime(dT, at("2024-01-31 00:00:00")), fromTime(ltzT, at("2023-12-31 12:00:00.5"))},
		{nil, nil, nil},
	}
	ts, d, ltz := col(0, "ts", tsT), col(1, "d", dT), col(2, "ltz", ltzT)
	for _, tc := range []struct {
		name string
		e    Expr
		want any
	}{
		{"ts + 1 month clamps", must(NewIntervalAdd(ts, "MONTH", 1, false, "INTERVAL '1' MONTH")), fromTime(tsT, at("2024-02-29 23:30:00.000001"))},
		{"ts - 1 hour", must(NewIntervalAdd(ts, "HOUR", 1, true, "INTERVAL '1' HOUR")), fromTime(tsT, at("2024-01-31 22:30:00.000001"))},
		{"ts + 30 minutes crosses midnight", must(NewIntervalAdd(ts, "MINUTE", 30, false, "INTERVAL '30' MINUTE")), fromTime(tsT, at("2024-02-01 00:00:00.000001"))},
		{"date - 1 quarter", must(NewIntervalAdd(d, "QUARTER", 1, true, "INTERVAL '1' QUARTER")), fromTime(dT, at("2023-10-31 00:00:00"))},
		{"date + 47 hours is one day", must(NewIntervalAdd(d, "HOUR", 47, false, "INTERVAL '47' HOUR")), fromTime(dT, at("2024-02-01 00:00:00"))},
		{"date - 47 hours is one day back", must(NewIntervalAdd(d, "HOUR", 47, true, "INTERVAL '47' HOUR")), fromTime(dT, at("2024-01-30 00:00:00"))},
		{"ltz + 1 year", must(NewIntervalAdd(ltz, "YEAR", 1, false, "INTERVAL '1' YEAR")), fromTime(ltzT, at("2024-12-31 12:00:00.5"))},
		{"ltz + 1500 ms", must(NewIntervalAdd(ltz, "MILLISECOND", 1500, false, "INTERVAL '1.5' SECOND")), fromTime(ltzT, at("2023-12-31 12:00:02"))},
		{"timestampadd week on a date", must(NewTimestampAdd("WEEK", intConst(-1), d)), fromTime(dT, at("2024-01-24 00:00:00"))},
		{"timestampadd minute on a date is a timestamp", must(NewTimestampAdd("MINUTE", intConst(90), d)), fromTime(types.NewTimestamp(0), at("2024-01-31 01:30:00"))},
		{"timestampdiff day", must(NewTimeDiff("DAY", ltz, ts)), int64(31)},
		{"timestampdiff month, day not reached", must(NewTimeDiff("MONTH", ts, d)), int64(0)},
		{"timestampdiff year backwards", must(NewTimeDiff("YEAR", ts, ltz)), int64(0)},
		{"timestampdiff minute", must(NewTimeDiff("MINUTE", d, ts)), int64(1410)},
		{"cast to a coarser timestamp truncates", must(NewCast(ts, types.NewTimestamp(3))), fromTime(types.NewTimestamp(3), at("2024-01-31 23:30:00"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, &Project{Input: &Input{Cols: cols}, Exprs: []Expr{tc.e}, Names: []string{"x"}}, rows, 1, nil)
			require.NoError(t, err)
			assert.Equal(t, [][]any{{tc.want}, {nil}}, out, tc.e.String())
		})
	}
	tsAdd := must(NewTimestampAdd("MINUTE", intConst(90), d))
	assert.Equal(t, types.Timestamp, tsAdd.Type().Kind)
	assert.Equal(t, types.Timestamp, must(NewIntervalAdd(ts, "MILLISECOND", 1, false, "x")).Type().Kind)
	assert.Equal(t, 3, must(NewIntervalAdd(col(0, "t0", types.NewTimestamp(0)), "MILLISECOND", 1, false, "x")).Type().Precision)
	assert.Equal(t, types.Int, must(NewTimeDiff("DAY", d, ts)).Type().Kind)
	_, err := NewIntervalAdd(intConst(1), "DAY", 1, false, "INTERVAL '1' DAY")
	assert.ErrorContains(t, err, "not INT")
	_, err = NewTimeDiff("DECADE", d, ts)
	assert.ErrorContains(t, err, "the unit must be")
	_, err = NewTimestampAdd("DAY", strConst("x"), d)
	assert.ErrorContains(t, err, "must be an integer")
}

func TestAddMonthsAndMonthsBetween(t *testing.T) {
	day := func(s string) time.Time { v, _ := time.Parse("2006-01-02 15:04", s); return v }
	for _, tc := range []struct {
		from string
		n    int64
		want string
	}{
		{"2024-01-31 10:00", 1, "2024-02-29 10:00"}, {"2023-01-31 10:00", 1, "2023-02-28 10:00"},
		{"2024-03-31 00:00", -1, "2024-02-29 00:00"}, {"2024-12-15 00:00", 1, "2025-01-15 00:00"},
		{"2024-01-15 00:00", -13, "2022-12-15 00:00"}, {"2024-02-29 00:00", 12, "2025-02-28 00:00"},
	} {
		assert.Equal(t, day(tc.want), addMonths(day(tc.from), tc.n), "%s + %d months", tc.from, tc.n)
	}
	for _, tc := range []struct {
		a, b string
		want int64
	}{
		{"2024-01-31 00:00", "2024-02-29 00:00", 1}, {"2024-01-31 12:00", "2024-02-29 10:00", 0},
		{"2024-01-15 00:00", "2024-03-14 23:59", 1}, {"2024-03-15 00:00", "2024-01-16 00:00", -1},
		{"2024-03-15 00:00", "2024-01-15 00:00", -2}, {"2020-02-29 00:00", "2021-02-28 00:00", 12},
	} {
		assert.Equal(t, tc.want, monthsBetween(day(tc.a), day(tc.b)), "%s → %s", tc.a, tc.b)
	}
}
