package planner

import (
	"cmp"
	"database/sql/driver"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// This file converts Go arguments for ARRAY, MAP and ROW columns into the
// value model ([]any, []datum.MapEntry, []any; a nil slice or map is NULL),
// element by element with the scalar rules of convertArg. Errors name the
// element: tags[2] (1-based, as SQL arrays), attrs['k'], addr.city.

var typeMapEntries = reflect.TypeFor[[]datum.MapEntry]()

// convertComplexArg converts x for column (or element) col of the ARRAY, MAP
// or ROW type t.
func convertComplexArg(col string, t types.DataType, x any, loc *time.Location) (any, error) {
	if x == nil {
		return nil, nil
	}
	rv := reflect.ValueOf(x)
	for rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil, nil
		}
		rv = rv.Elem()
	}
	if (rv.Kind() == reflect.Slice || rv.Kind() == reflect.Map) && rv.IsNil() {
		return nil, nil // a nil slice or map is NULL, as in lib/pq
	}
	switch t.Kind {
	case types.Array:
		return arrayArg(col, t, rv, loc)
	case types.Map:
		return mapArg(col, t, rv, loc)
	default:
		return rowArg(col, t, rv, loc)
	}
}

// elemArg converts one nested value: pointers are followed (nil is NULL),
// driver.Valuer values give their value, and NOT NULL is enforced.
func elemArg(name string, t types.DataType, x any, loc *time.Location) (any, error) {
	if v, ok := x.(driver.Valuer); ok {
		if rv := reflect.ValueOf(x); !(rv.Kind() == reflect.Pointer && rv.IsNil()) {
			dv, err := v.Value()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			x = dv
		}
	}
	rv := reflect.ValueOf(x)
	for rv.IsValid() && rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			x, rv = nil, reflect.Value{}
			break
		}
		rv = rv.Elem()
		x = rv.Interface()
	}
	var v any
	var err error
	if t.Kind.Nested() {
		v, err = convertComplexArg(name, t, x, loc)
	} else {
		v, err = convertArg(name, t, x, loc)
	}
	if err != nil {
		return nil, err
	}
	if v == nil && t.NotNull {
		return nil, fmt.Errorf("column %q is %s; got NULL", name, t)
	}
	return v, nil
}

