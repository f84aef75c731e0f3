package engine

import (
	"context"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestTemporal(t *testing.T) {
	tsT, dT := types.NewTimestamp(3), types.NewDate()
	cols := []Column{{"ts", tsT}, {"d", dT}}
	at := func(s string) time.Time { v, _ := time.Parse("2006-01-02 15:04:05.000", s); return v }
	rows := [][]any{
		{fromTime(tsT, at("2024-02-29 13:45:07.250")), fromTime(dT, at("2024-02-29 00:00:00.000"))},
		{nil, nil},
		{fromTime(tsT, at("1969-12-31 23:59:59.999")), fromTime(dT, at("1969-12-31 00:00:00.000"))},
	}
	ts, d := col(0, "ts", tsT), col(1, "d", dT)
	for _, tc := range []struct {
		name string
		e    Expr
		want []any
	}{
		{"extract year", must(NewExtract("year", ts)), []any{int64(2024), nil, int64(1969)}},
		{"extract hour", must(NewExtract("HOUR", ts)), []any{int64(13), nil, int64(23)}},
		{"extract second", must(NewExtract("SECOND", ts)), []any{int64(7), nil, int64(59)}},
		{"extract quarter of a date", must(NewExtract("QUARTER", d)), []any{int64(1), nil, int64(4)}},
		{"extract day of week", must(NewExtract("DOW", d)), []any{int64(5), nil, int64(4)}},
		{"floor to hour", must(NewFloorTo("HOUR", ts, false)), []any{fromTime(tsT, at("2024-02-29 13:00:00.000")), nil, fromTime(tsT, at("1969-12-31 23:00:00.000"))}},
		{"ceil to day", must(NewFloorTo("DAY", ts, true)), []any{fromTime(tsT, at("2024-03-01 00:00:00.000")), nil, fromTime(tsT, at("1970-01-01 00:00:00.000"))}},
		{"floor to month", must(NewFloorTo("MONTH", ts, false)), []any{fromTime(tsT, at("2024-02-01 00:00:00.000")), nil, fromTime(tsT, at("1969-12-01 00:00:00.000"))}},
		{"floor a date to year", must(NewFloorTo("YEAR", d, false)), []any{fromTime(dT, at("2024-01-01 00:00:00.000")), nil, fromTime(dT, at("1969-01-01 00:00:00.000"))}},
		{"date_format", must(NewCall("DATE_FORMAT", []Expr{ts, strConst("yyyy-MM-dd'T'HH:mm:ss.SSS")})), []any{"2024-02-29T13:45:07.250", nil, "1969-12-31T23:59:59.999"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := run(t, &Project{Input: &Input{Cols: cols}, Exprs: []Expr{tc.e}, Names: []string{"x"}}, rows, 2, nil)
			require.NoError(t, err)
			var got []any
			for _, r := range out {
				got = append(got, r[0])
			}
			assert.Equal(t, tc.want, got, tc.e.String())
		})
	}
	_, err := NewExtract("HOUR", d)
	assert.ErrorContains(t, err, "needs a TIMESTAMP")
	_, err = NewFloorTo("DECADE", ts, false)
	assert.ErrorContains(t, err, "takes YEAR")
	_, err = NewCall("DATE_FORMAT", []Expr{ts, strConst("yyyy-Q")})
	assert.ErrorContains(t, err, "not supported")
}

func TestCurrent(t *testing.T) {
	now := time.Date(2025, 6, 7, 8, 9, 10, 0, time.UTC)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	exprs := []Expr{must(NewCurrent("CURRENT_DATE")), must(NewCurrent("CURRENT_TIMESTAMP")), must(NewExtract("YEAR", must(NewCurrent("NOW"))))}
	op, err := Build(context.Background(), &Project{Input: &OneRow{}, Exprs: exprs, Names: []string{"a", "b", "c"}}, nil, Options{Mem: mem, Now: now})
	require.NoError(t, err)
	var got []any
	require.NoError(t, Drain(op, func(b arrow.RecordBatch) error {
		for _, c := range b.Columns() {
			v, err := values(c)
			require.NoError(t, err)
			got = append(got, v[0])
		}
		return nil
	}))
	assert.Equal(t, []any{int32(20246), now.UnixMilli(), int64(2025)}, got)
}
