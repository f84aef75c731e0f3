package engine

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// aggregateOp is a hash aggregation: it reads its whole input, keeping one
// entry per group (the key values and one state per aggregate) under the
// budget, and then emits the groups in order of first appearance. Arrow-go
// has no aggregation kernels, so this is hand-written; the key and
// argument expressions are still evaluated a batch at a time.
type aggregateOp struct {
	ec     *evalCtx
	budget *Budget
	in     Operator
	node   *Aggregate
	schema *arrow.Schema
	// index maps a group's encoded key to its position in order. Groups
	// live in slabs rather than as one object each, so that a million
	// groups cost a few large allocations and little garbage-collector
	// scanning: the keys of group g are keys[g*nk:(g+1)*nk], its states
	// states[g*na:(g+1)*na], its DISTINCT sets seen[g*na:(g+1)*na] (only
	// when an aggregate is DISTINCT).
	index map[string]int32
	// intIndex and nullGroup replace index when the only key is an integer
	// (the common GROUP BY): no key bytes to build and hash, and a map the
	// garbage collector need not scan. nullGroup is the NULL key's group, -1
	// until it appears.
	intIndex  map[int64]int32
	nullGroup int32
	groups    int
	keys      []any
	states    []aggState
	seen      []map[string]struct{}
	distinct  bool
	arena     stateArena
	held      int64
	done      bool
}

const groupOverhead = 96

func newAggregate(ec *evalCtx, budget *Budget, in Operator, n *Aggregate) (Operator, error) {
	schema, err := schemaOf(n.Columns())
	if err != nil {
		in.Close()
		return nil, err
	}
	a := &aggregateOp{ec: ec, budget: budget, in: in, node: n, schema: schema, index: map[string]int32{},
		intIndex: map[int64]int32{}, nullGroup: -1}
	for _, agg := range n.Aggs {
		a.distinct = a.distinct || agg.Distinct
	}
	return a, nil
}

func (a *aggregateOp) grow(n int64) error {
	a.held += n
	return a.budget.Grow(n, "aggregation")
}

