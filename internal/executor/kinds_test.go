package executor

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// sampleType is a valid type of kind k (parameters filled in).
func sampleType(k types.Kind) types.DataType {
	t := types.DataType{Kind: k}
	switch k {
	case types.Decimal:
		t.Precision, t.Scale = 10, 2
	case types.Char, types.Binary:
		t.Length = 4
	case types.Time, types.Timestamp, types.TimestampLTZ:
		t.Precision = 3
	}
	return t
}

// Every kind has an entry in the kinds table, and every scalar kind converts a column
// of its Arrow type (types.ArrowType) to values of the driver type the table names.
func TestKindsTableComplete(t *testing.T) {
	for _, k := range types.Kinds() {
		t.Run(k.String(), func(t *testing.T) {
			ki, ok := infoOf(k)
			require.True(t, ok, "kind %s has no entry in the kinds table (kinds.go)", k)
			require.NotNil(t, ki.scan)
			require.NotNil(t, ki.nullScan)
			require.NotNil(t, ki.driver)
			if k.Nested() {
				return
			}
			require.NotNil(t, ki.cell, "scalar kind %s has no Arrow converter", k)
			typ := sampleType(k)
			at, err := types.ArrowType(typ)
			require.NoError(t, err)
			b := array.NewBuilder(memory.NewGoAllocator(), at)
			defer b.Release()
			b.AppendEmptyValue()
			arr := b.NewArray()
			defer arr.Release()
			for name, conv := range map[string]func() (cellFunc, error){
				"arrowCell":  func() (cellFunc, error) { return arrowCell(typ, arr) },
				"batchCells": func() (cellFunc, error) { return batchCells(typ, arr) },
			} {
				cell, err := conv()
				require.NoError(t, err, name)
				assert.Equal(t, ki.driver, typeOf(cell(0)), name)
			}
		})
	}
}

// A column whose Arrow type is not its kind's is reported, not misread.
func TestArrowCellWrongArrowType(t *testing.T) {
	b := array.NewInt32Builder(memory.NewGoAllocator())
	defer b.Release()
	b.Append(1)
	arr := b.NewArray()
	defer arr.Release()
	_, err := arrowCell(types.NewString(), arr)
	require.ErrorIs(t, err, ErrNotSupported)
	assert.EqualError(t, err, "flussql: column type STRING (Arrow int32) is not supported")
}

func typeOf(v any) reflect.Type { return reflect.TypeOf(v) }
