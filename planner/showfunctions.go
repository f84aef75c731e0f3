package planner

import (
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss/types"
)

// ShowFunctions is SHOW FUNCTIONS [LIKE …]: the names and aliases of the
// engine's function registry, answered without the cluster.
type ShowFunctions struct {
	Like *string
	// User are the connector's user-defined functions, listed with kind "user".
	User *engine.FunctionSet
}

// ResultColumns returns "function name" (Flink's column), kind and
// description.
func (*ShowFunctions) ResultColumns() []ResultColumn {
	return []ResultColumn{
		{Name: "function name", Type: types.NewString().AsNotNull()},
		{Name: "kind", Type: types.NewString().AsNotNull()},
		{Name: "description", Type: types.NewString().AsNotNull()},
	}
}

// Rows returns one row per name or alias matching Like (case-insensitive
// on the upper-case names), sorted.
func (p *ShowFunctions) Rows() [][]any {
	var out [][]any
	for _, n := range engine.FunctionNames() {
		if p.Like != nil && !matchLike(n, *p.Like) && !matchLike(n, strings.ToUpper(*p.Like)) {
			continue
		}
		d := engine.LookupFunction(n)
		out = append(out, []any{n, d.Kind.String(), d.Desc})
	}
	for _, n := range p.User.Names() {
		if p.Like == nil || matchLike(n, *p.Like) || matchLike(n, strings.ToUpper(*p.Like)) {
			out = append(out, []any{n, "user", p.User.Lookup(n).Desc})
		}
	}
	return out
}

// String describes the plan for EXPLAIN.
func (p *ShowFunctions) String() string {
	return describe("ShowFunctions").lineIf(p.Like != nil, "like", "%s", likeText(p.Like)).
		line("from", "the engine's function registry (%d functions)", len(engine.Functions())).String()
}

func (*ShowFunctions) plan() {}