func (a *aggregateOp) Next() (arrow.RecordBatch, error) {
	if a.done {
		return nil, io.EOF
	}
	for {
		b, err := a.in.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		err = a.consume(b)
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	a.done = true
	a.in.Close()
	if len(a.node.Keys) == 0 && a.groups == 0 {
		a.newGroup() // a global aggregate over no rows: one row
	}
	return a.emit()
}

// newGroup adds a group whose keys the caller has appended to a.keys, and
// returns its number.
func (a *aggregateOp) newGroup() int {
	for _, agg := range a.node.Aggs {
		a.states = append(a.states, agg.newStateIn(&a.arena))
		if a.distinct {
			var set map[string]struct{}
			if agg.Distinct {
				set = map[string]struct{}{}
			}
			a.seen = append(a.seen, set)
		}
	}
	a.groups++
	return a.groups - 1
}

func (a *aggregateOp) consume(b arrow.RecordBatch) error {
	if err := a.ec.ctx.Err(); err != nil {
		return err
	}
	n := int(b.NumRows())
	keyCols, err := evalAll(a.ec, a.node.Keys, b)
	if err != nil {
		return err
	}
	defer releaseAll(keyCols)
	argExprs := make([]Expr, 0, len(a.node.Aggs))
	for _, agg := range a.node.Aggs {
		if agg.Arg != nil {
			argExprs = append(argExprs, agg.Arg)
		}
	}
	argCols, err := evalAll(a.ec, argExprs, b)
	if err != nil {
		return err
	}
	defer releaseAll(argCols)
	keyGet, err := getters(keyCols)
	if err != nil {
		return err
	}
	keyEnc := make([]func([]byte, int) []byte, len(keyCols))
	for i, c := range keyCols {
		if keyEnc[i], err = keyAppender(c); err != nil {
			return err
		}
	}
	argGet, err := getters(argCols)
	if err != nil {
		return err
	}
	argInt := make([]func(int) int64, len(argCols))
	for i, c := range argCols {
		argInt[i] = intReader(c)
	}
	var intKey func(int) int64
	if len(keyCols) == 1 {
		intKey = intReader(keyCols[0]) // nil unless an integer column
	}
	var key []byte
	for r := range n {
		var gi int32
		var ok bool
		var ik int64
		switch {
		case intKey != nil && keyCols[0].IsNull(r):
			gi, ok = a.nullGroup, a.nullGroup >= 0
		case intKey != nil:
			ik = intKey(r)
			gi, ok = a.intIndex[ik]
		default:
			key = key[:0]
			for i := range keyCols {
				key = keyEnc[i](key, r)
			}
			gi, ok = a.index[string(key)]
		}
		if !ok {
			size := int64(groupOverhead + len(key) + 48*len(a.node.Aggs))
			for i, c := range keyCols { // read the values only for a new group
				var k any
				if c.IsValid(r) {
					k = keyGet[i](r)
				}
				size += valueSize(k)
				a.keys = append(a.keys, k)
			}
			if err := a.grow(size); err != nil {
				return err
			}
			gi = int32(a.newGroup())
			switch {
			case intKey != nil && keyCols[0].IsNull(r):
				a.nullGroup = gi
			case intKey != nil:
				a.intIndex[ik] = gi
			default:
				a.index[string(key)] = gi
			}
		}
		na := len(a.node.Aggs)
		states := a.states[int(gi)*na : int(gi+1)*na]
		var seen []map[string]struct{}
		if a.distinct {
			seen = a.seen[int(gi)*na : int(gi+1)*na]
		}
		ai := 0
		for i, agg := range a.node.Aggs {
			if agg.Arg == nil {
				_ = states[i].add(true)
				continue
			}
			col := argCols[ai]
			get, fast := argGet[ai], argInt[ai]
			ai++
			if col.IsNull(r) {
				continue
			}
			if fast != nil && !agg.Distinct {
				// Integers go to COUNT, SUM and AVG states unboxed.
				if st, ok := states[i].(intAdder); ok {
					if err := st.addInt(fast(r)); err != nil {
						return err
					}
					continue
				}
			}
			v := get(r)
			if agg.Distinct {
				k := string(appendKey(nil, v))
				if _, dup := seen[i][k]; dup {
					continue
				}
				if err := a.grow(int64(len(k) + 48)); err != nil {
					return err
				}
				seen[i][k] = struct{}{}
			}
			if err := states[i].add(v); err != nil {
				return err
			}
		}
	}
	return nil
}

func getters(cols []arrow.Array) ([]func(int) any, error) {
	out := make([]func(int) any, len(cols))
	for i, c := range cols {
		g, err := getter(c)
		if err != nil {
			return nil, err
		}
		out[i] = g
	}
	return out, nil
}

func (a *aggregateOp) emit() (arrow.RecordBatch, error) {
	cols := a.node.Columns()
	nk, na := len(a.node.Keys), len(a.node.Aggs)
	vals := make([][]any, len(cols))
	for i := range vals {
		vals[i] = make([]any, a.groups)
	}
	for g := range a.groups {
		for i := range nk {
			vals[i][g] = a.keys[g*nk+i]
		}
		for i := range na {
			v, err := a.states[g*na+i].result()
			if err != nil {
				return nil, err
			}
			vals[nk+i][g] = v
		}
	}
	arrs := make([]arrow.Array, len(cols))
	for i, c := range cols {
		arr, err := buildArray(a.ec.mem, c.Type, vals[i])
		if err != nil {
			releaseAll(arrs)
			return nil, err
		}
		arrs[i] = arr
	}
	defer releaseAll(arrs)
	out := arrowRecord(a.schema, arrs, int64(a.groups))
	a.release()
	return out, nil
}

func (a *aggregateOp) release() {
	a.index, a.intIndex, a.keys, a.states, a.seen, a.groups = nil, nil, nil, nil, nil, 0
	a.arena = stateArena{}
	a.budget.Shrink(a.held)
	a.held = 0
}

func (a *aggregateOp) Close() {
	a.done = true
	a.in.Close()
	a.release()
}

// schemaOf is the Arrow schema of columns.
func schemaOf(cols []Column) (*arrow.Schema, error) {
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		at, err := arrowType(c.Type)
		if err != nil {
			return nil, err
		}
		fields[i] = arrow.Field{Name: c.Name, Type: at, Nullable: !c.Type.NotNull}
	}
	return arrow.NewSchema(fields, nil), nil
}

// intAdder is a state that takes integers unboxed.
type intAdder interface {
	addInt(v int64) error
}

func (s *countState) addInt(int64) error { s.n++; return nil }

func (s *intState) addInt(x int64) error {
	r := s.sum + x
	if (x > 0 && r < s.sum) || (x < 0 && r > s.sum) {
		return fmt.Errorf("%w: %s overflows BIGINT", ErrArithmetic, s.agg)
	}
	s.sum, s.n = r, s.n+1
	return nil
}

// intReader reads an integer array's values as int64 (nil for other arrays).
func intReader(arr arrow.Array) func(int) int64 {
	switch a := arr.(type) {
	case *array.Int8:
		return func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int16:
		return func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int32:
		return func(i int) int64 { return int64(a.Value(i)) }
	case *array.Int64:
		return a.Value
	}
	return nil
}
