package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/datum"
)

// nestedGetter is getter for the nested values appender writes too: an
// ARRAY as []any of its elements, a MAP (and a MULTISET) as
// []datum.MapEntry; other types as getter reads them. A Window holds its
// rows as such values (an ARRAY_AGG … OVER column read by a second window).
func nestedGetter(arr arrow.Array) (func(i int) any, error) {
	switch a := arr.(type) {
	case *array.Map:
		keys, items := a.Keys(), a.Items()
		key, err := nestedGetter(keys)
		if err != nil {
			return nil, err
		}
		item, err := nestedGetter(items)
		if err != nil {
			return nil, err
		}
		return func(i int) any {
			lo, hi := a.ValueOffsets(i)
			out := make([]datum.MapEntry, 0, hi-lo)
			for j := int(lo); j < int(hi); j++ {
				e := datum.MapEntry{Key: key(j)}
				if items.IsValid(j) {
					e.Value = item(j)
				}
				out = append(out, e)
			}
			return out
		}, nil
	case *array.List:
		elems := a.ListValues()
		elem, err := nestedGetter(elems)
		if err != nil {
			return nil, err
		}
		return func(i int) any {
			lo, hi := a.ValueOffsets(i)
			out := make([]any, hi-lo)
			for j := int(lo); j < int(hi); j++ {
				if elems.IsValid(j) {
					out[j-int(lo)] = elem(j)
				}
			}
			return out
		}, nil
	}
	return getter(arr)
}
