package engine

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The temporal family. Java's SimpleDateFormat patterns (yyyy MM dd HH mm
// ss SSS …) are bridged to Go time layouts by javaLayout, once per call when
// the pattern is a constant; a letter Go has no layout for is refused with
// the letter named. flussql's session time zone is UTC: UNIX_TIMESTAMP,
// FROM_UNIXTIME and TO_TIMESTAMP_LTZ read and write UTC wall clocks.

// defaultTimestampPattern is Flink's default of TO_TIMESTAMP, UNIX_TIMESTAMP, FROM_UNIXTIME.
const defaultTimestampPattern = "yyyy-MM-dd HH:mm:ss"

func init() {
	register(
		&FuncDef{Name: "DATE_FORMAT", Family: "temporal", Signature: "DATE_FORMAT(t TIMESTAMP|DATE|STRING, pattern STRING) → STRING",
			Desc: "t formatted with a Java date pattern (yyyy MM dd HH mm ss SSS, text in '…')", Example: "DATE_FORMAT(TIMESTAMP '2024-02-29 10:15:30', 'yyyy/MM/dd') = '2024/02/29'",
			Type: dateFormatType, Kernel: dateFormatKernel},
		&FuncDef{Name: "TO_TIMESTAMP", Family: "temporal", Signature: "TO_TIMESTAMP(s STRING[, pattern STRING]) → TIMESTAMP(3)",
			Desc: "s parsed with a Java date pattern ('yyyy-MM-dd HH:mm:ss' by default); NULL when it does not parse", Example: "TO_TIMESTAMP('2024-02-29 10:15:30') = TIMESTAMP '2024-02-29 10:15:30'",
			Type: parseType(types.NewTimestamp(3)), Kernel: parseKernel},
		&FuncDef{Name: "TO_DATE", Family: "temporal", Signature: "TO_DATE(s STRING[, pattern STRING]) → DATE",
			Desc: "s parsed with a Java date pattern ('yyyy-MM-dd' by default); NULL when it does not parse", Example: "TO_DATE('2024-02-29') = DATE '2024-02-29'",
			Type: parseType(types.NewDate()), Kernel: parseKernel},
		&FuncDef{Name: "UNIX_TIMESTAMP", Family: "temporal", Signature: "UNIX_TIMESTAMP([s STRING[, pattern STRING]]) → BIGINT",
			Desc: "the seconds since 1970-01-01 00:00:00 UTC of now, or of s parsed with pattern ('yyyy-MM-dd HH:mm:ss'); -9223372036854775808 when s does not parse, as Flink", Example: "UNIX_TIMESTAMP('1970-01-01 00:01:00') = 60",
			Volatile: true, Type: unixTimestampType, Kernel: unixTimestampKernel},
		&FuncDef{Name: "FROM_UNIXTIME", Family: "temporal", Signature: "FROM_UNIXTIME(n NUMERIC[, pattern STRING]) → STRING",
			Desc: "the time n seconds after 1970-01-01 00:00:00 UTC formatted with pattern ('yyyy-MM-dd HH:mm:ss')", Example: "FROM_UNIXTIME(60) = '1970-01-01 00:01:00'",
			Type: fromUnixtimeType, Kernel: fromUnixtimeKernel},
		&FuncDef{Name: "TO_TIMESTAMP_LTZ", Family: "temporal", Signature: "TO_TIMESTAMP_LTZ(n NUMERIC, precision 0|3) → TIMESTAMP_LTZ(3)",
			Desc: "the instant n seconds (precision 0) or milliseconds (3) after 1970-01-01 00:00:00 UTC", Example: "TO_TIMESTAMP_LTZ(0, 3) = TO_TIMESTAMP_LTZ(0, 0)",
			Type: toLTZType, Kernel: toLTZKernel},
		&FuncDef{Name: "CONVERT_TZ", Family: "temporal", Signature: "CONVERT_TZ(s STRING, from STRING, to STRING) → STRING",
			Desc: "the time s ('yyyy-MM-dd HH:mm:ss') of zone from as the wall clock of zone to (IANA names or offsets as 'GMT+08:00')", Example: "CONVERT_TZ('1970-01-01 00:00:00', 'UTC', 'America/Los_Angeles') = '1969-12-31 16:00:00'",
			Type: fixedType("sss", 0, stringType), Kernel: convertTZKernel},
		&FuncDef{Name: "EXTRACT", Kind: SyntaxFunc, Family: "temporal", Signature: "EXTRACT(unit FROM t) → BIGINT",
			Desc: "a field of a date or timestamp: YEAR QUARTER MONTH WEEK DAY DOY DOW HOUR MINUTE SECOND (also YEAR(t), MONTH(t), …)", Example: "EXTRACT(MONTH FROM DATE '2024-02-29') = 2"},
		&FuncDef{Name: "TIMESTAMPADD", Kind: SyntaxFunc, Family: "temporal", Signature: "TIMESTAMPADD(unit, n INT, t) → type of t",
			Desc: "t plus n units (a month end clamps)", Example: "TIMESTAMPADD(MONTH, 1, DATE '2024-01-31') = DATE '2024-02-29'"},
		&FuncDef{Name: "TIMESTAMPDIFF", Kind: SyntaxFunc, Family: "temporal", Signature: "TIMESTAMPDIFF(unit, t1, t2) → INT",
			Desc: "the whole units from t1 to t2", Example: "TIMESTAMPDIFF(DAY, DATE '2024-01-01', DATE '2024-03-01') = 60"},
		&FuncDef{Name: "CURRENT_DATE", Kind: SyntaxFunc, Family: "temporal", Signature: "CURRENT_DATE → DATE",
			Desc: "today (UTC), the same for every row of a statement", Example: "CURRENT_DATE = DATE '2026-12-07'",
			Volatile: true, Build: currentBuild("CURRENT_DATE")},
		&FuncDef{Name: "CURRENT_TIMESTAMP", Aliases: []string{"NOW"}, Kind: SyntaxFunc, Family: "temporal", Signature: "CURRENT_TIMESTAMP → TIMESTAMP_LTZ(3)",
			Desc: "now, the same for every row of a statement", Example: "CURRENT_TIMESTAMP = 2026-12-07 21:00:00.000",
			Volatile: true, Build: currentBuild("CURRENT_TIMESTAMP")},
		&FuncDef{Name: "LOCALTIMESTAMP", Kind: SyntaxFunc, Family: "temporal", Signature: "LOCALTIMESTAMP → TIMESTAMP(3)",
			Desc: "now as a UTC wall clock, the same for every row of a statement", Example: "LOCALTIMESTAMP = TIMESTAMP '2026-12-07 21:00:00'",
			Volatile: true, Build: currentBuild("LOCALTIMESTAMP")},
		&FuncDef{Name: "CURRENT_TIME", Kind: SyntaxFunc, Family: "temporal", Signature: "CURRENT_TIME → TIME(0)",
			Desc: "the time of day now (UTC wall clock), the same for every row of a statement", Example: "CURRENT_TIME = TIME '21:00:00'",
			Volatile: true, Build: currentBuild("CURRENT_TIME")},
		&FuncDef{Name: "LOCALTIME", Kind: SyntaxFunc, Family: "temporal", Signature: "LOCALTIME → TIME(0)",
			Desc: "the time of day now (UTC wall clock), the same for every row of a statement", Example: "LOCALTIME = TIME '21:00:00'",
			Volatile: true, Build: currentBuild("LOCALTIME")},
	)
}