func arrayArg(col string, t types.DataType, rv reflect.Value, loc *time.Location) (any, error) {
	if k := rv.Kind(); k != reflect.Slice && k != reflect.Array {
		return nil, mismatch(col, t, fmt.Sprintf("%T; pass a slice", rv.Interface()))
	}
	out := make([]any, rv.Len())
	for i := range out {
		v, err := elemArg(col+"["+strconv.Itoa(i+1)+"]", *t.Elem, rv.Index(i).Interface(), loc)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func mapArg(col string, t types.DataType, rv reflect.Value, loc *time.Location) (any, error) {
	key, val := *t.Key, *t.Value
	keyName := func(k any) string { return col + "[" + FormatValue(k) + "]" }
	if rv.Type() == typeMapEntries {
		entries := rv.Interface().([]datum.MapEntry)
		out := make([]datum.MapEntry, len(entries))
		for i, e := range entries {
			k, err := mapKeyArg(col, key, e.Key, loc)
			if err != nil {
				return nil, err
			}
			v, err := elemArg(keyName(k), val, e.Value, loc)
			if err != nil {
				return nil, err
			}
			out[i] = datum.MapEntry{Key: k, Value: v}
		}
		return out, checkDuplicateKeys(col, out)
	}
	if rv.Kind() != reflect.Map {
		return nil, mismatch(col, t, fmt.Sprintf("%T; pass a Go map or []datum.MapEntry", rv.Interface()))
	}
	out := make([]datum.MapEntry, 0, rv.Len())
	for it := rv.MapRange(); it.Next(); {
		k, err := mapKeyArg(col, key, it.Key().Interface(), loc)
		if err != nil {
			return nil, err
		}
		v, err := elemArg(keyName(k), val, it.Value().Interface(), loc)
		if err != nil {
			return nil, err
		}
		out = append(out, datum.MapEntry{Key: k, Value: v})
	}
	// A Go map has no order; store its entries sorted by key so that the same
	// map is always the same bytes.
	slices.SortFunc(out, func(a, b datum.MapEntry) int { return compareKeys(a.Key, b.Key) })
	return out, nil
}

func mapKeyArg(col string, t types.DataType, x any, loc *time.Location) (any, error) {
	k, err := elemArg(col+" key", t.AsNullable(), x, loc)
	if err != nil {
		return nil, err
	}
	if k == nil {
		return nil, fmt.Errorf("column %q: a MAP key must not be NULL", col)
	}
	return k, nil
}

// checkDuplicateKeys refuses a MAP value with a key twice: Fluss stores it,
// but the Java client keeps only the last entry of such a key when it reads.
func checkDuplicateKeys(col string, entries []datum.MapEntry) error {
	seen := make(map[string]bool, len(entries))
	for _, e := range entries {
		k := FormatValue(e.Key)
		if seen[k] {
			return fmt.Errorf("column %q: the MAP key %s appears twice", col, k)
		}
		seen[k] = true
	}
	return nil
}

// compareKeys orders converted map keys: numbers and strings naturally, the
// rest by their SQL text.
func compareKeys(a, b any) int {
	switch x := a.(type) {
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
	case int8:
		return cmp.Compare(x, b.(int8))
	case int16:
		return cmp.Compare(x, b.(int16))
	case int32:
		return cmp.Compare(x, b.(int32))
	case int64:
		return cmp.Compare(x, b.(int64))
	case float32:
		return cmp.Compare(x, b.(float32))
	case float64:
		return cmp.Compare(x, b.(float64))
	}
	return strings.Compare(FormatValue(a), FormatValue(b))
}

// rowArg takes a slice (fields in order) or a struct (fields matched by name:
// a `db` tag, else the Go field name, case-insensitively).
func rowArg(col string, t types.DataType, rv reflect.Value, loc *time.Location) (any, error) {
	out := make([]any, len(t.Fields))
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		if rv.Len() != len(t.Fields) {
			return nil, fmt.Errorf("column %q is %s with %d fields; got %d values", col, typeName(t), len(t.Fields), rv.Len())
		}
		for i, f := range t.Fields {
			v, err := elemArg(col+"."+f.Name, f.Type, rv.Index(i).Interface(), loc)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case reflect.Struct:
		byName := map[string]reflect.Value{}
		rt := rv.Type()
		for i := 0; i < rt.NumField(); i++ {
			sf := rt.Field(i)
			if !sf.IsExported() {
				continue
			}
			name := sf.Name
			if tag, _, _ := strings.Cut(sf.Tag.Get("db"), ","); tag != "" && tag != "-" {
				name = tag
			}
			byName[strings.ToLower(name)] = rv.Field(i)
		}
		for i, f := range t.Fields {
			fv, ok := byName[strings.ToLower(f.Name)]
			if !ok {
				return nil, fmt.Errorf("column %q is %s; Go type %s has no field for %q (name it %q or tag it `db:\"%s\"`)",
					col, typeName(t), rt, f.Name, f.Name, f.Name)
			}
			delete(byName, strings.ToLower(f.Name))
			v, err := elemArg(col+"."+f.Name, f.Type, fv.Interface(), loc)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		if len(byName) > 0 {
			extra := slices.Sorted(maps.Keys(byName))
			return nil, fmt.Errorf("column %q is %s; Go type %s has fields the ROW lacks: %s", col, typeName(t), rt, strings.Join(extra, ", "))
		}
		return out, nil
	}
	return nil, mismatch(col, t, fmt.Sprintf("%T; pass a slice of the fields or a struct", rv.Interface()))
}
