package engine

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// Interval arithmetic in Flink's form: ts ± INTERVAL '1' DAY,
// TIMESTAMPADD(unit, n, ts) and TIMESTAMPDIFF(unit, a, b). YEAR, QUARTER and
// MONTH move the calendar month and keep the day, clamped to the end of a
// shorter month (Jan 31 + 1 month = Feb 28 or 29); the other units are
// fixed lengths. TIMESTAMP_LTZ values are computed in UTC, as the other
// temporal functions.

// monthUnits are the units counted in months; fixedUnits the others, in
// milliseconds (Flink's intervals have millisecond precision).
var (
	monthUnits = map[string]int64{"YEAR": 12, "QUARTER": 3, "MONTH": 1}
	fixedUnits = map[string]int64{
		"WEEK": 7 * 86400000, "DAY": 86400000, "HOUR": 3600000, "MINUTE": 60000, "SECOND": 1000, "MILLISECOND": 1,
	}
)

// IntervalUnitsText lists the units for error messages.
const IntervalUnitsText = "YEAR, QUARTER, MONTH, WEEK, DAY, HOUR, MINUTE or SECOND"

// TimeAdd is X + N Units (X - N Units with Neg): INTERVAL arithmetic and
// TIMESTAMPADD. N is an integer; Unit is YEAR, QUARTER, MONTH, WEEK, DAY,
// HOUR, MINUTE, SECOND or MILLISECOND.
type TimeAdd struct {
	X, N Expr
	Unit string
	Neg  bool
	// Func is "TIMESTAMPADD" for TIMESTAMPADD(Unit, N, X), else "" (an
	// interval, rendered Text).
	Func string
	Text string // the interval as written, e.g. INTERVAL '1' DAY
	T    types.DataType
}

// NewIntervalAdd types x ± INTERVAL: the result has x's type (a DATE moves
// by whole days: Flink truncates a shorter interval's days toward zero; a
// TIMESTAMP(p) gets millisecond precision at least when the interval has a
// fraction of a second). text renders the interval.
func NewIntervalAdd(x Expr, unit string, n int64, neg bool, text string) (Expr, error) {
	unit = strings.ToUpper(unit)
	if untypedTime(x) {
		return nil, fmt.Errorf("%s ± %s: give %s a type, e.g. CAST(%s AS TIMESTAMP(3))", x, text, x, x)
	}
	if !isTemporal(x.Type().Kind) {
		op := "+"
		if neg {
			op = "-"
		}
		return nil, fmt.Errorf("%s %s %s: an INTERVAL is added to or subtracted from a DATE, TIMESTAMP or TIMESTAMP_LTZ, not %s", x, op, text, TypeName(x.Type()))
	}
	if err := checkUnit(unit); err != nil {
		return nil, err
	}
	t := x.Type()
	if unit == "MILLISECOND" && t.Kind != types.Date && t.Precision < 3 {
		t.Precision = 3
	}
	return &TimeAdd{X: x, N: &Const{Value: n, T: types.NewBigInt().AsNotNull()}, Unit: unit, Neg: neg, Text: text, T: t}, nil
}

// NewTimestampAdd types TIMESTAMPADD(unit, n, x): n an integer, x a DATE,
// TIMESTAMP or TIMESTAMP_LTZ. The result has x's type, except that a DATE
// moved by HOUR, MINUTE or SECOND becomes a TIMESTAMP(0) (Calcite's typing,
// which Flink uses).
func NewTimestampAdd(unit string, n, x Expr) (Expr, error) {
	unit = strings.ToUpper(unit)
	if err := checkUnit(unit); err != nil {
		return nil, fmt.Errorf("TIMESTAMPADD: %w", err)
	}
	n = retype(n, types.NewInt())
	if !isInt(n.Type().Kind) {
		return nil, fmt.Errorf("TIMESTAMPADD(%s, %s, …): the count must be an integer, not %s", unit, n, TypeName(n.Type()))
	}
	if untypedTime(x) {
		return nil, fmt.Errorf("TIMESTAMPADD(%s, %s, %s): give %s a type, e.g. CAST(%s AS TIMESTAMP(3))", unit, n, x, x, x)
	}
	if !isTemporal(x.Type().Kind) {
		return nil, fmt.Errorf("TIMESTAMPADD(%s, %s, %s) needs a DATE, TIMESTAMP or TIMESTAMP_LTZ, not %s", unit, n, x, TypeName(x.Type()))
	}
	t := x.Type()
	if t.Kind == types.Date && fixedUnits[unit] != 0 && fixedUnits[unit] < 86400000 {
		t = nullable(types.NewTimestamp(0), t.NotNull)
	}
	t.NotNull = t.NotNull && n.Type().NotNull
	return &TimeAdd{X: x, N: n, Unit: unit, Func: "TIMESTAMPADD", T: t}, nil
}

