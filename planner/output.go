package planner

import (
	"fmt"

	"github.com/flussql/flussql/fluss/types"
)

// Output describes what a read plan returns from its input rows: the
// residual filter, the LIMIT, COUNT(*) and the projection to the select
// list. Input rows are full table rows for Lookup, PrefixLookup and
// LimitScan, and rows in Scan.Projection order for Scan. Use Begin to
// apply it to a stream of input rows.
type Output struct {
	// Columns are the result columns. For COUNT(*) there is exactly one,
	// a BIGINT with Slot -1.
	Columns []OutputColumn
	// Filter is the residual WHERE filter over input rows; nil for none.
	Filter *Filter
	// Count is set for SELECT COUNT(*): the result is one row holding the
	// number of input rows that pass Filter.
	Count bool
	// LimitValue is LIMIT as written (nil without LIMIT); Limit is its
	// bound value, -1 without LIMIT. For COUNT(*) the limit applies to the
	// one result row.
	LimitValue *Value
	Limit      int64
	// OffsetValue, set only for the limit scan of a subquery whose LIMIT
	// or OFFSET is a placeholder, is added to Limit when bound: the scan
	// reads LIMIT + OFFSET rows of each bucket.
	OffsetValue *Value
}

// OutputColumn is one result column: its name exactly as the select list
// writes it (or its alias), its type and its position in input rows.
type OutputColumn struct {
	Name string
	Type types.DataType
	Slot int
}

// ResultColumns returns the result columns as ResultColumns.
func (o *Output) ResultColumns() []ResultColumn {
	out := make([]ResultColumn, len(o.Columns))
	for i, c := range o.Columns {
		out[i] = ResultColumn{Name: c.Name, Type: c.Type}
	}
	return out
}

// Results applies an Output to a stream of input rows. It is not safe
// for concurrent use.
type Results struct {
	o       *Output
	emitted int64
	count   int64
}

// Begin returns a Results for one execution of the plan.
func (o *Output) Begin() *Results { return &Results{o: o} }

// Done reports that no further input can change the result: the LIMIT
// has been reached (for COUNT(*): LIMIT 0). Check it before reading and
// after every Add, and stop reading once it is true.
func (r *Results) Done() bool {
	if r.o.Limit < 0 {
		return false
	}
	if r.o.Count {
		return r.o.Limit == 0
	}
	return r.emitted >= r.o.Limit
}

// Add takes one input row. It returns the result row to emit, or nil
// when the row is filtered out, counted (COUNT(*)) or beyond the LIMIT.
// The result row shares values with in (strings and byte slices are not
// copied).
func (r *Results) Add(in []any) ([]any, error) {
	if r.Done() {
		return nil, nil
	}
	ok, err := r.o.Filter.Eval(in)
	if err != nil || !ok {
		return nil, err
	}
	if r.o.Count {
		r.count++
		return nil, nil
	}
	out := make([]any, len(r.o.Columns))
	for i, c := range r.o.Columns {
		if c.Slot >= len(in) {
			return nil, fmt.Errorf("planner: input row has %d values, column %q needs position %d", len(in), c.Name, c.Slot)
		}
		out[i] = in[c.Slot]
	}
	r.emitted++
	return out, nil
}

// Finish returns the rows to emit after the input ended: the count row
// for COUNT(*) (unless LIMIT 0), nothing otherwise.
func (r *Results) Finish() [][]any {
	if !r.o.Count || r.o.Limit == 0 {
		return nil
	}
	return [][]any{{r.count}}
}

func (o *Output) bind(bd *binder) (Output, error) {
	out := *o
	f, err := o.Filter.bind(bd)
	if err != nil {
		return Output{}, err
	}
	out.Filter = f
	out.Limit = -1
	if o.LimitValue != nil {
		v, err := bd.value(*o.LimitValue)
		if err != nil {
			return Output{}, err
		}
		n, ok := v.Const.(int64)
		if !ok || n < 0 {
			return Output{}, fmt.Errorf("LIMIT must be a non-negative integer, not %s", v)
		}
		out.LimitValue = &v
		out.Limit = n
	}
	if o.OffsetValue != nil && out.Limit >= 0 {
		v, err := bd.value(*o.OffsetValue)
		if err != nil {
			return Output{}, err
		}
		n, ok := v.Const.(int64)
		if !ok || n < 0 {
			return Output{}, fmt.Errorf("OFFSET must be a non-negative integer, not %s", v)
		}
		out.OffsetValue = &v
		out.Limit += n
	}
	return out, nil
}
