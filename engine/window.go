package engine

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/types"
)

// Window computes window functions of one window specification: it holds
// its input rows (under the budget), orders them by Partition then Order,
// and computes every function of Funcs in one pass per partition. Its
// output is the input columns, then one column per function (named Names).
// With PerPartition > 0 it keeps only the first PerPartition rows of every
// partition in the order (Flink's Top-N: ROW_NUMBER() … WHERE rn <= N), in
// one bounded heap per partition, so that its memory grows with partitions
// × PerPartition, not with the input; only functions whose value at a row
// depends on the rows before it alone may then be computed (the planner
// checks, see TopNSafe).
type Window struct {
	Input        Node
	Partition    []Expr
	Order        []WindowOrder
	Funcs        []*WindowFunc
	Names        []string
	PerPartition int64
	// PerPartitionBy is the ranking PerPartition bounds: ROW_NUMBER (also
	// ""), RANK (peers of the last row kept are kept too) or DENSE_RANK (the
	// rows of the first PerPartition distinct order keys).
	PerPartitionBy string
}

// WindowOrder is one ORDER BY key of a window.
type WindowOrder struct {
	Expr       Expr
	Desc       bool
	NullsFirst bool
}

// WindowBoundKind is the kind of one end of a frame.
type WindowBoundKind int

// Frame bound kinds, in the order of the rows they name.
const (
	BoundUnboundedPreceding WindowBoundKind = iota
	BoundPreceding
	BoundCurrentRow
	BoundFollowing
	BoundUnboundedFollowing
)

// WindowBound is one end of a frame; Offset is the n of n PRECEDING / FOLLOWING.
type WindowBound struct {
	Kind   WindowBoundKind
	Offset int64
}

// WindowFrame is ROWS (Rows) or RANGE BETWEEN Start AND End. The zero
// frame is the SQL default, RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT
// ROW (the whole partition when the window has no ORDER BY: every row is a
// peer of every other).
type WindowFrame struct {
	Rows       bool
	Start, End WindowBound
}

// DefaultFrame is the frame of a window written without one.
var DefaultFrame = WindowFrame{Start: WindowBound{Kind: BoundUnboundedPreceding}, End: WindowBound{Kind: BoundCurrentRow}}

// WindowFunc is one window function of a Window: ROW_NUMBER, RANK,
// DENSE_RANK (no Arg), LAG and LEAD (Arg, Offset rows back or ahead,
// Default when there is no such row, nil: NULL), FIRST_VALUE and LAST_VALUE
// (the first / last non-NULL Arg of the frame, as Flink's), and the
// aggregates COUNT (Arg nil: COUNT(*)), SUM, AVG, MIN and MAX over the frame.
type WindowFunc struct {
	Func    string
	Arg     Expr
	Offset  int64
	Default Expr
	Frame   WindowFrame
	T       types.DataType
	agg     *Agg
}

// WindowFunctions lists the functions NewWindowFunc knows.
var WindowFunctions = []string{"ROW_NUMBER", "RANK", "DENSE_RANK", "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE",
	"COUNT", "SUM", "AVG", "MIN", "MAX"}

// NewWindowFunc types a window function. Ranking functions are BIGINT NOT
// NULL, LAG/LEAD/FIRST_VALUE/LAST_VALUE the (nullable) type of Arg, and
// the aggregates as Aggregate types them (NewAgg). Default, when given,
// must have Arg's type.
func NewWindowFunc(fn string, arg Expr, offset int64, def Expr, frame WindowFrame) (*WindowFunc, error) {
	w := &WindowFunc{Func: fn, Arg: arg, Offset: offset, Default: def, Frame: frame}
	switch fn {
	case "ROW_NUMBER", "RANK", "DENSE_RANK":
		w.T = types.NewBigInt().AsNotNull()
	case "LAG", "LEAD", "FIRST_VALUE", "LAST_VALUE":
		if arg == nil {
			return nil, fmt.Errorf("%s needs an argument", fn)
		}
		w.T = arg.Type().AsNullable()
		if def != nil && !def.Type().AsNullable().Equal(w.T) {
			return nil, fmt.Errorf("%s: the default %s is %s, not %s", fn, def, TypeName(def.Type()), TypeName(w.T))
		}
	default:
		a, err := NewAgg(fn, arg, false)
		if err != nil {
			return nil, err
		}
		w.agg, w.T = a, a.T
	}
	return w, nil
}