func currentBuild(name string) func([]Expr) (Expr, error) {
	return func(args []Expr) (Expr, error) {
		if len(args) > 0 {
			return nil, fmt.Errorf("%s takes no arguments", name)
		}
		return NewCurrent(name)
	}
}

// patternState is a call's Go layout when its pattern is a constant.
type patternState struct{ layout string }

// layoutOf is the Go layout of a call's pattern argument i (the default
// pattern when there is none): compiled once when constant, per row
// otherwise (cached by pattern).
func layoutOf(c *Call, ins []arrow.Array, i int, def string) func(row int) (string, error) {
	if st, ok := c.state.(patternState); ok {
		return func(int) (string, error) { return st.layout, nil }
	}
	if i >= len(ins) {
		l, err := javaLayout(def)
		return func(int) (string, error) { return l, err }
	}
	p := strs(ins[i])
	cache := map[string]string{}
	return func(row int) (string, error) {
		if l, ok := cache[p(row)]; ok {
			return l, nil
		}
		l, err := javaLayout(p(row))
		if err != nil {
			return "", fmt.Errorf("%s: %w", c.Name, err)
		}
		cache[p(row)] = l
		return l, nil
	}
}

// constPattern compiles argument i when it is a constant string.
func constPattern(name string, args []Expr, i int, def string) (any, error) {
	p := def
	if i < len(args) {
		s, ok := constString(args[i])
		if !ok {
			return nil, nil
		}
		p = s
	}
	l, err := javaLayout(p)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return patternState{l}, nil
}

