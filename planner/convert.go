package planner

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// This file converts SQL literals, strings and Go values into the value
// model of a column's type. Numbers are range-checked (nothing wraps
// around), decimals are exact (no rounding), temporal strings are parsed,
// timestamps are truncated to the column's precision as a CAST would.

// mismatch is the error for a value that does not fit a column's type.
func mismatch(col string, t types.DataType, got string) error {
	return fmt.Errorf("column %q is %s; got %s", col, typeName(t), got)
}

func outOfRange(col string, t types.DataType, v string) error {
	return fmt.Errorf("column %q is %s; %s is out of range", col, typeName(t), v)
}

// errNotNumber marks text that is not a number at all.
var errNotNumber = errors.New("not a number")

// convertLiteral converts a SQL literal for column col of type t.
func convertLiteral(col string, t types.DataType, lit *parser.Literal, loc *time.Location) (any, error) {
	switch lit.Kind {
	case parser.LitNull:
		return nil, nil
	case parser.LitString:
		return fromString(col, t, lit.Value, loc, "string "+lit.String())
	case parser.LitInt, parser.LitNumber:
		v, err := fromNumberText(col, t, lit.Value)
		if errors.Is(err, errNotNumber) {
			return nil, mismatch(col, t, "number "+lit.Value)
		}
		return v, err
	case parser.LitBool:
		if t.Kind == types.Boolean {
			return lit.Value == "true", nil
		}
		return nil, mismatch(col, t, "boolean "+lit.String())
	case parser.LitBytes:
		if t.Kind == types.Binary || t.Kind == types.Bytes {
			b, err := hex.DecodeString(lit.Value)
			if err != nil {
				return nil, fmt.Errorf("column %q: bad hex literal %s", col, lit)
			}
			return checkBinary(col, t, b)
		}
	case parser.LitDate:
		if t.Kind == types.Date || t.Kind == types.Timestamp || t.Kind == types.TimestampLTZ {
			return fromString(col, t, lit.Value, loc, lit.String())
		}
	case parser.LitTime:
		if t.Kind == types.Time {
			return fromString(col, t, lit.Value, loc, lit.String())
		}
	case parser.LitTimestamp:
		if t.Kind == types.Timestamp || t.Kind == types.TimestampLTZ {
			return fromString(col, t, lit.Value, loc, lit.String())
		}
	}
	return nil, mismatch(col, t, lit.String())
}

// fromString converts text for column col; shown is how the value appears
// in errors.
func fromString(col string, t types.DataType, s string, loc *time.Location, shown string) (any, error) {
	switch t.Kind {
	case types.Char, types.String:
		if t.Kind == types.Char && utf8.RuneCountInString(s) > t.Length {
			return nil, fmt.Errorf("column %q is %s; %s is longer than %d characters", col, typeName(t), parser.QuoteString(s), t.Length)
		}
		return s, nil
	case types.Boolean:
		switch {
		case strings.EqualFold(s, "true"):
			return true, nil
		case strings.EqualFold(s, "false"):
			return false, nil
		}
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Float, types.Double, types.Decimal:
		v, err := fromNumberText(col, t, s)
		if !errors.Is(err, errNotNumber) {
			return v, err
		}
	case types.Binary, types.Bytes:
		return checkBinary(col, t, []byte(s))
	case types.Date:
		if d, err := time.Parse("2006-01-02", s); err == nil {
			return datum.DateOf(d), nil
		}
	case types.Time:
		for _, layout := range []string{"15:04:05.999999999", "15:04"} {
			if d, err := time.Parse(layout, s); err == nil {
				return datum.TimeOfDay(d), nil
			}
		}
	case types.Timestamp:
		if ts, ok := parseTimestamp(s, time.UTC, false); ok {
			return datum.TimestampNTZOf(truncate(ts, t.Precision)), nil
		}
	case types.TimestampLTZ:
		if ts, ok := parseTimestamp(s, loc, true); ok {
			return datum.TimestampLTZOf(truncate(ts, t.Precision)), nil
		}
	default:
		return nil, fmt.Errorf("column %q is %s; values of this type cannot be given in SQL", col, typeName(t))
	}
	return nil, mismatch(col, t, shown)
}

var zonelessLayouts = []string{
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02",
}

var zonedLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00"}

// parseTimestamp parses a date-time without a zone in loc and, when zoned
// is set, also one with a zone offset (RFC 3339).
func parseTimestamp(s string, loc *time.Location, zoned bool) (time.Time, bool) {
	if loc == nil {
		loc = time.UTC
	}
	for _, layout := range zonelessLayouts {
		if ts, err := time.ParseInLocation(layout, s, loc); err == nil {
			return ts, true
		}
	}
	if zoned {
		for _, layout := range zonedLayouts {
			if ts, err := time.Parse(layout, s); err == nil {
				return ts, true
			}
		}
	}
	return time.Time{}, false
}

// truncate drops the digits of ts beyond the fractional precision p.
func truncate(ts time.Time, p int) time.Time {
	if p >= 9 || p < 0 {
		return ts
	}
	d := time.Duration(1)
	for range 9 - p {
		d *= 10
	}
	return ts.Truncate(d)
}

func checkBinary(col string, t types.DataType, b []byte) (any, error) {
	if t.Kind == types.Binary && len(b) > t.Length {
		return nil, fmt.Errorf("column %q is %s; a value of %d bytes is too long", col, typeName(t), len(b))
	}
	return b, nil
}