// untypedTime reports whether x is a placeholder or NULL without a
// temporal type yet.
func untypedTime(x Expr) bool { return isUntyped(x) && !isTemporal(x.Type().Kind) }

func checkUnit(unit string) error {
	if monthUnits[unit] == 0 && fixedUnits[unit] == 0 {
		return fmt.Errorf("the unit must be %s, not %s", IntervalUnitsText, unit)
	}
	return nil
}

// Type implements Expr.
func (e *TimeAdd) Type() types.DataType { return e.T }

// String renders the expression.
func (e *TimeAdd) String() string {
	if e.Func != "" {
		return e.Func + "(" + e.Unit + ", " + e.N.String() + ", " + e.X.String() + ")"
	}
	op := " + "
	if e.Neg {
		op = " - "
	}
	return "(" + e.X.String() + op + e.Text + ")"
}

func (e *TimeAdd) children() []Expr { return []Expr{e.X, e.N} }

func (e *TimeAdd) rebuild(c []Expr) Expr {
	out := *e
	out.X, out.N = c[0], c[1]
	return &out
}

func (e *TimeAdd) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	ins, err := evalAll(ec, []Expr{e.X, e.N}, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	xt := e.X.Type()
	return mapRows(ec, e.T, ins, int(b.NumRows()), false, func(v []any) (any, error) {
		n := v[1].(int64)
		if e.Neg {
			n = -n
		}
		if m := monthUnits[e.Unit]; m != 0 {
			if n > math.MaxInt32 || n < math.MinInt32 {
				return nil, fmt.Errorf("%s: %d %s is out of range", e, n, e.Unit)
			}
			return fromTime(e.T, addMonths(toTime(xt, v[0]), n*m)), nil
		}
		ms := fixedUnits[e.Unit]
		if xt.Kind == types.Date && e.T.Kind == types.Date {
			// Whole days; a shorter span's days truncated toward zero (Flink).
			days, ok := mulOK(n, ms)
			if !ok {
				return nil, fmt.Errorf("%s: %d %s is out of range", e, n, e.Unit)
			}
			d := int64(v[0].(int32)) + days/86400000
			if d > math.MaxInt32 || d < math.MinInt32 {
				return nil, fmt.Errorf("%s: the date is out of range", e)
			}
			return int32(d), nil
		}
		span, ok := mulOK(n, ms)
		if !ok || span > math.MaxInt64/int64(time.Millisecond) || span < math.MinInt64/int64(time.Millisecond) {
			return nil, fmt.Errorf("%s: %d %s is out of range", e, n, e.Unit)
		}
		return fromTime(e.T, toTime(xt, v[0]).Add(time.Duration(span)*time.Millisecond)), nil
	})
}

// mulOK is a*b and whether it did not overflow.
func mulOK(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	c := a * b
	return c, c/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
}

// addMonths moves t by n calendar months, keeping the time of day and the
// day of the month, clamped to the last day of a shorter month.
func addMonths(t time.Time, n int64) time.Time {
	y, m, d := t.Date()
	total := int64(y)*12 + int64(m-1) + n
	ny, nm := floorDiv(total, 12), time.Month(total-floorDiv(total, 12)*12+1)
	if last := time.Date(int(ny), nm+1, 0, 0, 0, 0, 0, time.UTC).Day(); d > last {
		d = last
	}
	hh, mm, ss := t.Clock()
	return time.Date(int(ny), nm, d, hh, mm, ss, t.Nanosecond(), time.UTC)
}

