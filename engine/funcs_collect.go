package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// COLLECT, Flink's multiset aggregate. Flink's MULTISET<T> is a map from
// each distinct element to its count underneath (MAP<T, INT NOT NULL>), and
// flussql, whose types (Fluss's) have no MULTISET, returns exactly that
// map: the same entries Flink's SQL gateway prints ({a=2, b=1}), typed MAP.

func init() {
	register(&FuncDef{Name: "COLLECT", Kind: AggregateFunc, Family: "collection",
		Signature: "COLLECT(x) → MULTISET<type of x>, as MAP<type of x, INT NOT NULL>",
		Desc:      "the multiset of the non-NULL x: each distinct x with its count ({} over no rows)",
		Example:   "COLLECT(x) = {a=2, b=1}",
		Type:      collectType, AggState: func(*Agg) aggState { return &collectState{slot: map[any]int{}} }})
}

func collectType(fn string, args []Expr) ([]Expr, types.DataType, any, error) {
	if len(args) != 1 {
		return nil, types.DataType{}, nil, fmt.Errorf("%s takes one argument", fn)
	}
	t := args[0].Type() // scalar: NewAggArgs refuses nested arguments
	return args, types.NewMap(t.AsNotNull(), types.NewInt().AsNotNull()).AsNotNull(), nil, nil
}

// collectState counts each distinct value, in the order values first came.
type collectState struct {
	slot    map[any]int
	entries []datum.MapEntry
}

func (s *collectState) add(v any) error {
	k := hashKey(v)
	if i, ok := s.slot[k]; ok {
		s.entries[i].Value = s.entries[i].Value.(int64) + 1
		return nil
	}
	s.slot[k] = len(s.entries)
	s.entries = append(s.entries, datum.MapEntry{Key: v, Value: int64(1)})
	return nil
}

func (s *collectState) result() (any, error) {
	return append([]datum.MapEntry{}, s.entries...), nil
}

// nestedPutter appends a MAP value of the model ([]datum.MapEntry) to a
// map builder; nil for other builders.
func nestedPutter(b array.Builder) func(v any) {
	mb, ok := b.(*array.MapBuilder)
	if !ok {
		return nil
	}
	key, item := appender(mb.KeyBuilder()), appender(mb.ItemBuilder())
	return func(v any) {
		mb.Append(true)
		for _, e := range v.([]datum.MapEntry) {
			key(e.Key)
			item(e.Value)
		}
	}
}
