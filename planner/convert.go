package planner

import (
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// This file converts SQL literals and strings into the value model of a
// column's type, by the conversions of the kind's entry in internal/sqlkind:
// numbers are range-checked (nothing wraps around), decimals are exact (no
// rounding), temporal strings are parsed, timestamps are truncated to the
// column's precision as a CAST would.

// mismatch is the error for a value that does not fit a column's type.
func mismatch(col string, t types.DataType, got string) error { return sqlkind.Mismatch(col, t, got) }

// convertLiteral converts a SQL literal for column col of type t.
func convertLiteral(col string, t types.DataType, lit *parser.Literal, loc *time.Location) (any, error) {
	switch lit.Kind {
	case parser.LitNull:
		return nil, nil
	case parser.LitString:
		return fromString(col, t, lit.Value, loc, "string "+lit.String())
	case parser.LitInt, parser.LitNumber:
		v, err := fromNumberText(col, t, lit.Value)
		if errors.Is(err, sqlkind.ErrNoFit) {
			return nil, mismatch(col, t, "number "+lit.Value)
		}
		return v, err
	}
	k := sqlkind.Of(t.Kind)
	switch {
	case k != nil && k.Literals.Has(lit.Kind) && lit.Kind == parser.LitBool:
		return k.Bool(lit.Value == "true"), nil
	case k != nil && k.Literals.Has(lit.Kind) && lit.Kind == parser.LitBytes:
		b, err := hex.DecodeString(lit.Value)
		if err != nil {
			return nil, fmt.Errorf("column %q: bad hex literal %s", col, lit)
		}
		return k.Bytes(col, t, b, loc)
	case k != nil && k.Literals.Has(lit.Kind): // DATE, TIME, TIMESTAMP '…'
		return fromString(col, t, lit.Value, loc, lit.String())
	case lit.Kind == parser.LitBool:
		return nil, mismatch(col, t, "boolean "+lit.String())
	}
	return nil, mismatch(col, t, lit.String())
}

// fromString converts text for column col; shown is how the value appears
// in errors.
func fromString(col string, t types.DataType, s string, loc *time.Location, shown string) (any, error) {
	k := sqlkind.Of(t.Kind)
	if k == nil {
		return nil, fmt.Errorf("column %q is %s; values of this type cannot be given in SQL", col, typeName(t))
	}
	v, err := k.Text(col, t, s, loc)
	if err == sqlkind.ErrNoFit {
		return nil, mismatch(col, t, shown)
	}
	return v, err
}

// fromNumberText converts a number written as text for a numeric column;
// sqlkind.ErrNoFit when the text is no number or the column is not numeric.
func fromNumberText(col string, t types.DataType, text string) (any, error) {
	if k := sqlkind.Of(t.Kind); k != nil && k.Number != nil {
		return k.Number(col, t, text)
	}
	return nil, sqlkind.ErrNoFit
}