// TimeDiff is TIMESTAMPDIFF(Unit, A, B): the number of whole Units from A
// to B, an INT (negative when B is before A). Fixed units count the
// milliseconds between them, truncated toward zero; MONTH, QUARTER and YEAR
// count calendar months, the last one only when its day and time are
// reached (Flink's, after Calcite).
type TimeDiff struct {
	Unit string
	A, B Expr
}

// NewTimeDiff types TIMESTAMPDIFF; a and b are DATE, TIMESTAMP or
// TIMESTAMP_LTZ values.
func NewTimeDiff(unit string, a, b Expr) (Expr, error) {
	unit = strings.ToUpper(unit)
	if err := checkUnit(unit); err != nil || unit == "MILLISECOND" {
		return nil, fmt.Errorf("TIMESTAMPDIFF: the unit must be %s, not %s", IntervalUnitsText, unit)
	}
	// A placeholder takes the other argument's type.
	if untypedTime(a) && !untypedTime(b) {
		a = retype(a, b.Type())
	} else if untypedTime(b) && !untypedTime(a) {
		b = retype(b, a.Type())
	}
	for _, x := range []Expr{a, b} {
		if untypedTime(x) {
			return nil, fmt.Errorf("TIMESTAMPDIFF(%s, %s, %s): give %s a type, e.g. CAST(%s AS TIMESTAMP(3))", unit, a, b, x, x)
		}
		if !isTemporal(x.Type().Kind) {
			return nil, fmt.Errorf("TIMESTAMPDIFF(%s, %s, %s) needs DATE, TIMESTAMP or TIMESTAMP_LTZ values, not %s (%s)", unit, a, b, x, TypeName(x.Type()))
		}
	}
	return &TimeDiff{Unit: unit, A: a, B: b}, nil
}

// Type implements Expr.
func (e *TimeDiff) Type() types.DataType {
	return nullable(types.NewInt(), bothNotNull(e.A.Type(), e.B.Type()))
}

// String renders the call.
func (e *TimeDiff) String() string {
	return "TIMESTAMPDIFF(" + e.Unit + ", " + e.A.String() + ", " + e.B.String() + ")"
}

func (e *TimeDiff) children() []Expr      { return []Expr{e.A, e.B} }
func (e *TimeDiff) rebuild(c []Expr) Expr { return &TimeDiff{Unit: e.Unit, A: c[0], B: c[1]} }

func (e *TimeDiff) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	ins, err := evalAll(ec, []Expr{e.A, e.B}, b)
	if err != nil {
		return nil, err
	}
	defer releaseAll(ins)
	at, bt := e.A.Type(), e.B.Type()
	return mapRows(ec, e.Type(), ins, int(b.NumRows()), false, func(v []any) (any, error) {
		ta, tb := toTime(at, v[0]), toTime(bt, v[1])
		var d int64
		if m := monthUnits[e.Unit]; m != 0 {
			d = monthsBetween(ta, tb) / m
		} else {
			d = (tb.UnixMilli() - ta.UnixMilli()) / fixedUnits[e.Unit]
		}
		if d > math.MaxInt32 || d < math.MinInt32 {
			return nil, fmt.Errorf("%s: %d is out of the range of INT", e, d)
		}
		return d, nil
	})
}

// monthsBetween counts the whole calendar months from a to b: the largest
// m with addMonths(a, m) <= b (negated when b is before a).
func monthsBetween(a, b time.Time) int64 {
	if b.Before(a) {
		return -monthsBetween(b, a)
	}
	m := int64(b.Year()-a.Year())*12 + int64(b.Month()-a.Month())
	for m > 0 && addMonths(a, m).After(b) {
		m--
	}
	return m
}
