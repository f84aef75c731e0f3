package engine

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The functions with a form of their own (CAST), those the planner answers
// from the session (VERSION, CURRENT_DATABASE), the collection functions
// and the window functions.

func init() {
	register(
		&FuncDef{Name: "CAST", Kind: SyntaxFunc, Family: "conversion", Signature: "CAST(x AS type) → type",
			Desc: "x converted to type (a failed conversion is an error)", Example: "CAST('12' AS INT) = 12"},
		&FuncDef{Name: "TRY_CAST", Kind: SyntaxFunc, Family: "conversion", Signature: "TRY_CAST(x AS type) → type (nullable)",
			Desc: "x converted to type as CAST does, NULL where the conversion fails", Example: "TRY_CAST('abc' AS INT) IS NULL"},
		&FuncDef{Name: "VERSION", Kind: SyntaxFunc, Family: "system", Signature: "VERSION() → STRING NOT NULL",
			Desc: "flussql's name and version", Example: "VERSION() = 'flussql (Apache Fluss client)'"},
		&FuncDef{Name: "CURRENT_DATABASE", Aliases: []string{"DATABASE"}, Kind: SyntaxFunc, Family: "system", Signature: "CURRENT_DATABASE() → STRING",
			Desc: "the session's database (USE), NULL when none", Example: "CURRENT_DATABASE() = 'fluss'"},
		&FuncDef{Name: "CARDINALITY", Kind: SyntaxFunc, Family: "collection", Signature: "CARDINALITY(x ARRAY|MAP) → INT",
			Desc: "the number of elements of an array or entries of a map", Example: "CARDINALITY(ARRAY[1, 2]) = 2",
			Build: func(args []Expr) (Expr, error) {
				if len(args) != 1 {
					return nil, fmt.Errorf("CARDINALITY takes 1 argument(s), not %d", len(args))
				}
				return NewCardinality(args[0])
			}},
		&FuncDef{Name: "TYPEOF", Family: "system", Signature: "TYPEOF(x) → STRING NOT NULL",
			Desc: "the name of x's type, with NOT NULL when it cannot be NULL", Example: "TYPEOF(1) = 'INT NOT NULL'",
			NullArgs: true, Type: func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
				if err := argc(name, args, 1, 2); err != nil {
					return nil, types.NewString(), nil, err
				}
				t := args[0].Type()
				text := TypeName(t)
				if t.NotNull && !t.Kind.Nested() { // a nested type's name says it
					text += " NOT NULL"
				}
				return args, types.NewString().AsNotNull(), text, nil
			}, Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				return repeat(ec.mem, c.T, c.state.(string), n)
			}},
		windowDef("ROW_NUMBER", "ROW_NUMBER() OVER (…) → BIGINT", "the row's 1-based number in its partition", "ROW_NUMBER() OVER (ORDER BY ts)"),
		windowDef("RANK", "RANK() OVER (…) → BIGINT", "the row's rank in its partition, with gaps after ties", "RANK() OVER (ORDER BY score DESC)"),
		windowDef("DENSE_RANK", "DENSE_RANK() OVER (…) → BIGINT", "the row's rank in its partition, without gaps", "DENSE_RANK() OVER (ORDER BY score DESC)"),
		windowDef("LAG", "LAG(x[, offset[, default]]) OVER (…) → type of x", "x of the row offset rows before (1 by default)", "LAG(price) OVER (ORDER BY ts)"),
		windowDef("LEAD", "LEAD(x[, offset[, default]]) OVER (…) → type of x", "x of the row offset rows after (1 by default)", "LEAD(price) OVER (ORDER BY ts)"),
	)
}

func windowDef(name, sig, desc, example string) *FuncDef {
	return &FuncDef{Name: name, Kind: WindowOnly, Family: "window", Signature: sig, Desc: desc, Example: example}
}
