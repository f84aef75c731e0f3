package flussql

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/datum"
)

// ARRAY, MAP and ROW values in database/sql.
//
// Arguments: a Go slice or array for an ARRAY column ([]string, []*int64 for NULL
// elements, …; a nil slice is NULL), a Go map or []datum.MapEntry for a MAP column (a
// map's entries are stored sorted by key), a slice of the fields or a struct (fields
// matched by `db` tag or name) for a ROW column. Results: []any, []datum.MapEntry and
// []any whose elements are what Rows.Next returns for their type. Array, Map and Row
// scan those into typed Go values.

// isNestedArg reports whether CheckNamedValue should pass x on to the planner as
// an ARRAY, MAP or ROW value: slices, arrays, maps and structs that are not
// driver.Valuer (those database/sql converts itself) nor time.Time.
func isNestedArg(x any) bool {
	if _, ok := x.(driver.Valuer); ok {
		return false
	}
	switch x.(type) {
	case time.Time, []byte:
		return false
	}
	rv := reflect.ValueOf(x)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return false
		}
		rv = rv.Elem()
	}
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		// Named byte slices (json.RawMessage, …) are bytes, as database/sql converts them.
		return rv.Type().Elem().Kind() != reflect.Uint8
	case reflect.Map, reflect.Struct:
		return true
	}
	return false
}

// Array returns a sql.Scanner that stores an ARRAY column into dest, a pointer to a Go
// slice (e.g. *[]string, *[]int32, *[]*string to keep NULL elements, *[][]int64 for
// ARRAY<ARRAY<BIGINT>>). A NULL array stores a nil slice; a NULL element into a
// non-pointer element type is an error.
//
//	var tags []string
//	err := db.QueryRowContext(ctx, "SELECT tags FROM t WHERE id = ?", 1).Scan(flussql.Array(&tags))
func Array(dest any) sql.Scanner {
	return nestedScanner{dest: dest, want: reflect.Slice, what: "Array"}
}

// Map returns a sql.Scanner that stores a MAP column into dest, a pointer to a Go map
// (e.g. *map[string]int64); a NULL map stores a nil map.
func Map(dest any) sql.Scanner { return nestedScanner{dest: dest, want: reflect.Map, what: "Map"} }

// Row returns a sql.Scanner that stores a ROW column into dest, a pointer to a struct
// whose fields match the ROW's fields in order (exported fields only), or to a slice.
// A NULL row leaves the zero value.
func Row(dest any) sql.Scanner { return nestedScanner{dest: dest, want: reflect.Struct, what: "Row"} }

// ArrayOf is a Go slice that scans from an ARRAY column, for the struct fields that sqlx
// and similar mappers fill, e.g. a field Tags flussql.ArrayOf[string] tagged db:"tags". As an
// argument it is a slice like any other. A NULL array scans as nil.
type ArrayOf[T any] []T

// Scan implements sql.Scanner.
func (a *ArrayOf[T]) Scan(src any) error {
	return assignValue(reflect.ValueOf(a).Elem(), src, "value")
}

// MapOf is a Go map that scans from a MAP column, for struct fields that mappers fill; as
// an argument it is a map like any other. A NULL map scans as nil.
type MapOf[K comparable, V any] map[K]V

// Scan implements sql.Scanner.
func (m *MapOf[K, V]) Scan(src any) error {
	return assignValue(reflect.ValueOf(m).Elem(), src, "value")
}

type nestedScanner struct {
	dest any
	want reflect.Kind
	what string
}

// Scan implements sql.Scanner.
func (s nestedScanner) Scan(src any) error {
	dv := reflect.ValueOf(s.dest)
	if dv.Kind() != reflect.Pointer || dv.IsNil() {
		return fmt.Errorf("flussql.%s: destination must be a non-nil pointer, got %T", s.what, s.dest)
	}
	target := dv.Elem()
	if k := target.Kind(); k != s.want && !(s.want == reflect.Struct && k == reflect.Slice) {
		return fmt.Errorf("flussql.%s: destination must point to a %s, got %T", s.what, s.want, s.dest)
	}
	return assign(target, src, "value")
}

var typeScanner = reflect.TypeFor[sql.Scanner]()

// assign stores a driver value (nested values included) into dst, converting
// numbers within range; path names the place in errors.
func assign(dst reflect.Value, src any, path string) error {
	if dst.CanAddr() && dst.Addr().Type().Implements(typeScanner) {
		return dst.Addr().Interface().(sql.Scanner).Scan(src)
	}
	return assignValue(dst, src, path)
}

