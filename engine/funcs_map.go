package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// The MAP functions of the collection family, as Flink 1.20 has them.
// Their kernels work on whole Arrow arrays: MAP_KEYS, MAP_VALUES and
// MAP_ENTRIES reuse the map's offsets over its keys, items or entries (no
// element copied); MAP_FROM_ARRAYS and MAP_UNION pick element indexes per
// row and gather them with Arrow's take kernel (rowPicks).
//
// A MAP key is never NULL in flussql: Fluss's MAP type (and Arrow's) has
// NOT NULL keys. Where Flink makes a NULL key (MAP[NULL, 1],
// MAP_FROM_ARRAYS with a NULL in the keys) flussql fails and says so.

func init() {
	register(
		&FuncDef{Name: "MAP_KEYS", Family: "collection", Signature: "MAP_KEYS(m MAP<K, V>) → ARRAY<K>",
			Desc: "the keys of m, in its order", Example: "MAP_KEYS(MAP['a', 1, 'b', 2])[2] = 'b'",
			Type: mapPartType(func(m types.DataType) types.DataType { return types.NewArray(*m.Key) }), Kernel: mapPartKernel(0)},
		&FuncDef{Name: "MAP_VALUES", Family: "collection", Signature: "MAP_VALUES(m MAP<K, V>) → ARRAY<V>",
			Desc: "the values of m, in the order of its keys", Example: "MAP_VALUES(MAP['a', 1, 'b', 2])[2] = 2",
			Type: mapPartType(func(m types.DataType) types.DataType { return types.NewArray(*m.Value) }), Kernel: mapPartKernel(1)},
		&FuncDef{Name: "MAP_ENTRIES", Family: "collection", Signature: "MAP_ENTRIES(m MAP<K, V>) → ARRAY<ROW<key K, value V>>",
			Desc: "the entries of m as rows (key, value)", Example: "CARDINALITY(MAP_ENTRIES(MAP['a', 1, 'b', 2])) = 2",
			Type: mapPartType(func(m types.DataType) types.DataType {
				return types.NewArray(types.NewRow(types.Field{Name: "key", Type: *m.Key}, types.Field{Name: "value", Type: *m.Value}))
			}), Kernel: mapPartKernel(2)},
		&FuncDef{Name: "MAP_FROM_ARRAYS", Family: "collection", Signature: "MAP_FROM_ARRAYS(keys ARRAY<K>, values ARRAY<V>) → MAP<K, V>",
			Desc:    "the map of keys[i] to values[i]; arrays of different lengths are an error; a repeated key stays repeated (as Flink)",
			Example: "MAP_FROM_ARRAYS(SPLIT('a,b', ','), SPLIT('1,2', ','))['b'] = '2'",
			Type:    mapFromArraysType, Kernel: mapFromArraysKernel},
		&FuncDef{Name: "MAP_UNION", Family: "collection", Signature: "MAP_UNION(m1 MAP<K, V>, m2 MAP<K, V>, …) → MAP<K, V>",
			Desc:    "the entries of all maps, a later map's value winning for a repeated key; NULL when any map is",
			Example: "MAP_UNION(MAP['a', 1, 'b', 2], MAP['b', 3])['b'] = 3",
			Type:    mapUnionType, Kernel: mapUnionKernel},
	)
}

// mapPartType types MAP_KEYS, MAP_VALUES and MAP_ENTRIES: one MAP.
func mapPartType(result func(m types.DataType) types.DataType) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		if err := argc(name, args, 1, 1); err != nil {
			return nil, types.DataType{}, nil, err
		}
		m := args[0].Type()
		if m.Kind != types.Map {
			return nil, types.DataType{}, nil, fmt.Errorf("%s needs a MAP, not %s (%s)", name, args[0], TypeName(m))
		}
		return args, nullable(result(m), m.NotNull), nil, nil
	}
}

// mapPartKernel: part 0 the keys, 1 the values, 2 the entries as ROWs.
func mapPartKernel(part int) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		m, ok := ins[0].(*array.Map)
		if !ok {
			return nil, fmt.Errorf("engine: %s got a %s column, not a MAP", c.Name, ins[0].DataType())
		}
		if part == 2 {
			at, err := arrowType(*c.T.Elem)
			if err != nil {
				return nil, err
			}
			e := m.Data().Children()[0]
			rows := array.NewData(at, e.Len(), e.Buffers(), e.Children(), e.NullN(), e.Offset())
			defer rows.Release()
			return listOverMap(c.T, m, rows)
		}
		keys, items := mapParts(m)
		defer keys.Release()
		defer items.Release()
		return listOverMap(c.T, m, []arrow.Array{keys, items}[part].Data())
	}
}