func dateFormatType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 2); err != nil {
		return nil, stringType, nil, err
	}
	if !isTemporal(args[0].Type().Kind) {
		if err := wantString(name, args, 0); err != nil {
			return nil, stringType, nil, fmt.Errorf("DATE_FORMAT needs a DATE or TIMESTAMP, not %s (%s)", args[0], TypeName(args[0].Type()))
		}
	}
	if err := wantString(name, args, 1); err != nil {
		return nil, stringType, nil, err
	}
	if _, ok := constString(args[1]); !ok {
		return nil, stringType, nil, fmt.Errorf("DATE_FORMAT takes a constant string pattern, e.g. 'yyyy-MM-dd HH:mm:ss'")
	}
	st, err := constPattern(name, args, 1, "")
	if err != nil {
		return nil, stringType, nil, err
	}
	return args, nullable(stringType, args[0].Type().NotNull), st, nil
}

func dateFormatKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	t := c.Args[0].Type()
	layout := layoutOf(c, ins, 1, "")
	if isString(t.Kind) { // a string is read as a timestamp first
		s := strs(ins[0])
		return appendRows(ec, n, ins, false, func(i int, dst []byte) ([]byte, bool, error) {
			tm, ok := parseFlexible(s(i))
			if !ok {
				return dst, false, nil
			}
			l, err := layout(i)
			return tm.AppendFormat(dst, l), true, err
		})
	}
	get, err := timeValues(t, ins[0])
	if err != nil {
		return nil, err
	}
	return appendRows(ec, n, ins, false, func(i int, dst []byte) ([]byte, bool, error) {
		l, err := layout(i)
		return get(i).AppendFormat(dst, l), true, err
	})
}

// parseFlexible reads Flink's default timestamp strings: yyyy-MM-dd
// [HH:mm[:ss[.fraction]]] with a space or a T.
func parseFlexible(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, l := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02"} {
		if tm, err := time.Parse(l, s); err == nil {
			return tm, true
		}
	}
	return time.Time{}, false
}

func parseType(t types.DataType) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		if err := argc(name, args, 1, 2); err != nil {
			return nil, t, nil, err
		}
		if err := wantStrings(name, args, seq(len(args))...); err != nil {
			return nil, t, nil, err
		}
		var st any
		if len(args) == 2 {
			var err error
			if st, err = constPattern(name, args, 1, ""); err != nil {
				return nil, t, nil, err
			}
		}
		return args, t.AsNullable(), st, nil
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// parseKernel: TO_TIMESTAMP and TO_DATE.
func parseKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s := strs(ins[0])
	var layout func(int) (string, error)
	if len(ins) > 1 {
		layout = layoutOf(c, ins, 1, "")
	}
	return timeRows(ec, c.T, n, ins, func(i int) (time.Time, bool, error) {
		if layout == nil {
			tm, ok := parseFlexible(s(i))
			return tm, ok, nil
		}
		l, err := layout(i)
		if err != nil {
			return time.Time{}, false, err
		}
		tm, perr := time.Parse(l, s(i))
		return tm, perr == nil, nil
	})
}

