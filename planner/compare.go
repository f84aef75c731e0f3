package planner

import (
	"bytes"
	"cmp"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
)

// comparable reports whether values of t can be ordered by compareValues.
func comparableKind(k types.Kind) bool {
	return !k.Nested()
}

// compareValues orders two non-NULL values of the same type family; ok is
// false when they are not comparable (NaN, or different families).
func compareValues(a, b any) (int, bool) {
	switch x := a.(type) {
	case bool:
		y, ok := b.(bool)
		if !ok {
			return 0, false
		}
		switch {
		case x == y:
			return 0, true
		case !x:
			return -1, true
		}
		return 1, true
	case int8, int16, int32, int64:
		xi, _ := sqlkind.AsInt64(a)
		yi, ok := sqlkind.AsInt64(b)
		return cmp.Compare(xi, yi), ok
	case float32, float64:
		xf, _ := asFloat64(a)
		yf, ok := asFloat64(b)
		if !ok || math.IsNaN(xf) || math.IsNaN(yf) {
			return 0, false
		}
		return cmp.Compare(xf, yf), true
	case string:
		y, ok := b.(string)
		return strings.Compare(x, y), ok
	case []byte:
		y, ok := b.([]byte)
		return bytes.Compare(x, y), ok
	}
	// The fluss value types (DECIMAL, DATE, TIME, TIMESTAMP[_LTZ]) order themselves.
	if e := sqlkind.OfValue(a); e != nil && e.Compare != nil {
		return e.Compare(a, b)
	}
	return 0, false
}

func asFloat64(v any) (float64, bool) {
	switch x := v.(type) {
	case float32:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// matchLike matches s against a SQL LIKE pattern: % is any run of
// characters, _ exactly one character; everything else matches itself
// (there is no escape character). Matching is case-sensitive.
func matchLike(s, pattern string) bool {
	si, pi := 0, 0
	star, mark := -1, 0
	for si < len(s) {
		if pi < len(pattern) {
			pr, pw := utf8.DecodeRuneInString(pattern[pi:])
			sr, sw := utf8.DecodeRuneInString(s[si:])
			if pr == '%' {
				star, mark = pi, si
				pi += pw
				continue
			}
			if pr == '_' || pr == sr {
				si += sw
				pi += pw
				continue
			}
		}
		if star < 0 {
			return false
		}
		// Let the last % swallow one more character and retry.
		_, w := utf8.DecodeRuneInString(s[mark:])
		mark += w
		si, pi = mark, star+1
	}
	for pi < len(pattern) && pattern[pi] == '%' {
		pi++
	}
	return pi == len(pattern)
}
