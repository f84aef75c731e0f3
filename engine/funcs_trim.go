package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/flussql/flussql/fluss/types"
)

// trimPositionType types TRIM, LTRIM and RTRIM (s[, characters]: SQL's TRIM([BOTH |
// LEADING | TRAILING] [characters] FROM s), spaces by default) and POSITION(x, s) (SQL's
// POSITION(x IN s): the 1-based character position of the first x in s, 0 when absent).
func trimPositionType(name string, args []Expr, argc func(lo, hi int) error, str func(i int) error) (types.DataType, error) {
	if name == "POSITION" {
		if err := firstErr(argc(2, 2), str(0), str(1)); err != nil {
			return types.DataType{}, err
		}
		return types.NewInt(), nil
	}
	if err := firstErr(argc(1, 2), str(0)); err != nil {
		return types.DataType{}, err
	}
	if len(args) == 2 {
		if err := str(1); err != nil {
			return types.DataType{}, err
		}
	}
	return types.NewString(), nil
}

// trimPosition evaluates TRIM, LTRIM, RTRIM and POSITION on one row of non-NULL values.
func trimPosition(name string, v []any) (any, error) {
	s := v[0].(string)
	if name == "POSITION" {
		needle, hay := s, v[1].(string)
		i := strings.Index(hay, needle)
		if i < 0 {
			return int64(0), nil
		}
		return int64(utf8.RuneCountInString(hay[:i]) + 1), nil
	}
	cut := " "
	if len(v) > 1 {
		cut = v[1].(string)
	}
	switch name {
	case "LTRIM":
		return strings.TrimLeft(s, cut), nil
	case "RTRIM":
		return strings.TrimRight(s, cut), nil
	}
	return strings.Trim(s, cut), nil
}
