package fluss

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// This file holds the recursive column codecs of arrow_rows.go, laid out as
// Fluss's Java ArrowUtils.toArrowField and ArrowRowWriter / ArrowArrayWriter
// / ArrowMapWriter do (checked against v0.9.1-incubating):
//
//	ROW<…>    Struct, one child per field (named after the field)
//	ARRAY<T>  List, child "element" (nullable as T)
//	MAP<K,V>  Map(keysSorted=false), child "entries" (a non-null Struct) of
//	          "key" (never null) and "value" (nullable as V)
//
// Value model: ROW and ARRAY are []any (nil = a NULL field or element), MAP
// is []datum.MapEntry in stored order (Key never nil). Readers return an empty,
// non-nil slice for an empty ARRAY or MAP, so it stays distinct from NULL.

// nestedSize is the size estimate of a NULL nested value.
const nestedSize = 1

// checkNested validates a nested value that may be nil; what names the
// position (e.g. "element 3") for errors.
func checkNested(c columnCodec, v any, what string) (int, error) {
	if v == nil {
		if c.t.NotNull {
			return 0, fmt.Errorf("%s is NULL but the type is %s", what, c.t)
		}
		return nestedSize, nil
	}
	n, err := c.check(v)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", what, err)
	}
	return n, nil
}

// putNested appends a nested value (nil for NULL) that passed checkNested.
func putNested(c columnCodec, b array.Builder, v any) {
	if v == nil {
		b.AppendNull()
		return
	}
	c.put(b, v)
}

// getNested reads position i of a nested array, nil for NULL.
func getNested(c columnCodec, a arrow.Array, i int) any {
	if a.IsNull(i) {
		return nil
	}
	return c.get(a, i)
}

func structCodec(t types.DataType) (columnCodec, error) {
	fields := make([]columnCodec, len(t.Fields))
	for i, f := range t.Fields {
		fc, err := newColumnCodec(f.Type)
		if err != nil {
			return columnCodec{}, fmt.Errorf("field %q: %w", f.Name, err)
		}
		fields[i] = fc
	}
	return columnCodec{
		t: t,
		check: func(v any) (int, error) {
			vals, ok := v.([]any)
			if !ok {
				return 0, badType(t, "[]any", v)
			}
			if len(vals) != len(fields) {
				return 0, fmt.Errorf("%s has %d fields, got %d values", t, len(fields), len(vals))
			}
			size := 0
			for i, fv := range vals {
				n, err := checkNested(fields[i], fv, fmt.Sprintf("field %q", t.Fields[i].Name))
				if err != nil {
					return 0, err
				}
				size += n
			}
			return size, nil
		},
		put: func(b array.Builder, v any) {
			sb := b.(*array.StructBuilder)
			sb.Append(true)
			for i, fv := range v.([]any) {
				putNested(fields[i], sb.FieldBuilder(i), fv)
			}
		},
		get: func(a arrow.Array, i int) any {
			sa := a.(*array.Struct)
			out := make([]any, len(fields))
			for f := range fields {
				out[f] = getNested(fields[f], sa.Field(f), i)
			}
			return out
		},
	}, nil
}

func listCodec(t types.DataType) (columnCodec, error) {
	if t.Elem == nil {
		return columnCodec{}, fmt.Errorf("ARRAY without element type")
	}
	elem, err := newColumnCodec(*t.Elem)
	if err != nil {
		return columnCodec{}, fmt.Errorf("ARRAY element: %w", err)
	}
	return columnCodec{
		t: t,
		check: func(v any) (int, error) {
			vals, ok := v.([]any)
			if !ok {
				return 0, badType(t, "[]any", v)
			}
			size := 4 // the offset
			for j, ev := range vals {
				n, err := checkNested(elem, ev, fmt.Sprintf("element %d", j))
				if err != nil {
					return 0, err
				}
				size += n
			}
			return size, nil
		},
		put: func(b array.Builder, v any) {
			lb := b.(*array.ListBuilder)
			lb.Append(true)
			eb := lb.ValueBuilder()
			for _, ev := range v.([]any) {
				putNested(elem, eb, ev)
			}
		},
		get: func(a arrow.Array, i int) any {
			la := a.(*array.List)
			start, end := la.ValueOffsets(i)
			values := la.ListValues()
			out := make([]any, 0, end-start)
			for j := start; j < end; j++ {
				out = append(out, getNested(elem, values, int(j)))
			}
			return out
		},
	}, nil
}

func mapCodec(t types.DataType) (columnCodec, error) {
	if t.Key == nil || t.Value == nil {
		return columnCodec{}, fmt.Errorf("MAP without key or value type")
	}
	key, err := newColumnCodec(t.Key.AsNotNull()) // Fluss's MapType forces NOT NULL keys
	if err != nil {
		return columnCodec{}, fmt.Errorf("MAP key: %w", err)
	}
	value, err := newColumnCodec(*t.Value)
	if err != nil {
		return columnCodec{}, fmt.Errorf("MAP value: %w", err)
	}
	return columnCodec{
		t: t,
		check: func(v any) (int, error) {
			entries, ok := v.([]datum.MapEntry)
			if !ok {
				return 0, badType(t, "[]datum.MapEntry", v)
			}
			size := 4 // the offset
			for j, e := range entries {
				if e.Key == nil {
					return 0, fmt.Errorf("entry %d: the key is NULL (MAP keys are NOT NULL)", j)
				}
				n, err := checkNested(key, e.Key, fmt.Sprintf("entry %d key", j))
				if err != nil {
					return 0, err
				}
				m, err := checkNested(value, e.Value, fmt.Sprintf("entry %d value", j))
				if err != nil {
					return 0, err
				}
				size += n + m
			}
			return size, nil
		},
		put: func(b array.Builder, v any) {
			mb := b.(*array.MapBuilder)
			mb.Append(true)
			kb, vb := mb.KeyBuilder(), mb.ItemBuilder()
			for _, e := range v.([]datum.MapEntry) {
				key.put(kb, e.Key)
				putNested(value, vb, e.Value)
			}
		},
		get: func(a arrow.Array, i int) any {
			ma := a.(*array.Map)
			start, end := ma.ValueOffsets(i)
			keys, items := ma.Keys(), ma.Items()
			out := make([]datum.MapEntry, 0, end-start)
			for j := start; j < end; j++ {
				out = append(out, datum.MapEntry{Key: getNested(key, keys, int(j)), Value: getNested(value, items, int(j))})
			}
			return out
		},
	}, nil
}
