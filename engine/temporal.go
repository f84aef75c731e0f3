package engine

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/compute"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
)

// Temporal functions. TIMESTAMP_LTZ values are read in UTC (the engine has
// no session time zone yet).

// TimeUnits are the units EXTRACT and FLOOR/CEIL(… TO unit) take.
var TimeUnits = []string{"YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "HOUR", "MINUTE", "SECOND"}

// isTemporal reports whether values of kind k fall on a calendar day (DATE,
// TIMESTAMP, TIMESTAMP_LTZ).
func isTemporal(k types.Kind) bool {
	e := sqlkind.Of(k)
	return e != nil && e.Dated
}

// unitNanos is the length of one unit of the Arrow representation of a
// TIME or TIMESTAMP of precision p.
func unitNanos(p int) int64 {
	switch {
	case p == 0:
		return int64(time.Second)
	case p <= 3:
		return int64(time.Millisecond)
	case p <= 6:
		return int64(time.Microsecond)
	}
	return 1
}

// toTime reads a DATE, TIMESTAMP or TIMESTAMP_LTZ value of the model.
func toTime(t types.DataType, v any) time.Time {
	if t.Kind == types.Date {
		return time.Unix(int64(v.(int32))*86400, 0).UTC()
	}
	u := unitNanos(t.Precision)
	x := v.(int64)
	return time.Unix(0, 0).Add(time.Duration(x) * time.Duration(u)).UTC()
}

// fromTime writes a time as a value of the model for t.
func fromTime(t types.DataType, tm time.Time) any {
	if t.Kind == types.Date {
		return int32(floorDiv(tm.Unix(), 86400))
	}
	u := unitNanos(t.Precision)
	if t.Kind == types.Time {
		day := tm.Unix() - floorDiv(tm.Unix(), 86400)*86400
		return (day*int64(time.Second) + int64(tm.Nanosecond())) / u
	}
	if u == int64(time.Second) {
		return tm.Unix()
	}
	return tm.Unix()*(int64(time.Second)/u) + int64(tm.Nanosecond())/u
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// Current is CURRENT_DATE (DATE), CURRENT_TIMESTAMP and NOW() (TIMESTAMP_LTZ(3)),
// LOCALTIMESTAMP (TIMESTAMP(3), the UTC wall clock) or CURRENT_TIME and LOCALTIME
// (TIME(0), the UTC wall clock's time of day): the time the query's operators
// were built, the same for every row.
type Current struct {
	Name string
	T    types.DataType
}

// NewCurrent types a current-time function.
func NewCurrent(name string) (Expr, error) {
	switch name {
	case "CURRENT_DATE":
		return &Current{Name: name, T: types.NewDate().AsNotNull()}, nil
	case "CURRENT_TIMESTAMP", "NOW":
		return &Current{Name: name, T: types.NewTimestampLTZ(3).AsNotNull()}, nil
	case "LOCALTIMESTAMP":
		return &Current{Name: name, T: types.NewTimestamp(3).AsNotNull()}, nil
	case "CURRENT_TIME", "LOCALTIME":
		return &Current{Name: name, T: types.NewTime(0).AsNotNull()}, nil
	}
	return nil, fmt.Errorf("engine: unknown time function %s", name)
}

// Type implements Expr.
func (e *Current) Type() types.DataType { return e.T }

// String renders the call.
func (e *Current) String() string      { return e.Name + "()" }
func (e *Current) children() []Expr    { return nil }
func (e *Current) rebuild([]Expr) Expr { return e }
func (e *Current) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	return repeat(ec.mem, e.T, fromTime(e.T, ec.now), int(b.NumRows()))
}

// Extract is EXTRACT(Unit FROM X): a BIGINT field of a DATE or TIMESTAMP.
type Extract struct {
	Unit string
	X    Expr
}

// NewExtract types EXTRACT.
func NewExtract(unit string, x Expr) (Expr, error) {
	unit = strings.ToUpper(unit)
	if !isTemporal(x.Type().Kind) {
		return nil, fmt.Errorf("EXTRACT needs a DATE or TIMESTAMP, not %s (%s)", x, TypeName(x.Type()))
	}
	switch unit {
	case "YEAR", "QUARTER", "MONTH", "WEEK", "DAY", "DOY", "DOW":
	case "HOUR", "MINUTE", "SECOND":
		if x.Type().Kind == types.Date {
			return nil, fmt.Errorf("EXTRACT(%s FROM …) needs a TIMESTAMP, not a DATE", unit)
		}
	default:
		return nil, fmt.Errorf("EXTRACT takes YEAR, QUARTER, MONTH, WEEK, DAY, DOY, DOW, HOUR, MINUTE or SECOND, not %s", unit)
	}
	return &Extract{Unit: unit, X: x}, nil
}

// Type implements Expr.
func (e *Extract) Type() types.DataType {
	return nullable(types.NewBigInt(), e.X.Type().NotNull)
}

// String renders the call.
func (e *Extract) String() string        { return "EXTRACT(" + e.Unit + " FROM " + e.X.String() + ")" }
func (e *Extract) children() []Expr      { return []Expr{e.X} }
func (e *Extract) rebuild(c []Expr) Expr { return &Extract{Unit: e.Unit, X: c[0]} }

// eval reads the fields row by row: Arrow-go has no temporal component kernels.
func (e *Extract) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	t := e.X.Type()
	return mapRows(ec, e.Type(), []arrow.Array{x}, int(b.NumRows()), false, func(v []any) (any, error) {
		tm := toTime(t, v[0])
		switch e.Unit {
		case "YEAR":
			return int64(tm.Year()), nil
		case "QUARTER":
			return int64(tm.Month()-1)/3 + 1, nil
		case "MONTH":
			return int64(tm.Month()), nil
		case "WEEK":
			_, w := tm.ISOWeek()
			return int64(w), nil
		case "DAY":
			return int64(tm.Day()), nil
		case "DOY":
			return int64(tm.YearDay()), nil
		case "DOW": // 1 = Sunday … 7 = Saturday, as Flink
			return int64(tm.Weekday()) + 1, nil
		case "HOUR":
			return int64(tm.Hour()), nil
		case "MINUTE":
			return int64(tm.Minute()), nil
		}
		return int64(tm.Second()), nil
	})
}

