package engine

import (
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// JoinKind is INNER, LEFT, SEMI or ANTI (RIGHT and FULL joins are not
// supported: the planner refuses them). SEMI and ANTI are what IN and
// EXISTS subqueries become: they pass the left rows that have (have no)
// match, once each, with the left columns only.
type JoinKind int

// The join kinds.
const (
	InnerJoin JoinKind = iota
	LeftJoin
	SemiJoin
	AntiJoin
	// MarkJoin passes every left row with one more column, BOOLEAN: whether
	// it has a match (x IN (…) or EXISTS (…) as a value). With NullAware it
	// is IN's three-valued answer: NULL instead of FALSE when the right side
	// is not empty and has a NULL key or the left key is NULL.
	MarkJoin
)

// MarkColumn names the column a MarkJoin adds.
const MarkColumn = "$mark"

func (k JoinKind) String() string {
	switch k {
	case LeftJoin:
		return "LEFT"
	case SemiJoin:
		return "SEMI"
	case AntiJoin:
		return "ANTI"
	case MarkJoin:
		return "MARK"
	}
	return "INNER"
}

// HashJoin joins Left and Right on LeftKeys[i] = RightKeys[i] (evaluated on
// the respective side; NULL keys never match) and then Residual (nil: none)
// on the joined row. It reads Right whole into a hash table held under the
// budget (the build side), then streams Left (the probe side). Its output
// columns are Left's, then Right's (nullable for a LEFT join); a SEMI or
// ANTI join outputs Left's alone, and its Residual sees the pair. Without
// keys every left row is paired with every right row.
//
// NullAware makes an ANTI join NOT IN as SQL defines it (one key, no
// residual): over an empty right side every left row passes; else a right
// NULL key passes no row, and neither does a left NULL key.
type HashJoin struct {
	Kind        JoinKind
	Left, Right Node
	LeftKeys    []Expr
	RightKeys   []Expr
	Residual    Expr
	NullAware   bool
	// SingleMatch makes a left row whose key matches more than one right
	// row fail with ErrScalarSubqueryRows (a correlated scalar subquery).
	SingleMatch bool
	// BuildRight makes a SEMI or ANTI join build its right side first, as
	// the other kinds do, instead of reading its left side first when that
	// is small (op_semifirst.go): the planner knows the right side is the
	// smaller one (a magic set over a filtered table).
	BuildRight bool
}

// Looker looks keys up in a primary-key table for a LookupJoin; the driver
// implements it over the wire client's lookupers.
type Looker interface {
	// Lookup looks up len(keys[0]) keys, given as one array per key column
	// (the types of LookupJoin.KeyCols, no NULLs). It returns the found rows
	// as one batch of LookupJoin.Cols (nil when none was found) and, for
	// every key, the indexes of its rows in that batch.
	Lookup(ctx context.Context, keys []arrow.Array) (arrow.RecordBatch, [][]int, error)
}

// LookupJoin joins every batch of Left with the rows of a primary-key table
// that one batched lookup of its keys finds: KeyExprs (over Left, of the
// types of the key columns) give the key of each left row, a NULL key finds
// nothing. Residual (nil: none) is evaluated on the joined row. It keeps no
// state between batches, so it streams. ID selects the Looker among
// Options.Lookers; the output columns are Left's, then Cols (nullable for a
// LEFT join).
type LookupJoin struct {
	Kind     JoinKind
	Left     Node
	ID       int
	Table    string   // for EXPLAIN
	Alias    string   // the table's name in the query, for EXPLAIN
	Prefix   bool     // a prefix lookup (several rows per key)
	KeyCols  []string // the looked-up columns, in lookup order
	KeyExprs []Expr
	Cols     []Column // the table's columns
	Residual Expr
}

// Union passes the rows of each input in turn (UNION ALL). The inputs have
// the same column types; the names are the first input's.
type Union struct {
	Ins []Node
}

func joinColumns(kind JoinKind, left, right []Column) []Column {
	out := append([]Column(nil), left...)
	if kind == SemiJoin || kind == AntiJoin {
		return out
	}
	if kind == MarkJoin {
		return append(out, Column{Name: MarkColumn, Type: types.NewBoolean()})
	}
	for _, c := range right {
		if kind == LeftJoin {
			c.Type = nullable(c.Type, false)
		}
		out = append(out, c)
	}
	return out
}

// Columns implements Node.
func (n *HashJoin) Columns() []Column {
	return joinColumns(n.Kind, n.Left.Columns(), n.Right.Columns())
}

// Columns implements Node.
func (n *LookupJoin) Columns() []Column { return joinColumns(n.Kind, n.Left.Columns(), n.Cols) }

// Columns implements Node.
func (n *Union) Columns() []Column {
	cols := append([]Column(nil), n.Ins[0].Columns()...)
	for _, in := range n.Ins[1:] {
		for i, c := range in.Columns() {
			if !c.Type.NotNull {
				cols[i].Type = nullable(cols[i].Type, false)
			}
		}
	}
	return cols
}

// Inputs implements Node.
func (n *HashJoin) Inputs() []Node { return []Node{n.Left, n.Right} }

// Inputs implements Node.
func (n *LookupJoin) Inputs() []Node { return []Node{n.Left} }

// Inputs implements Node.
func (n *Union) Inputs() []Node { return n.Ins }

// Streaming implements Node: the build side is held whole.
func (n *HashJoin) Streaming() bool { return false }

// Streaming implements Node.
func (n *LookupJoin) Streaming() bool { return true }

// Streaming implements Node.
func (n *Union) Streaming() bool { return true }

func exprStrings(es []Expr) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.String()
	}
	return out
}

func joinOn(l, r []string, residual Expr) string {
	parts := make([]string, len(l))
	for i := range l {
		parts[i] = l[i] + " = " + r[i]
	}
	s := strings.Join(parts, " AND ")
	if residual != nil {
		s += ", residual " + residual.String()
	}
	return s
}

// Describe implements Node.
func (n *HashJoin) Describe() string {
	kind := n.Kind.String()
	if n.NullAware {
		kind += " (null-aware)"
	}
	if n.SingleMatch {
		kind += " (at most one match per row)"
	}
	on := joinOn(exprStrings(n.LeftKeys), exprStrings(n.RightKeys), n.Residual)
	if len(n.LeftKeys) == 0 {
		on = "TRUE"
		if n.Residual != nil {
			on = n.Residual.String()
		}
	}
	if (n.Kind == SemiJoin || n.Kind == AntiJoin) && !n.NullAware && !n.SingleMatch && !n.BuildRight {
		return fmt.Sprintf("HashJoin %s ON %s (build side: the first input when it is small, else the second; in memory)", kind, on)
	}
	return fmt.Sprintf("HashJoin %s ON %s (build side: the second input, in memory)", kind, on)
}

// Describe implements Node.
func (n *LookupJoin) Describe() string {
	keys := make([]string, len(n.KeyCols))
	for i, k := range n.KeyCols {
		keys[i] = quoteIdent(n.Alias) + "." + quoteIdent(k)
	}
	what := "Lookup"
	if n.Prefix {
		what = "PrefixLookup"
	}
	return fmt.Sprintf("LookupJoin %s %s AS %s ON %s (server: one batched %s per input batch)", n.Kind, n.Table, quoteIdent(n.Alias),
		joinOn(exprStrings(n.KeyExprs), keys, n.Residual), what)
}

// Describe implements Node.
func (n *Union) Describe() string { return fmt.Sprintf("UnionAll of %d inputs", len(n.Ins)) }
