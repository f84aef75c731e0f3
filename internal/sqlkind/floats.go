package sqlkind

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// FLOAT and DOUBLE: values are float32 and float64.
func init() {
	for _, k := range []types.Kind{types.Float, types.Double} {
		model := typeFloat64
		if k == types.Float {
			model = typeFloat32
		}
		register(k, &Kind{Family: Float, Partition: true, Model: model,
			Text: numberText(floatNumber), Number: floatNumber,
			Int: floatInt, Uint: floatUint, Float: floatFloat, Driver: floatDriver(k)})
	}
}

func floatInt(_ string, t types.DataType, n int64) (any, error) {
	if t.Kind == types.Float {
		return float32(n), nil
	}
	return float64(n), nil
}

func floatUint(_ string, t types.DataType, n uint64) (any, error) {
	if t.Kind == types.Float {
		return float32(n), nil
	}
	return float64(n), nil
}

func floatFloat(col string, t types.DataType, f float64, bits int) (any, error) {
	if t.Kind == types.Float {
		if !math.IsInf(f, 0) && math.Abs(f) > math.MaxFloat32 {
			return nil, OutOfRange(col, t, strconv.FormatFloat(f, 'g', -1, bits))
		}
		return float32(f), nil
	}
	return f, nil
}

// floatNumber takes decimal and scientific numbers, NaN and infinities.
func floatNumber(col string, t types.DataType, text string) (any, error) {
	bits := 64
	if t.Kind == types.Float {
		bits = 32
	}
	if _, ok := ParseRat(text); !ok && !isSpecialFloat(text) {
		return nil, ErrNoFit
	}
	f, err := strconv.ParseFloat(text, bits)
	if errors.Is(err, strconv.ErrRange) {
		return nil, OutOfRange(col, t, text)
	} else if err != nil {
		return nil, ErrNoFit
	}
	if bits == 32 {
		return float32(f), nil
	}
	return f, nil
}

func isSpecialFloat(s string) bool {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan", "inf", "infinity":
		return true
	}
	return false
}

// floatDriver is the Driver of FLOAT and DOUBLE: Next returns float64.
func floatDriver(k types.Kind) Driver {
	d := Driver{NullScan: typeNullFloat64, Value: typeFloat64, FromValue: floatValue}
	if k == types.Float {
		d.Scan = typeFloat32
		d.Cell = cellOf(func(_ types.DataType, a *array.Float32) Cell { return func(i int) any { return float64(a.Value(i)) } })
		d.Slab = slabOf(func(a *array.Float32) Cell {
			vals := a.Float32Values()
			return float64Slab(a.Len(), func(i int) float64 { return float64(vals[i]) })
		})
		return d
	}
	d.Scan = typeFloat64
	d.Cell = cellOf(func(_ types.DataType, a *array.Float64) Cell { return func(i int) any { return a.Value(i) } })
	d.Slab = slabOf(func(a *array.Float64) Cell {
		vals := a.Float64Values()
		return float64Slab(a.Len(), func(i int) float64 { return vals[i] })
	})
	return d
}

func floatValue(_ types.DataType, v any) (any, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	return nil, false
}