// FloorTo is FLOOR(X TO Unit) or CEIL(X TO Unit): a DATE or TIMESTAMP
// rounded down (up) to a whole unit, by Arrow's floor_temporal /
// ceil_temporal kernels; weeks start on Monday.
type FloorTo struct {
	Unit string
	X    Expr
	Ceil bool
}

var temporalUnits = map[string]compute.RoundTemporalUnit{
	"YEAR": compute.RoundTemporalYear, "QUARTER": compute.RoundTemporalQuarter, "MONTH": compute.RoundTemporalMonth,
	"WEEK": compute.RoundTemporalWeek, "DAY": compute.RoundTemporalDay, "HOUR": compute.RoundTemporalHour,
	"MINUTE": compute.RoundTemporalMinute, "SECOND": compute.RoundTemporalSecond,
}

// NewFloorTo types FLOOR/CEIL(x TO unit).
func NewFloorTo(unit string, x Expr, ceil bool) (Expr, error) {
	unit = strings.ToUpper(unit)
	if _, ok := temporalUnits[unit]; !ok {
		return nil, fmt.Errorf("FLOOR/CEIL(… TO unit) takes %s, not %s", strings.Join(TimeUnits, ", "), unit)
	}
	if !isTemporal(x.Type().Kind) {
		return nil, fmt.Errorf("FLOOR/CEIL(… TO %s) needs a DATE or TIMESTAMP, not %s (%s)", unit, x, TypeName(x.Type()))
	}
	return &FloorTo{Unit: unit, X: x, Ceil: ceil}, nil
}

// Type implements Expr.
func (e *FloorTo) Type() types.DataType { return e.X.Type() }

// String renders the call.
func (e *FloorTo) String() string {
	fn := "FLOOR"
	if e.Ceil {
		fn = "CEIL"
	}
	return fn + "(" + e.X.String() + " TO " + e.Unit + ")"
}
func (e *FloorTo) children() []Expr      { return []Expr{e.X} }
func (e *FloorTo) rebuild(c []Expr) Expr { return &FloorTo{Unit: e.Unit, X: c[0], Ceil: e.Ceil} }

func (e *FloorTo) eval(ec *evalCtx, b arrow.RecordBatch) (arrow.Array, error) {
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, err
	}
	defer x.Release()
	fn := "floor_temporal"
	if e.Ceil {
		fn = "ceil_temporal"
	}
	opts := compute.RoundTemporalOptions{Multiple: 1, Unit: temporalUnits[e.Unit], WeekStartsMonday: true}
	out, err := compute.CallFunction(ec.ctx, fn, &opts, compute.NewDatumWithoutOwning(x))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", e, err)
	}
	return out.(*compute.ArrayDatum).MakeArray(), nil
}

// javaLayout converts a SimpleDateFormat pattern to a Go time layout.
func javaLayout(p string) (string, error) {
	repl := []struct{ java, goLayout string }{
		{"yyyy", "2006"}, {"yy", "06"}, {"MMMM", "January"}, {"MMM", "Jan"}, {"MM", "01"}, {"M", "1"},
		{"dd", "02"}, {"d", "2"}, {"HH", "15"}, {"hh", "03"}, {"h", "3"}, {"mm", "04"}, {"ss", "05"},
		{"SSSSSSSSS", "000000000"}, {"SSSSSS", "000000"}, {"SSS", "000"}, {"a", "PM"}, {"EEEE", "Monday"}, {"EEE", "Mon"},
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		if p[i] == '\'' {
			j := strings.IndexByte(p[i+1:], '\'')
			if j < 0 {
				return "", fmt.Errorf("DATE_FORMAT pattern %q has an unclosed quote", p)
			}
			b.WriteString(p[i+1 : i+1+j])
			i += j + 2
			continue
		}
		matched := false
		for _, r := range repl {
			if strings.HasPrefix(p[i:], r.java) {
				b.WriteString(r.goLayout)
				i += len(r.java)
				matched = true
				break
			}
		}
		if matched {
			continue
		}
		if c := p[i]; c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			return "", fmt.Errorf("DATE_FORMAT pattern letter %q is not supported", c)
		}
		b.WriteByte(p[i])
		i++
	}
	return b.String(), nil
}