// String renders the call, e.g. "LAG(x, 1, 0)" or "SUM(x) ROWS BETWEEN 1 PRECEDING AND CURRENT ROW".
func (w *WindowFunc) String() string {
	var args []string
	if w.Arg != nil {
		args = append(args, w.Arg.String())
	} else if w.Func == "COUNT" {
		args = append(args, "*")
	}
	if w.Func == "LAG" || w.Func == "LEAD" {
		args = append(args, fmt.Sprint(w.Offset))
		if w.Default != nil {
			args = append(args, w.Default.String())
		}
	}
	s := w.Func + "(" + strings.Join(args, ", ") + ")"
	if w.agg != nil {
		s = w.agg.String() // with LISTAGG's separator
	}
	if w.agg != nil || w.Func == "FIRST_VALUE" || w.Func == "LAST_VALUE" {
		if w.Frame != DefaultFrame {
			s += " " + w.Frame.String()
		}
	}
	return s
}

// String renders the frame as SQL.
func (f WindowFrame) String() string {
	unit := "RANGE"
	if f.Rows {
		unit = "ROWS"
	}
	return unit + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}

// String renders the bound as SQL.
func (b WindowBound) String() string {
	switch b.Kind {
	case BoundUnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case BoundPreceding:
		return fmt.Sprintf("%d PRECEDING", b.Offset)
	case BoundCurrentRow:
		return "CURRENT ROW"
	case BoundFollowing:
		return fmt.Sprintf("%d FOLLOWING", b.Offset)
	}
	return "UNBOUNDED FOLLOWING"
}

// TopNSafe reports whether the function's value at a row depends only on
// that row and the rows before it in the order, so that a Window that keeps
// the first N rows of each partition computes it exactly.
func (w *WindowFunc) TopNSafe() bool {
	switch w.Func {
	case "ROW_NUMBER", "RANK", "DENSE_RANK", "LAG":
		return true
	}
	return false
}

// Columns implements Node.
func (n *Window) Columns() []Column {
	out := append([]Column(nil), n.Input.Columns()...)
	for i, f := range n.Funcs {
		out = append(out, Column{Name: n.Names[i], Type: f.T})
	}
	return out
}

// Inputs implements Node.
func (n *Window) Inputs() []Node { return []Node{n.Input} }

// Streaming implements Node.
func (n *Window) Streaming() bool { return false }

// Describe implements Node.
func (n *Window) Describe() string {
	var spec []string
	if len(n.Partition) > 0 {
		spec = append(spec, "PARTITION BY "+strings.Join(exprStrings(n.Partition), ", "))
	}
	if len(n.Order) > 0 {
		keys := make([]string, len(n.Order))
		for i, o := range n.Order {
			keys[i] = o.Expr.String()
			if o.Desc {
				keys[i] += " DESC"
			}
			if o.NullsFirst {
				keys[i] += " NULLS FIRST"
			} else {
				keys[i] += " NULLS LAST"
			}
		}
		spec = append(spec, "ORDER BY "+strings.Join(keys, ", "))
	}
	funcs := make([]string, len(n.Funcs))
	for i, f := range n.Funcs {
		funcs[i] = f.String() + " AS " + quoteIdent(n.Names[i])
	}
	head := "Window"
	if n.PerPartition > 0 {
		head = "WindowTopN"
		unit := map[string]string{"RANK": "rank", "DENSE_RANK": "dense rank"}[n.PerPartitionBy]
		if unit == "" {
			unit = "rows"
		}
		top := fmt.Sprintf("%s 1..%d per partition (bounded heaps)", unit, n.PerPartition)
		if len(spec) > 0 {
			spec[len(spec)-1] += ","
		}
		spec = append(spec, top)
	}
	if len(spec) > 0 {
		head += " " + strings.Join(spec, " ")
	}
	return head + ": " + strings.Join(funcs, ", ")
}

// mapExprs is MapExprs for a Window over the mapped input.
func (n *Window) mapExprs(in Node, f func(Expr) (Expr, error)) (Node, error) {
	c := *n
	c.Input = in
	var err error
	mapped := func(e Expr) Expr {
		if e == nil || err != nil {
			return e
		}
		var x Expr
		x, err = f(e)
		return x
	}
	c.Partition = make([]Expr, len(n.Partition))
	for i, e := range n.Partition {
		c.Partition[i] = mapped(e)
	}
	c.Order = make([]WindowOrder, len(n.Order))
	for i, o := range n.Order {
		c.Order[i] = o
		c.Order[i].Expr = mapped(o.Expr)
	}
	c.Funcs = make([]*WindowFunc, len(n.Funcs))
	for i, fn := range n.Funcs {
		g := *fn
		g.Arg, g.Default = mapped(fn.Arg), mapped(fn.Default)
		if g.agg != nil {
			a := *g.agg
			a.Arg = g.Arg
			g.agg = &a
		}
		c.Funcs[i] = &g
	}
	return &c, err
}
