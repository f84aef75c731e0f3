package executor

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

func TestNestedValueToDriver(t *testing.T) {
	arr := types.NewArray(types.NewInt())
	got, err := valueCell(arr, []any{int32(1), nil, int32(3)})
	require.NoError(t, err)
	assert.Equal(t, []any{int64(1), nil, int64(3)}, got)

	m := types.NewMap(types.NewString().AsNotNull(), types.NewDecimal(5, 2))
	got, err = valueCell(m, []datum.MapEntry{{Key: "a", Value: datum.NewDecimal(150, 2)}, {Key: "b", Value: nil}})
	require.NoError(t, err)
	assert.Equal(t, []datum.MapEntry{{Key: "a", Value: "1.50"}, {Key: "b", Value: nil}}, got)

	row := types.NewRow(types.Field{Name: "d", Type: types.NewDate()}, types.Field{Name: "xs", Type: types.NewArray(types.NewString())})
	got, err = valueCell(row, []any{datum.Date(1), []any{"x"}})
	require.NoError(t, err)
	assert.Equal(t, []any{time.Date(1970, 1, 2, 0, 0, 0, 0, time.UTC), []any{"x"}}, got)

	_, err = valueCell(types.NewInt(), []any{int32(1)})
	require.ErrorIs(t, err, ErrNotSupported)
}
