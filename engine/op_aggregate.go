package engine

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// aggregateOp is a hash aggregation: it reads its whole input, keeping one
// entry per group under the budget, and then emits the groups in order of
// first appearance. Arrow-go has no aggregation kernels, so this is
// hand-written, a batch at a time: the key and argument expressions are
// evaluated over the batch, every row gets its group number, and then each
// aggregate folds its argument column into its groups (accumulator).
//
// The state is columnar, so that a million groups cost a few large
// allocations and little garbage-collector scanning: a single integer key
// has its own index (intIndex) and key column, a single string key is kept
// by its index's byte arena (bytesIndex), several keys of integers,
// temporals, strings and DECIMALs are rows of 64-bit codes (multiKeys),
// other keys are encoded into a bytesIndex and kept as values of the model
// (anyKeys); COUNT, SUM, AVG,
// MIN and MAX of integers and floats are typed columns, other aggregates
// one aggState per group. The result columns are built from these.
type aggregateOp struct {
	ec     *evalCtx
	budget *Budget
	in     Operator
	node   *Aggregate
	schema *arrow.Schema
	mode   keyMode
	// ints and intKeys are the index and keys of an integer key; strs is
	// the index (and keys) of a string key, or of the encoded keys of
	// other keys, kept in keys. nullGroup is the NULL key's group of a
	// single key, -1 until it appears.
	ints      intIndex
	intKeys   []int64
	strs      bytesIndex
	keys      []anyKeys
	multi     *multiKeys // the index of several keys of the types it takes
	nullGroup int32
	groups    int
	accs      []accumulator
	gids      []int32
	key       []byte
	distinct  int64 // bytes the DISTINCT sets hold
	held      int64
	done      bool
}

// keyMode is how an aggregation indexes its groups.
type keyMode int

const (
	keysNone    keyMode = iota // a global aggregate: one group
	keyInt                     // one integer key, or DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ (integers in Arrow)
	keyString                  // one STRING or CHAR key
	keysMulti                  // several keys of integers, temporals, strings and DECIMALs (multiKeys)
	keysEncoded                // anything else
)

func newAggregate(ec *evalCtx, budget *Budget, in Operator, n *Aggregate) (Operator, error) {
	schema, err := schemaOf(n.Columns())
	if err != nil {
		in.Close()
		return nil, err
	}
	a := &aggregateOp{ec: ec, budget: budget, in: in, node: n, schema: schema, nullGroup: -1}
	switch {
	case len(n.Keys) == 0:
		a.mode = keysNone
	case len(n.Keys) == 1 && (isInt(n.Keys[0].Type().Kind) || isIntLike(n.Keys[0].Type().Kind)):
		a.mode = keyInt
	case len(n.Keys) == 1 && isString(n.Keys[0].Type().Kind):
		a.mode, a.strs = keyString, newBytesIndex()
	case len(n.Keys) <= maxMultiKeys && allKeys(n.Keys, multiKeyable):
		a.mode, a.multi = keysMulti, newMultiKeys(n.Keys)
	default:
		a.mode, a.strs, a.keys = keysEncoded, newBytesIndex(), make([]anyKeys, len(n.Keys))
	}
	for _, agg := range n.Aggs {
		a.accs = append(a.accs, newAccumulator(agg, a.growDistinct))
	}
	return a, nil
}

func (a *aggregateOp) grow(n int64) error {
	a.held += n
	return a.budget.Grow(n, "aggregation")
}

func (a *aggregateOp) growDistinct(n int64) error {
	a.distinct += n
	return a.grow(n)
}

// account brings the budget to what the groups' state holds now.
func (a *aggregateOp) account() error {
	now := a.ints.bytes() + int64(cap(a.intKeys))*8 + a.strs.bytes() + int64(cap(a.gids))*4
	for i := range a.keys {
		now += a.keys[i].bytes()
	}
	if a.multi != nil {
		now += a.multi.bytes()
	}
	for _, acc := range a.accs {
		now += acc.bytes()
	}
	return a.grow(now + a.distinct - a.held)
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
	if a.mode == keysNone && a.groups == 0 {
		a.groups = 1 // a global aggregate over no rows: one row
		for _, acc := range a.accs {
			acc.resize(1)
		}
	}
	return a.emit()
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
	args := make([]arrow.Array, len(a.node.Aggs))
	defer releaseAll(args)
	for i, agg := range a.node.Aggs {
		if agg.Arg != nil {
			if args[i], err = agg.Arg.eval(a.ec, b); err != nil {
				return err
			}
		}
	}
	if cap(a.gids) < n {
		a.gids = make([]int32, n)
	}
	gids := a.gids[:n]
	if err := a.assign(keyCols, gids); err != nil {
		return err
	}
	for i, acc := range a.accs {
		acc.resize(a.groups)
		if err := acc.update(gids, args[i]); err != nil {
			return err
		}
	}
	return a.account()
}

func (a *aggregateOp) emit() (arrow.RecordBatch, error) {
	cols := a.node.Columns()
	nk := len(a.node.Keys)
	arrs := make([]arrow.Array, len(cols))
	defer releaseAll(arrs)
	for i := range nk {
		arr, err := a.buildKeys(i, cols[i].Type)
		if err != nil {
			return nil, err
		}
		arrs[i] = arr
	}
	for i, acc := range a.accs {
		arr, err := acc.build(a.ec.mem)
		if err != nil {
			return nil, err
		}
		arrs[nk+i] = arr
	}
	out := arrowRecord(a.schema, arrs, int64(a.groups))
	a.release()
	return out, nil
}

func (a *aggregateOp) release() {
	a.ints, a.intKeys, a.strs, a.keys, a.accs, a.gids, a.groups = intIndex{}, nil, bytesIndex{}, nil, nil, nil, 0
	a.multi = nil
	a.budget.Shrink(a.held)
	a.held, a.distinct = 0, 0
}

func (a *aggregateOp) Close() {
	a.done = true
	a.in.Close()
	a.release()
}

// allKeys reports whether ok holds for the type of every key.
func allKeys(keys []Expr, ok func(types.DataType) bool) bool {
	for _, k := range keys {
		if !ok(k.Type()) {
			return false
		}
	}
	return true
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
