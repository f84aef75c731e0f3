package executor

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
)

// cellFunc returns the driver value of row i of a column; nulls are handled by the caller.
type cellFunc = sqlkind.Cell

// arrowCell builds, once per batch and column, the converter from an Arrow column of
// Fluss type t to driver values (the kinds table, kinds.go). Strings and bytes are copied
// out of the Arrow buffers.
func arrowCell(t types.DataType, arr arrow.Array) (cellFunc, error) {
	if t.Kind.Nested() {
		return nestedArrowCell(t, arr)
	}
	if ki, ok := infoOf(t.Kind); ok && ki.cell != nil {
		if cell := ki.cell(t, arr); cell != nil {
			return cell, nil
		}
	}
	return nil, notSupported(t, arr)
}

// valueCell converts one value of the fluss value model (lookups, limit scans) of type t
// to a driver value.
func valueCell(t types.DataType, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch x := v.(type) {
	case []any, []datum.MapEntry:
		return nestedValue(t, x)
	}
	if ki, ok := infoOf(t.Kind); ok && ki.value != nil {
		if out, ok := ki.value(t, v); ok {
			return out, nil
		}
	}
	return nil, fmt.Errorf("flussql: value %T of column type %s is %w", v, t, ErrNotSupported)
}
