package planner

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss/datum"
)

// TestPartitionLiteral: the value of a missing partition is written as the text of its SQL
// literal in the ALTER TABLE … ADD PARTITION the error suggests.
func TestPartitionLiteral(t *testing.T) {
	ts := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tt := range []struct {
		v    any
		want string
	}{
		{"O'Brien", "'O''Brien'"},
		{[]byte("ab"), "'ab'"},
		{int32(7), "'7'"},
		{true, "'TRUE'"}, // ADD PARTITION converts it for the BOOLEAN key: partition "true",
		{datum.DateOf(ts), "'2024-01-02'"},
		{datum.TimeOfDay(ts), "'03:04:05.000'"},
		{datum.TimestampNTZOf(ts), "'2024-01-02 03:04:05'"},
		{datum.TimestampLTZOf(ts), "'2024-01-02T03:04:05Z'"},
	} {
		assert.Equal(t, tt.want, partitionLiteral(tt.v), "%T", tt.v)
	}
}