// fromNumberText converts a number written as text for a numeric column;
// errNotNumber when the text is no number or the column is not numeric.
func fromNumberText(col string, t types.DataType, text string) (any, error) {
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.Int, types.BigInt:
		n, err := strconv.ParseInt(text, 10, 64)
		if err == nil {
			return fitInt(col, t, n)
		}
		if errors.Is(err, strconv.ErrRange) {
			return nil, outOfRange(col, t, text)
		}
		r, ok := parseRat(text)
		if !ok || !r.IsInt() {
			return nil, errNotNumber
		}
		if !r.Num().IsInt64() {
			return nil, outOfRange(col, t, text)
		}
		return fitInt(col, t, r.Num().Int64())
	case types.Float, types.Double:
		bits := 64
		if t.Kind == types.Float {
			bits = 32
		}
		if _, ok := parseRat(text); !ok && !isSpecialFloat(text) {
			return nil, errNotNumber
		}
		f, err := strconv.ParseFloat(text, bits)
		if errors.Is(err, strconv.ErrRange) {
			return nil, outOfRange(col, t, text)
		} else if err != nil {
			return nil, errNotNumber
		}
		if bits == 32 {
			return float32(f), nil
		}
		return f, nil
	case types.Decimal:
		r, ok := parseRat(text)
		if !ok {
			return nil, errNotNumber
		}
		return fitDecimal(col, t, r, text)
	}
	return nil, errNotNumber
}

func isSpecialFloat(s string) bool {
	switch strings.ToLower(strings.TrimLeft(s, "+-")) {
	case "nan", "inf", "infinity":
		return true
	}
	return false
}

// parseRat parses a plain or scientific decimal number exactly
// ([+-]digits[.digits][e[+-]digits]); big.Rat alone would also take
// fractions and hex.
func parseRat(s string) (*big.Rat, bool) {
	t := strings.TrimLeft(s, "+-")
	if len(s)-len(t) > 1 {
		return nil, false
	}
	mant, exp, hasExp := strings.Cut(strings.ToLower(t), "e")
	ip, fp, _ := strings.Cut(mant, ".")
	if ip+fp == "" || !digitsOnly(ip) || !digitsOnly(fp) {
		return nil, false
	}
	if hasExp {
		e := strings.TrimLeft(exp, "+-")
		if e == "" || len(exp)-len(e) > 1 || !digitsOnly(e) || len(e) > 4 {
			return nil, false
		}
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

func digitsOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// fitInt checks n against an integer column and returns it in the
// column's Go type.
func fitInt(col string, t types.DataType, n int64) (any, error) {
	switch t.Kind {
	case types.TinyInt:
		if n >= math.MinInt8 && n <= math.MaxInt8 {
			return int8(n), nil
		}
	case types.SmallInt:
		if n >= math.MinInt16 && n <= math.MaxInt16 {
			return int16(n), nil
		}
	case types.Int:
		if n >= math.MinInt32 && n <= math.MaxInt32 {
			return int32(n), nil
		}
	case types.BigInt:
		return n, nil
	default:
		return nil, mismatch(col, t, "integer "+strconv.FormatInt(n, 10))
	}
	return nil, outOfRange(col, t, strconv.FormatInt(n, 10))
}

var bigTen = big.NewInt(10)

// fitDecimal converts r exactly to DECIMAL(p, s): an error when digits
// would be lost or the value has too many digits.
func fitDecimal(col string, t types.DataType, r *big.Rat, shown string) (any, error) {
	if t.Scale < 0 { // any scale: the smallest that holds r exactly
		t.Scale = 0
		for !new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(t.Scale)), nil))).IsInt() {
			if t.Scale++; t.Scale > t.Precision {
				return nil, fmt.Errorf("column %q: %s has more than %d digits", col, shown, t.Precision)
			}
		}
	}
	scaled := new(big.Rat).Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(bigTen, big.NewInt(int64(t.Scale)), nil)))
	if !scaled.IsInt() {
		return nil, fmt.Errorf("column %q is %s; %s has more than %d digits after the point (no rounding is done)", col, typeName(t), shown, t.Scale)
	}
	u := scaled.Num()
	if digits := len(new(big.Int).Abs(u).String()); u.Sign() != 0 && digits > t.Precision {
		return nil, fmt.Errorf("column %q is %s; %s has more than %d digits before the point", col, typeName(t), shown, t.Precision-t.Scale)
	}
	return decimalOf(u, t.Scale)
}

// decimalOf returns u × 10^-scale.
func decimalOf(u *big.Int, scale int) (datum.Decimal, error) {
	if u.IsInt64() {
		return datum.NewDecimal(u.Int64(), scale), nil
	}
	s := new(big.Int).Abs(u).String()
	if len(s) <= scale {
		s = strings.Repeat("0", scale-len(s)+1) + s
	}
	if scale > 0 {
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if u.Sign() < 0 {
		s = "-" + s
	}
	return datum.ParseDecimal(s)
}

// decimalRat returns d as an exact rational.
func decimalRat(d datum.Decimal) *big.Rat {
	den := new(big.Int).Exp(bigTen, big.NewInt(int64(d.Scale())), nil)
	return new(big.Rat).SetFrac(d.Unscaled(), den)
}
