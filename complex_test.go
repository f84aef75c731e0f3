package flussql

import (
	"database/sql"
	"encoding/json"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestIsNestedArg(t *testing.T) {
	s := []string{"a"}
	tests := []struct {
		arg  any
		want bool
	}{
		{[]string{"a"}, true},
		{&s, true},
		{[2]int{1, 2}, true},
		{map[string]int{}, true},
		{struct{ A int }{}, true},
		{[]datum.MapEntry{}, true},
		{[]byte("x"), false},
		{json.RawMessage(`{}`), false},
		{time.Now(), false},
		{sql.NullString{}, false}, // a driver.Valuer: database/sql converts it
		{"x", false},
		{(*[]string)(nil), false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, isNestedArg(tt.arg), "%T", tt.arg)
	}
}

func TestArrayMapRowScanners(t *testing.T) {
	var tags []string
	require.NoError(t, Array(&tags).Scan([]any{"a", "b"}))
	assert.Equal(t, []string{"a", "b"}, tags)

	require.NoError(t, Array(&tags).Scan(nil))
	assert.Nil(t, tags)

	var ints []int32
	require.NoError(t, Array(&ints).Scan([]any{int64(1), int64(-2)}))
	assert.Equal(t, []int32{1, -2}, ints)
	var small []int8
	err := Array(&small).Scan([]any{int64(300)})
	require.ErrorContains(t, err, "cannot store value[1] (int64 300) into int8")

	err = Array(&tags).Scan([]any{"a", nil})
	require.ErrorContains(t, err, "value[2] is NULL; scan into a pointer element type")
	var ptrs []*string
	require.NoError(t, Array(&ptrs).Scan([]any{"a", nil}))
	require.Len(t, ptrs, 2)
	assert.Equal(t, "a", *ptrs[0])
	assert.Nil(t, ptrs[1])
	var nulls []sql.NullInt64
	require.NoError(t, Array(&nulls).Scan([]any{int64(7), nil}))
	assert.Equal(t, []sql.NullInt64{{Int64: 7, Valid: true}, {}}, nulls)

	var nested [][]float64
	require.NoError(t, Array(&nested).Scan([]any{[]any{1.5}, []any{}, nil}))
	assert.Equal(t, [][]float64{{1.5}, {}, nil}, nested)

	var decs []float64
	require.NoError(t, Array(&decs).Scan([]any{"1.25"}))
	assert.Equal(t, []float64{1.25}, decs)

	var m map[string]int64
	require.NoError(t, Map(&m).Scan([]datum.MapEntry{{Key: "a", Value: int64(1)}, {Key: "b", Value: int64(2)}}))
	assert.Equal(t, map[string]int64{"a": 1, "b": 2}, m)
	var mp map[int32]*string
	require.NoError(t, Map(&mp).Scan([]datum.MapEntry{{Key: int64(1), Value: nil}}))
	assert.Equal(t, map[int32]*string{1: nil}, mp)

	type addr struct {
		City string
		Zip  *int32
		note string // unexported: skipped
	}
	var a addr
	require.NoError(t, Row(&a).Scan([]any{"Oslo", int64(150)}))
	assert.Equal(t, "Oslo", a.City)
	assert.Empty(t, a.note, "an unexported field is skipped")
	require.NotNil(t, a.Zip)
	assert.Equal(t, int32(150), *a.Zip)
	err = Row(&a).Scan([]any{"Oslo"})
	require.ErrorContains(t, err, "value has 1 fields; flussql.addr has 2 exported fields")

	var anyVals []any
	require.NoError(t, Array(&anyVals).Scan([]any{int64(1), "x", nil}))
	assert.Equal(t, []any{int64(1), "x", nil}, anyVals)

	require.ErrorContains(t, Array(tags).Scan([]any{}), "destination must be a non-nil pointer")
	require.ErrorContains(t, Array(&m).Scan([]any{}), "destination must point to a slice")
	require.ErrorContains(t, Map(&m).Scan([]any{"x"}), "cannot store value ([]interface {}) into map[string]int64")
}

func TestArrayOfMapOf(t *testing.T) {
	var tags ArrayOf[string]
	require.NoError(t, tags.Scan([]any{"a", "b"}))
	assert.Equal(t, ArrayOf[string]{"a", "b"}, tags)
	require.NoError(t, tags.Scan(nil))
	assert.Nil(t, tags)

	var grid ArrayOf[ArrayOf[int64]]
	require.NoError(t, grid.Scan([]any{[]any{int64(1)}, nil}))
	assert.Equal(t, ArrayOf[ArrayOf[int64]]{{1}, nil}, grid)

	var m MapOf[string, int32]
	require.NoError(t, m.Scan([]datum.MapEntry{{Key: "k", Value: int64(2)}}))
	assert.Equal(t, MapOf[string, int32]{"k": 2}, m)
	require.Error(t, m.Scan([]any{"x"}))

	assert.True(t, isNestedArg(ArrayOf[string]{"a"}), "an ArrayOf argument goes to the planner as a slice")
	assert.True(t, isNestedArg(MapOf[string, int]{}))
}