// assignValue is assign without the sql.Scanner check (for the Scan methods of ArrayOf
// and MapOf themselves).
func assignValue(dst reflect.Value, src any, path string) error {
	if src == nil {
		switch dst.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			dst.SetZero()
			return nil
		}
		if dst.Kind() == reflect.Struct { // a NULL ROW
			dst.SetZero()
			return nil
		}
		return fmt.Errorf("flussql: %s is NULL; scan into a pointer element type (e.g. []*%s) to keep NULLs", path, dst.Type())
	}
	if dst.Kind() == reflect.Pointer {
		p := reflect.New(dst.Type().Elem())
		if err := assign(p.Elem(), src, path); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	}
	if dst.Kind() == reflect.Interface && reflect.TypeOf(src).AssignableTo(dst.Type()) {
		dst.Set(reflect.ValueOf(src))
		return nil
	}
	switch x := src.(type) {
	case []any:
		switch dst.Kind() {
		case reflect.Slice:
			out := reflect.MakeSlice(dst.Type(), len(x), len(x))
			for i, e := range x {
				if err := assign(out.Index(i), e, fmt.Sprintf("%s[%d]", path, i+1)); err != nil {
					return err
				}
			}
			dst.Set(out)
			return nil
		case reflect.Struct:
			fields, names := exportedFields(dst)
			if len(fields) != len(x) {
				return fmt.Errorf("flussql: %s has %d fields; %s has %d exported fields", path, len(x), dst.Type(), len(fields))
			}
			for i, e := range x {
				if err := assign(fields[i], e, path+"."+names[i]); err != nil {
					return err
				}
			}
			return nil
		}
	case []datum.MapEntry:
		if dst.Kind() == reflect.Map {
			out := reflect.MakeMapWithSize(dst.Type(), len(x))
			for _, e := range x {
				k := reflect.New(dst.Type().Key()).Elem()
				if err := assign(k, e.Key, path+" key"); err != nil {
					return err
				}
				v := reflect.New(dst.Type().Elem()).Elem()
				if err := assign(v, e.Value, fmt.Sprintf("%s[%v]", path, e.Key)); err != nil {
					return err
				}
				out.SetMapIndex(k, v)
			}
			dst.Set(out)
			return nil
		}
	default:
		return assignScalar(dst, src, path)
	}
	return fmt.Errorf("flussql: cannot store %s (%T) into %s", path, src, dst.Type())
}

func exportedFields(v reflect.Value) (fields []reflect.Value, names []string) {
	for i := 0; i < v.NumField(); i++ {
		if f := v.Type().Field(i); f.IsExported() {
			fields = append(fields, v.Field(i))
			names = append(names, f.Name)
		}
	}
	return fields, names
}

// assignScalar stores a scalar driver value (int64, float64, bool, string, []byte,
// time.Time) into dst, refusing conversions that lose information.
func assignScalar(dst reflect.Value, src any, path string) error {
	sv := reflect.ValueOf(src)
	if sv.Type().AssignableTo(dst.Type()) {
		if b, ok := src.([]byte); ok {
			src = append([]byte(nil), b...)
			sv = reflect.ValueOf(src)
		}
		dst.Set(sv)
		return nil
	}
	fail := func() error {
		return fmt.Errorf("flussql: cannot store %s (%T %v) into %s", path, src, src, dst.Type())
	}
	switch x := src.(type) {
	case int64:
		switch dst.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if dst.OverflowInt(x) {
				return fail()
			}
			dst.SetInt(x)
			return nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if x < 0 || dst.OverflowUint(uint64(x)) {
				return fail()
			}
			dst.SetUint(uint64(x))
			return nil
		case reflect.Float32, reflect.Float64:
			dst.SetFloat(float64(x))
			return nil
		}
	case float64:
		if dst.Kind() == reflect.Float32 || dst.Kind() == reflect.Float64 {
			dst.SetFloat(x)
			return nil
		}
	case string:
		switch dst.Kind() {
		case reflect.String:
			dst.SetString(x)
			return nil
		case reflect.Float32, reflect.Float64: // DECIMAL elements are text
			var f float64
			if _, err := fmt.Sscan(strings.TrimSpace(x), &f); err == nil {
				dst.SetFloat(f)
				return nil
			}
		}
		if dst.Type() == typeBytes {
			dst.SetBytes([]byte(x))
			return nil
		}
	case []byte:
		if dst.Kind() == reflect.String {
			dst.SetString(string(x))
			return nil
		}
	}
	if dst.Kind() == reflect.Interface && sv.Type().Implements(dst.Type()) {
		dst.Set(sv)
		return nil
	}
	return fail()
}
