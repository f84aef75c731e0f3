package main

import (
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/datum"
)

// column is what the output formats know about one result column: its name and how its
// values are rendered. It is built once per query from sql.ColumnType.
type column struct {
	name string
	// typeName is the driver's DatabaseTypeName, upper case ("BIGINT", "TIMESTAMP(3)", …),
	// or "" when the driver does not say.
	typeName string
	// base is typeName without its parameters ("TIMESTAMP", "DECIMAL", …).
	base string
	// frac is the number of fractional second digits of TIME/TIMESTAMP columns, or -1 when
	// unknown (then as many as the value needs are printed).
	frac int
}

// columnsOf describes the columns of a result.
func columnsOf(rows *sql.Rows) ([]column, error) {
	types, err := rows.ColumnTypes()
	if err != nil {
		names, nerr := rows.Columns()
		if nerr != nil {
			return nil, nerr
		}
		cols := make([]column, len(names))
		for i, n := range names {
			cols[i] = column{name: n, frac: -1}
		}
		return cols, nil
	}
	cols := make([]column, len(types))
	for i, t := range types {
		cols[i] = newColumn(t.Name(), t.DatabaseTypeName())
		// The driver reports the fractional digits of TIME(p)/TIMESTAMP(p) as the precision.
		if cols[i].frac < 0 && isTimeType(cols[i].base) {
			if p, _, ok := t.DecimalSize(); ok && p >= 0 && p <= 9 {
				cols[i].frac = int(p)
			}
		}
	}
	return cols, nil
}

// newColumn parses a type name such as "TIMESTAMP(6)" or "TIMESTAMP_LTZ(3) NOT NULL".
func newColumn(name, typeName string) column {
	c := column{name: name, typeName: strings.ToUpper(strings.TrimSpace(typeName)), frac: -1}
	c.base = c.typeName
	if i := strings.IndexAny(c.base, "( "); i >= 0 {
		c.base = c.base[:i]
	}
	if isTimeType(c.base) {
		if open := strings.IndexByte(c.typeName, '('); open >= 0 {
			if end := strings.IndexByte(c.typeName[open:], ')'); end > 0 {
				if p, err := strconv.Atoi(c.typeName[open+1 : open+end]); err == nil && p >= 0 && p <= 9 {
					c.frac = p
				}
			}
		}
	}
	return c
}

func isTimeType(base string) bool {
	switch base {
	case "TIME", "TIMESTAMP", "TIMESTAMP_LTZ":
		return true
	}
	return false
}

// valueKind tells the writers how to place and quote a rendered value.
type valueKind uint8

const (
	kindNull valueKind = iota
	kindText
	kindNumber // right-aligned in tables, bare in JSON
	kindBool   // bare in JSON
)

// render turns one scanned value into text. The rules, the same in every format:
// NULL is reported as kindNull (each format shows it its own way); []byte is 0x followed by
// lower-case hex; time.Time is RFC 3339 with the column's fractional digits (DATE columns
// print the date only, TIME columns the time of day only, TIMESTAMP columns — no time zone —
// the date and time without an offset); DECIMAL text is a number; floats print in the
// shortest form that reads back to the same value, without exponent between 1e-6 and 1e21.
func render(v any, c *column) (string, valueKind) {
	switch x := v.(type) {
	case nil:
		return "", kindNull
	case string:
		if c != nil && (c.base == "DECIMAL" || c.base == "NUMERIC") && isNumericText(x) {
			return x, kindNumber // the driver returns DECIMAL as exact text
		}
		return x, kindText
	case []byte:
		if x == nil {
			return "", kindNull
		}
		return "0x" + hex.EncodeToString(x), kindText
	case bool:
		return strconv.FormatBool(x), kindBool
	case int64:
		return strconv.FormatInt(x, 10), kindNumber
	case float64:
		bits := 64
		if c != nil && (c.base == "FLOAT" || c.base == "REAL") {
			bits = 32
		}
		return formatFloat(x, bits), kindNumber
	case float32:
		return formatFloat(float64(x), 32), kindNumber
	case time.Time:
		return formatTime(x, c), kindText
	case []any:
		open, end := "[", "]" // ARRAY, as Flink prints it
		if c != nil && c.base == "ROW" {
			open, end = "(", ")"
		}
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = renderNested(e)
		}
		return open + strings.Join(parts, ", ") + end, kindText
	case []datum.MapEntry:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = renderNested(e.Key) + "=" + renderNested(e.Value)
		}
		return "{" + strings.Join(parts, ", ") + "}", kindText
	case fmt.Stringer:
		s := x.String()
		if c != nil && (c.base == "DECIMAL" || c.base == "NUMERIC") {
			return s, kindNumber
		}
		return s, kindText
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(rv.Int(), 10), kindNumber
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(rv.Uint(), 10), kindNumber
	case reflect.Float32:
		return formatFloat(rv.Float(), 32), kindNumber
	case reflect.Float64:
		return formatFloat(rv.Float(), 64), kindNumber
	case reflect.Bool:
		return strconv.FormatBool(rv.Bool()), kindBool
	case reflect.String:
		return rv.String(), kindText
	case reflect.Pointer:
		if rv.IsNil() {
			return "", kindNull
		}
		return render(rv.Elem().Interface(), c)
	}
	return fmt.Sprint(v), kindText
}

// renderNested renders an element of an ARRAY, MAP or ROW value; NULL is NULL.
// (Nested ROWs and ARRAYs both print in brackets: the element types are not known here.)
func renderNested(v any) string {
	s, k := render(v, nil)
	if k == kindNull {
		return "NULL"
	}
	return s
}

// formatFloat prints f like JavaScript and encoding/json do: plain decimals between 1e-6 and
// 1e21, exponent form outside; NaN and ±Infinity by name.
func formatFloat(f float64, bits int) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	abs := math.Abs(f)
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		return strconv.FormatFloat(f, 'e', -1, bits)
	}
	return strconv.FormatFloat(f, 'f', -1, bits)
}

// formatTime renders t for column c (see render).
func formatTime(t time.Time, c *column) string {
	frac := -1
	base := ""
	if c != nil {
		frac, base = c.frac, c.base
	}
	fraction := ".999999999" // as many digits as needed, none for whole seconds
	if frac == 0 {
		fraction = ""
	} else if frac > 0 {
		fraction = "." + strings.Repeat("0", frac)
	}
	switch base {
	case "DATE":
		return t.Format(time.DateOnly)
	case "TIME":
		return t.Format("15:04:05" + fraction)
	case "TIMESTAMP":
		// Without time zone: a wall-clock date-time, so no offset is claimed for it.
		return t.Format("2006-01-02T15:04:05" + fraction)
	}
	return t.Format("2006-01-02T15:04:05" + fraction + "Z07:00")
}

// isNumericText reports whether s is a JSON number (so that a decimal's text can be written
// bare into JSON).
func isNumericText(s string) bool {
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	return json.Valid([]byte(s))
}
