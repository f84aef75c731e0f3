package planner

import (
	"fmt"
	"slices"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// Arg is one argument for a placeholder, like database/sql/driver's
// NamedValue: Ordinal is its 1-based position, Name is set for
// sql.Named arguments.
type Arg struct {
	Ordinal int
	Name    string
	Value   any
}

// Placeholders is what Bind needs to know about a plan's placeholders.
type Placeholders struct {
	// Params are the statement's placeholders.
	Params parser.Params
	// Location is the session's time zone when the plan was built; Bind
	// reads TIMESTAMP_LTZ strings without an offset in it (nil is UTC).
	Location *time.Location
	// bound is set on the plans Bind returns.
	bound bool
}

// Bound reports whether the plan came out of Bind (or out of Build for a
// statement without placeholders) and is ready to execute.
func (p *Placeholders) Bound() bool { return p.bound }

// bindable plans have placeholders or work to finish once values are known.
type bindable interface {
	Plan
	placeholders() *Placeholders
	bind(bd *binder) (Plan, error)
}

func (p *Placeholders) placeholders() *Placeholders { return p }

// Bind returns p with every placeholder replaced by its argument,
// converted to the type of the column it is written to or compared with.
// It also finishes the plan: NULL keys are refused, partition names
// rendered, lookup keys expanded and partitions pruned. Call it before
// executing any plan, with nil args when there are no placeholders. p is
// not modified.
func Bind(p Plan, args []Arg) (Plan, error) {
	bp, ok := p.(bindable)
	if !ok {
		if len(args) > 0 {
			return nil, fmt.Errorf("the statement takes no arguments, got %d", len(args))
		}
		return p, nil
	}
	ph := bp.placeholders()
	bd := &binder{args: args, names: ph.Params.Names, loc: ph.Location}
	if err := bd.checkCount(ph.Params); err != nil {
		return nil, err
	}
	if ph.bound && ph.Params.Positional == 0 && len(ph.Params.Names) == 0 {
		// Build has bound a statement without placeholders already: the
		// plan is final, so binding it again would only redo the work.
		return p, nil
	}
	out, err := bp.bind(bd)
	if err != nil {
		return nil, err
	}
	out.(bindable).placeholders().bound = true
	return out, nil
}

// binder resolves placeholders against arguments.
type binder struct {
	args  []Arg
	names []string
	loc   *time.Location
}

func (bd *binder) checkCount(p parser.Params) error {
	if len(p.Names) > 0 {
		for _, a := range bd.args {
			if a.Name != "" && !slices.Contains(p.Names, a.Name) {
				return fmt.Errorf("argument :%s is not used by the statement (placeholders: :%s)", a.Name, joinNames(p.Names))
			}
		}
		return nil
	}
	for _, a := range bd.args {
		if a.Name != "" {
			return fmt.Errorf("sql.Named(%q, …) cannot fill a ? placeholder (? binds by position, so the name would be ignored): write :%s in the statement where the value goes, or pass the value without sql.Named", a.Name, a.Name)
		}
	}
	if len(bd.args) != p.Positional {
		return fmt.Errorf("the statement has %d placeholders; want %d arguments, got %d", p.Positional, p.Positional, len(bd.args))
	}
	return nil
}

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", :"
		}
		out += n
	}
	return out
}

// arg finds the argument of a placeholder. Named placeholders take the
// argument of that name or, when no argument is named, the one at the
// position of the name's first use.
func (bd *binder) arg(p *Param) (Arg, bool) {
	ordinal := p.Ordinal
	if p.Name != "" {
		named := false
		for _, a := range bd.args {
			if a.Name == p.Name {
				return a, true
			}
			named = named || a.Name != ""
		}
		if named {
			return Arg{}, false
		}
		ordinal = slices.Index(bd.names, p.Name) + 1
	}
	// database/sql numbers its arguments 1, 2, … in order: the argument of ordinal n is
	// then at n-1, found without a scan (a multi-row INSERT has thousands of placeholders).
	if i := ordinal - 1; i >= 0 && i < len(bd.args) {
		if a := bd.args[i]; a.Ordinal == ordinal {
			return a, true
		}
	}
	for i, a := range bd.args {
		if a.Ordinal == ordinal || a.Ordinal == 0 && i == ordinal-1 {
			return a, true
		}
	}
	return Arg{}, false
}

// value returns v with its placeholder (if any) replaced by the converted
// argument.
func (bd *binder) value(v Value) (Value, error) {
	if v.Param == nil {
		return v, nil
	}
	c, err := bd.constant(&v)
	if err != nil {
		return v, err
	}
	return Value{Column: v.Column, Type: v.Type, Const: c}, nil
}

// constant returns v's constant, or its placeholder's argument converted to v's type. It
// takes v by pointer: a Value is large, and a prepared INSERT binds every value of every
// row here on each Exec.
func (bd *binder) constant(v *Value) (any, error) {
	if v.Param == nil {
		return v.Const, nil
	}
	if bd == nil {
		return nil, fmt.Errorf("placeholder %s has no argument", v.Param)
	}
	a, ok := bd.arg(v.Param)
	if !ok {
		return nil, fmt.Errorf("placeholder %s has no argument", v.Param)
	}
	c, err := convertArg(v.Column, v.Type, a.Value, bd.loc)
	if err != nil {
		if v.declared != nil {
			if _, err2 := convertArg(v.Column, *v.declared, a.Value, bd.loc); err2 != nil {
				err = err2
			}
		}
		return nil, fmt.Errorf("argument %s: %w", v.Param, err)
	}
	return c, nil
}

