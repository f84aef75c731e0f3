package parser

import (
	"strconv"
	"strings"
)

// WindowCall is a window function call, Flink's
//
//	fn(args) OVER ([PARTITION BY e, …] [ORDER BY k [ASC|DESC] [NULLS FIRST|LAST], …] [frame])
//
// Func is the *FuncCall (ROW_NUMBER(), LAG(x, 1), SUM(x), …) or *CountStar;
// Frame is nil when none was written (the SQL default: with ORDER BY, RANGE
// BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW; without, the whole partition).
// Which functions exist is the planner's business.
type WindowCall struct {
	Func        Expr
	PartitionBy []Expr
	OrderBy     []OrderItem
	Frame       *Frame
}

// BoundKind is the kind of one end of a window frame.
type BoundKind int

// Frame bound kinds, in the order the rows they name come in a partition.
const (
	UnboundedPreceding BoundKind = iota
	Preceding
	CurrentRow
	Following
	UnboundedFollowing
)

// FrameBound is one end of a frame; Offset is the n of n PRECEDING and n
// FOLLOWING.
type FrameBound struct {
	Kind   BoundKind
	Offset int64
}

// Frame is ROWS|RANGE BETWEEN Start AND End (a frame written with one bound,
// ROWS 2 PRECEDING, is read as BETWEEN 2 PRECEDING AND CURRENT ROW).
type Frame struct {
	Range      bool // RANGE (peers of the current row count as one); else ROWS
	Start, End FrameBound
}

func (*WindowCall) expr() {}

// String renders the call as SQL.
func (w *WindowCall) String() string {
	return w.Func.String() + " OVER (" + w.SpecString() + ")"
}

// SpecString renders the window specification, the text inside OVER (…).
func (w *WindowCall) SpecString() string {
	var parts []string
	if len(w.PartitionBy) > 0 {
		parts = append(parts, "PARTITION BY "+exprList(w.PartitionBy))
	}
	if len(w.OrderBy) > 0 {
		keys := make([]string, len(w.OrderBy))
		for i, o := range w.OrderBy {
			keys[i] = o.String()
		}
		parts = append(parts, "ORDER BY "+strings.Join(keys, ", "))
	}
	if w.Frame != nil {
		parts = append(parts, w.Frame.String())
	}
	return strings.Join(parts, " ")
}

// String renders the frame, e.g. "ROWS BETWEEN 2 PRECEDING AND CURRENT ROW".
func (f *Frame) String() string {
	unit := "ROWS"
	if f.Range {
		unit = "RANGE"
	}
	return unit + " BETWEEN " + f.Start.String() + " AND " + f.End.String()
}

// String renders the bound, e.g. "2 PRECEDING".
func (b FrameBound) String() string {
	switch b.Kind {
	case UnboundedPreceding:
		return "UNBOUNDED PRECEDING"
	case Preceding:
		return strconv.FormatInt(b.Offset, 10) + " PRECEDING"
	case CurrentRow:
		return "CURRENT ROW"
	case Following:
		return strconv.FormatInt(b.Offset, 10) + " FOLLOWING"
	}
	return "UNBOUNDED FOLLOWING"
}

// String names the kind, e.g. "PRECEDING".
func (k BoundKind) String() string {
	return [...]string{"UNBOUNDED PRECEDING", "PRECEDING", "CURRENT ROW", "FOLLOWING", "UNBOUNDED FOLLOWING"}[k]
}

// walkWindow visits the expressions of a window call: the arguments of its
// function (not the function itself, so that SUM(x) OVER (…) is not taken
// for an aggregate of the query), its partition and its order keys.
func walkWindow(w *WindowCall, fn func(Expr) bool) {
	if f, ok := w.Func.(*FuncCall); ok {
		for _, a := range f.Args {
			Walk(a, fn)
		}
	}
	for _, p := range w.PartitionBy {
		Walk(p, fn)
	}
	for _, o := range w.OrderBy {
		Walk(o.Expr, fn)
	}
}

// HasWindow reports whether e contains a window function call.
func HasWindow(e Expr) bool {
	found := false
	Walk(e, func(x Expr) bool {
		if _, ok := x.(*WindowCall); ok {
			found = true
		}
		return !found
	})
	return found
}
