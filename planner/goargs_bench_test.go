package planner

import (
	"testing"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// BenchmarkConvertArg measures the INSERT hot path's conversion of one Go argument.
func BenchmarkConvertArg(b *testing.B) {
	ts := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.UTC)
	cases := []struct {
		name string
		t    types.DataType
		x    any
	}{
		{"string/STRING", types.NewString(), "name"},
		{"int64/BIGINT", types.NewBigInt(), int64(42)},
		{"int/INT", types.NewInt(), 42},
		{"float64/DOUBLE", types.NewDouble(), 1.5},
		{"string/INT", types.NewInt(), "42"},
		{"string/DATE", types.NewDate(), "2024-05-06"},
		{"time/TIMESTAMP", types.NewTimestamp(3), ts},
		{"decimal/DECIMAL", types.NewDecimal(10, 2), datum.NewDecimal(12345, 2)},
		{"string/DECIMAL", types.NewDecimal(15, 2), "104949.5"},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := convertArg("c", c.t, c.x, time.UTC); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
