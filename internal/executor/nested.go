package executor

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// nestedArrowCell converts an ARRAY, MAP or ROW column of a scan batch.
func nestedArrowCell(t types.DataType, arr arrow.Array) (cellFunc, error) {
	read, err := fluss.ArrowValueReader(t)
	if err != nil {
		return nil, fmt.Errorf("flussql: column type %s (Arrow %s): %w", t, arr.DataType(), err)
	}
	return func(i int) any {
		v, _ := nestedValue(t, read(arr, i))
		return v
	}, nil
}

// nestedValue converts a value-model ARRAY, MAP or ROW value of type t into the
// driver's representation, element by element.
func nestedValue(t types.DataType, v any) (any, error) {
	switch x := v.(type) {
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			var et types.DataType
			switch {
			case t.Kind == types.Array && t.Elem != nil:
				et = *t.Elem
			case t.Kind == types.Row && i < len(t.Fields):
				et = t.Fields[i].Type
			default:
				return nil, fmt.Errorf("flussql: a list value for column type %s is %w", t, ErrNotSupported)
			}
			c, err := valueCell(et, e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	case []datum.MapEntry:
		if t.Kind != types.Map || t.Key == nil || t.Value == nil {
			return nil, fmt.Errorf("flussql: map entries for column type %s are %w", t, ErrNotSupported)
		}
		out := make([]datum.MapEntry, len(x))
		for i, e := range x {
			k, err := valueCell(*t.Key, e.Key)
			if err != nil {
				return nil, err
			}
			val, err := valueCell(*t.Value, e.Value)
			if err != nil {
				return nil, err
			}
			out[i] = datum.MapEntry{Key: k, Value: val}
		}
		return out, nil
	}
	return nil, fmt.Errorf("flussql: value %T of column type %s is %w", v, t, ErrNotSupported)
}
