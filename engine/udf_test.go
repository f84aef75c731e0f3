package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

func TestFunctionSet(t *testing.T) {
	var s FunctionSet
	double := ScalarUDF{Name: "twice", Args: []types.DataType{types.NewBigInt()}, Result: types.NewBigInt(),
		Fn: func(a []any) (any, error) { return 2 * a[0].(int64), nil }}
	require.NoError(t, s.RegisterScalar(double))
	assert.ErrorContains(t, s.RegisterScalar(double), "registered already")
	assert.ErrorContains(t, s.RegisterScalar(ScalarUDF{Name: "UPPER", Fn: double.Fn}), "built in")
	assert.ErrorContains(t, s.RegisterScalar(ScalarUDF{Name: "a b", Fn: double.Fn}), "word")
	d := s.Lookup("TWICE")
	require.NotNil(t, d)
	assert.Equal(t, []string{"TWICE"}, s.Names())
	call, err := NewCallOf(d, []Expr{intConst(21)}) // INT is cast to the declared BIGINT
	require.NoError(t, err)
	assert.Equal(t, "TWICE(CAST(21 AS BIGINT))", call.String())
	assert.False(t, Constant(call), "a user function is never folded: it may not be pure")
	_, err = NewCallOf(d, nil)
	assert.Error(t, err)
	var none *FunctionSet
	assert.Nil(t, none.Lookup("TWICE"))
}
