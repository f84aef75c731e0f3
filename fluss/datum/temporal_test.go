package datum_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss/datum"
)

func TestTemporal(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	tm := time.Date(2024, 1, 2, 0, 30, 15, 123456789, cet)

	assert.Equal(t, datum.Date(19724), datum.DateOf(tm), "calendar date in the value's zone")
	assert.Equal(t, "2024-01-02", datum.DateOf(tm).String())
	assert.Equal(t, "1969-12-31", datum.Date(-1).String())
	assert.Equal(t, time.Date(2024, 1, 2, 0, 0, 0, 0, time.UTC), datum.DateOf(tm).Time())

	assert.Equal(t, datum.Time(30*60000+15123), datum.TimeOfDay(tm))
	assert.Equal(t, "00:30:15.123", datum.TimeOfDay(tm).String())
	assert.Equal(t, 30*time.Minute+15123*time.Millisecond, datum.TimeOfDay(tm).Duration())

	ntz := datum.TimestampNTZOf(tm)
	assert.Equal(t, datum.TimestampNTZ{Millis: 1704155415123, NanoOfMilli: 456789}, ntz, "wall clock as if UTC")
	assert.Equal(t, "2024-01-02 00:30:15.123456789", ntz.String())

	ltz := datum.TimestampLTZOf(tm)
	assert.Equal(t, datum.TimestampLTZ{EpochMillis: 1704151815123, NanoOfMilli: 456789}, ltz, "the instant")
	assert.True(t, ltz.Time().Equal(tm))
	assert.Equal(t, "2024-01-01 23:30:15.123456789Z", ltz.String())

	before := time.Date(1969, 12, 31, 23, 59, 59, 999_000_001, time.UTC)
	assert.Equal(t, datum.TimestampLTZ{EpochMillis: -1, NanoOfMilli: 1}, datum.TimestampLTZOf(before))
	assert.True(t, datum.TimestampNTZOf(before).Time().Equal(before))
}