func (bd *binder) values(vs []Value) ([]Value, error) {
	out := make([]Value, len(vs))
	for i, v := range vs {
		b, err := bd.value(v)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// The bind methods of the plans with values.

func (p *Write) bind(bd *binder) (Plan, error) {
	var out *Write
	var vals []any // the bound values of every row, one allocation
	ncols := 0
	if len(p.Rows) > 0 {
		ncols = len(p.Rows[0].Values)
	}
	if len(p.Rows) == 1 && ncols <= smallRow {
		// The bulk path (a prepared one-row INSERT run many times): plan, row and values
		// in one allocation.
		one := &struct {
			w    Write
			rows [1]WriteRow
			vals [smallRow]any
		}{w: *p}
		out = &one.w
		out.Rows = one.rows[:]
		vals = one.vals[:ncols:ncols]
	} else {
		cp := *p
		out = &cp
		out.Rows = make([]WriteRow, len(p.Rows))
		vals = make([]any, len(p.Rows)*ncols)
	}
	for i := range p.Rows {
		// Straight into the value model: no bound []Value.
		r := &p.Rows[i]
		var vs []any
		if len(r.Values) == ncols {
			vs = vals[i*ncols : (i+1)*ncols : (i+1)*ncols]
		} else {
			vs = make([]any, len(r.Values))
		}
		row, err := out.bindRow(bd, r, vs)
		if err != nil {
			return nil, rowError(len(p.Rows), i, err)
		}
		out.Rows[i] = row
	}
	return out, nil
}

// bindRow binds the values of r into vs (len(r.Values) long) and checks the row.
func (p *Write) bindRow(bd *binder, r *WriteRow, vs []any) (WriteRow, error) {
	for j := range r.Values {
		c, err := bd.constant(&r.Values[j])
		if err != nil {
			return WriteRow{}, err
		}
		vs[j] = c
	}
	return p.checkRow(WriteRow{bound: vs})
}

// smallRow is the most columns a one-row write binds into the allocation of its plan.
const smallRow = 8

func rowError(n, i int, err error) error {
	if n == 1 {
		return err
	}
	return fmt.Errorf("row %d: %w", i+1, err)
}

// bindSpec binds the values of a partition spec and renders it (create: the value rules
// of partition creation apply).
func bindSpec(bd *binder, values []Value, create bool) ([]Value, fluss.PartitionSpec, error) {
	vs, err := bd.values(values)
	if err != nil {
		return nil, nil, err
	}
	spec, err := renderSpec(vs, create)
	if err != nil {
		return nil, nil, err
	}
	return vs, spec, nil
}

func (p *AddPartition) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.Values, out.Spec, err = bindSpec(bd, p.Values, true); err != nil {
		return nil, err
	}
	return &out, nil
}

func (p *DropPartition) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.Values, out.Spec, err = bindSpec(bd, p.Values, false); err != nil {
		return nil, err
	}
	return &out, nil
}

func (p *ShowPartitions) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.Values, out.Spec, err = bindSpec(bd, p.Values, false); err != nil {
		return nil, err
	}
	return &out, nil
}

func (p *Lookup) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.KeySet, err = p.KeySet.bind(bd, p.Table); err != nil {
		return nil, err
	}
	if out.Output, err = p.Output.bind(bd); err != nil {
		return nil, err
	}
	return &out, nil
}

func (p *PrefixLookup) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.KeySet, err = p.KeySet.bind(bd, p.Table); err != nil {
		return nil, err
	}
	if out.Output, err = p.Output.bind(bd); err != nil {
		return nil, err
	}
	return &out, nil
}

func (p *LimitScan) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.PartitionSet, err = p.PartitionSet.bind(bd); err != nil {
		return nil, err
	}
	if out.Output, err = p.Output.bind(bd); err != nil {
		return nil, err
	}
	if out.Limit > 1<<31-1 {
		return nil, fmt.Errorf("LIMIT %d is too large for a limit scan (at most %d)", out.Limit, 1<<31-1)
	}
	return &out, nil
}

func (p *Scan) bind(bd *binder) (Plan, error) {
	out := *p
	var err error
	if out.PartitionSet, err = p.PartitionSet.bind(bd); err != nil {
		return nil, err
	}
	if out.Pushdown, err = p.Pushdown.bind(bd); err != nil {
		return nil, err
	}
	if out.LakePushdown, err = p.LakePushdown.bind(bd); err != nil {
		return nil, err
	}
	if out.Output, err = p.Output.bind(bd); err != nil {
		return nil, err
	}
	return &out, nil
}

// Explain binds the plan it explains.
func (p *Explain) placeholders() *Placeholders {
	if b, ok := p.Plan.(bindable); ok {
		return b.placeholders()
	}
	return &Placeholders{}
}

func (p *Explain) bind(bd *binder) (Plan, error) {
	b, ok := p.Plan.(bindable)
	if !ok {
		return p, nil
	}
	inner, err := b.bind(bd)
	if err != nil {
		return nil, err
	}
	return &Explain{Plan: inner}, nil
}