func mapFromArraysType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 2); err != nil {
		return nil, types.DataType{}, nil, err
	}
	for _, a := range args {
		if a.Type().Kind != types.Array {
			return nil, types.DataType{}, nil, fmt.Errorf("%s needs two ARRAYs, not %s (%s)", name, a, TypeName(a.Type()))
		}
	}
	k, v := *args[0].Type().Elem, *args[1].Type().Elem
	if k.Kind.Nested() {
		return nil, types.DataType{}, nil, fmt.Errorf("%w: %s with keys of type %s; use scalar keys", ErrUnsupported, name, TypeName(k))
	}
	return args, nullable(types.NewMap(k.AsNotNull(), v), allNotNull(args)), nil, nil
}

func mapFromArraysKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	ka, ok1 := ins[0].(*array.List)
	va, ok2 := ins[1].(*array.List)
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("engine: %s got %s and %s columns, not ARRAYs", c.Name, ins[0].DataType(), ins[1].DataType())
	}
	keys, items := ka.ListValues(), va.ListValues()
	p := newRowPicks(n)
	var vidx []int64
	for r := range n {
		if ka.IsNull(r) || va.IsNull(r) {
			p.end(false)
			continue
		}
		ks, ke := ka.ValueOffsets(r)
		vs, ve := va.ValueOffsets(r)
		if ke-ks != ve-vs {
			return nil, fmt.Errorf("%s: the keys have %d elements and the values %d; they must be as many", c.Name, ke-ks, ve-vs)
		}
		for j := range ke - ks {
			if keys.IsNull(int(ks + j)) {
				return nil, fmt.Errorf("%s: key %d is NULL; flussql's MAP keys are never NULL (Fluss's MAP type)", c.Name, j+1)
			}
			p.add(ks + j)
			vidx = append(vidx, vs+j)
		}
		p.end(true)
	}
	// The values are taken at their own indexes: gather them first, in the
	// keys' order, so that one index list serves both.
	vs, err := takeIdx(ec, items, vidx)
	if err != nil {
		return nil, err
	}
	defer vs.Release()
	ks, err := takeIdx(ec, keys, p.idx)
	if err != nil {
		return nil, err
	}
	defer ks.Release()
	for i := range p.idx {
		p.idx[i] = int64(i)
	}
	return p.mapOf(ec, c.T, ks, vs)
}

func mapUnionType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, -1); err != nil {
		return nil, types.DataType{}, nil, err
	}
	t := args[0].Type()
	for _, a := range args {
		at := a.Type()
		if at.Kind != types.Map {
			return nil, types.DataType{}, nil, fmt.Errorf("%s needs MAPs, not %s (%s)", name, a, TypeName(at))
		}
		if !sameShape(*at.Key, *t.Key) || !sameShape(*at.Value, *t.Value) {
			return nil, types.DataType{}, nil, fmt.Errorf("%s needs MAPs of one type: %s and %s differ (as in Flink, cast one of them)", name, TypeName(t), TypeName(at))
		}
		if !at.Value.NotNull {
			v := at.Value.AsNullable()
			t.Value = &v
		}
	}
	return args, nullable(types.NewMap(*t.Key, *t.Value), allNotNull(args)), nil, nil
}

func mapUnionKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	maps := make([]*array.Map, len(ins))
	var keys, items []arrow.Array
	defer func() { releaseAll(keys); releaseAll(items) }()
	for i, a := range ins {
		m, ok := a.(*array.Map)
		if !ok {
			return nil, fmt.Errorf("engine: %s got a %s column, not a MAP", c.Name, a.DataType())
		}
		maps[i] = m
		k, v := mapParts(m)
		keys, items = append(keys, k), append(items, v)
	}
	base := make([]int64, len(ins))
	for i := 1; i < len(ins); i++ {
		base[i] = base[i-1] + int64(keys[i-1].Len())
	}
	gets := make([]func(int) any, len(ins))
	for i, k := range keys {
		g, err := getter(k)
		if err != nil {
			return nil, err
		}
		gets[i] = g
	}
	p := newRowPicks(n)
	slot := map[any]int{}
	for r := range n {
		if anyNull(ins, r) {
			p.end(false)
			continue
		}
		clear(slot)
		for i, m := range maps {
			s, e := m.ValueOffsets(r)
			for j := s; j < e; j++ {
				k := hashKey(gets[i](int(j)))
				if at, ok := slot[k]; ok {
					p.idx[at] = base[i] + j
					continue
				}
				slot[k] = len(p.idx)
				p.add(base[i] + j)
			}
		}
		p.end(true)
	}
	fk, err := concatArrays(ec, keys)
	if err != nil {
		return nil, err
	}
	defer fk.Release()
	fv, err := concatArrays(ec, items)
	if err != nil {
		return nil, err
	}
	defer fv.Release()
	return p.mapOf(ec, c.T, fk, fv)
}