func unixTimestampType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 0, 2); err != nil {
		return nil, types.NewBigInt(), nil, err
	}
	if err := wantStrings(name, args, seq(len(args))...); err != nil {
		return nil, types.NewBigInt(), nil, err
	}
	var st any
	if len(args) > 0 {
		var err error
		if st, err = constPattern(name, args, 1, defaultTimestampPattern); err != nil {
			return nil, types.NewBigInt(), nil, err
		}
	}
	return args, nullable(types.NewBigInt(), len(args) == 0), st, nil
}

func unixTimestampKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	if len(ins) == 0 {
		return repeat(ec.mem, c.T, ec.now.Unix(), n)
	}
	s, layout := strs(ins[0]), layoutOf(c, ins, 1, defaultTimestampPattern)
	return intRows(ec, c.T, n, ins, false, func(i int) (int64, bool, error) {
		l, err := layout(i)
		if err != nil {
			return 0, false, err
		}
		tm, err := time.Parse(l, s(i))
		if err != nil {
			return math.MinInt64, true, nil // Flink's answer for a string that does not parse
		}
		return tm.Unix(), true, nil
	})
}

func fromUnixtimeType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, 2); err != nil {
		return nil, stringType, nil, err
	}
	if err := wantNum(name, args, 0); err != nil {
		return nil, stringType, nil, err
	}
	if len(args) > 1 {
		if err := wantString(name, args, 1); err != nil {
			return nil, stringType, nil, err
		}
	}
	st, err := constPattern(name, args, 1, defaultTimestampPattern)
	if err != nil {
		return nil, stringType, nil, err
	}
	return args, nullable(stringType, allNotNull(args)), st, nil
}

func fromUnixtimeKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	x, err := doubles(ec, ins[0])
	if err != nil {
		return nil, err
	}
	defer x.Release()
	layout := layoutOf(c, ins, 1, defaultTimestampPattern)
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		l, err := layout(i)
		return time.Unix(int64(x.Value(i)), 0).UTC().Format(l), true, err
	})
}

// zone reads an IANA zone name or Java's GMT+hh:mm / UTC offsets.
func zone(name string) (*time.Location, error) {
	if rest, ok := strings.CutPrefix(strings.ToUpper(name), "GMT"); ok && rest != "" {
		if tm, err := time.Parse("-07:00", rest); err == nil {
			_, off := tm.Zone()
			return time.FixedZone(name, off), nil
		}
	}
	return time.LoadLocation(name)
}

func convertTZKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, from, to := strs(ins[0]), strs(ins[1]), strs(ins[2])
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		fz, err := zone(from(i))
		if err != nil {
			return "", false, fmt.Errorf("CONVERT_TZ: unknown time zone %q", from(i))
		}
		tz, err := zone(to(i))
		if err != nil {
			return "", false, fmt.Errorf("CONVERT_TZ: unknown time zone %q", to(i))
		}
		tm, err := time.ParseInLocation("2006-01-02 15:04:05", s(i), fz)
		if err != nil {
			return "", false, nil
		}
		return tm.In(tz).Format("2006-01-02 15:04:05"), true, nil
	})
}

func toLTZType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	t := types.NewTimestampLTZ(3)
	if err := firstErr(argc(name, args, 2, 2), wantNum(name, args, 0)); err != nil {
		return nil, t, nil, err
	}
	if p, ok := constInt(args[1]); !ok || p != 0 && p != 3 {
		return nil, t, nil, fmt.Errorf("TO_TIMESTAMP_LTZ takes the precision 0 (seconds) or 3 (milliseconds), not %s", args[1])
	}
	return args, nullable(t, args[0].Type().NotNull), nil, nil
}

func toLTZKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	p, _ := constInt(c.Args[1])
	x, err := doubles(ec, ins[0])
	if err != nil {
		return nil, err
	}
	defer x.Release()
	scale := 1.0
	if p == 0 {
		scale = 1000
	}
	vals := make([]any, n)
	for i := range n {
		if x.IsValid(i) {
			vals[i] = int64(math.Trunc(x.Value(i) * scale)) // toward zero, as Flink
		}
	}
	return buildArray(ec.mem, c.T, vals)
}
