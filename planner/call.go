package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// CALL sys.<procedure>(…) runs the procedures of Fluss's Flink connector
// (org.apache.fluss.flink.procedure) through the wire client, with Flink's parameter names,
// defaults and result columns: a procedure that answers with strings in Flink has one STRING
// column "result", one row per string.

// CallPlan is the plan of a CALL statement. Its rows are small and complete; Exec runs it
// too and drops them.
type CallPlan interface {
	QueryPlan
	// ProcedureName is "sys.<name>".
	ProcedureName() string
}

// procParam is one parameter of a procedure.
type procParam struct {
	name     string // Flink's spelling; a named argument matches it in any case
	optional bool
	variadic bool // takes the remaining arguments (the last parameter only)
}

// procedure is one sys procedure: its parameters and how its arguments become a plan.
type procedure struct {
	params []procParam
	// example is a call as the Fluss docs write it, for error messages.
	example string
	plan    func(a callArgs) (CallPlan, error)
}

// procedures are the sys procedures flussql runs, by name.
var procedures = map[string]procedure{}

// unsupportedProcedures are the Flink connector's procedures flussql does not run, with why.
var unsupportedProcedures = map[string]string{
	"append_cluster_configs":   "it is not implemented yet; SET the whole value with sys.set_cluster_configs",
	"subtract_cluster_configs": "it is not implemented yet; SET the whole value with sys.set_cluster_configs",
	"add_server_tag":           "server tags are not implemented yet",
	"remove_server_tag":        "server tags are not implemented yet",
	"drop_kv_snapshot_lease":   "KV snapshot leases are not implemented yet",
}

func register(name string, p procedure) { procedures[name] = p }

// callArgs are the arguments of one call, bound to the procedure's parameters.
type callArgs struct {
	proc   string
	given  map[string]bool
	values map[string]*string  // nil: NULL
	rest   map[string][]string // a variadic parameter's values
}

// str returns the argument of a parameter; ok is false when it was not given or is NULL.
func (a callArgs) str(name string) (string, bool) {
	v := a.values[name]
	if v == nil {
		return "", false
	}
	return *v, true
}

func (b *builder) call(s *parser.Call) (Plan, error) {
	proc, ok := procedures[s.Procedure]
	if !ok {
		if why, known := unsupportedProcedures[s.Procedure]; known {
			return nil, notSupported("CALL sys.%s: %s", s.Procedure, why)
		}
		return nil, notSupported("CALL sys.%s: there is no such procedure; the procedures are %s", s.Procedure, procedureList())
	}
	args, err := bindCall(s, proc)
	if err != nil {
		return nil, err
	}
	return proc.plan(args)
}

// procedureList names the procedures flussql runs, sorted.
func procedureList() string {
	names := make([]string, 0, len(procedures))
	for n := range procedures {
		names = append(names, "sys."+n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// bindCall matches the call's arguments to the procedure's parameters as Flink does:
// positional ones in order, named ones by name; a variadic parameter takes the positional
// arguments that follow it, named or not.
func bindCall(s *parser.Call, proc procedure) (callArgs, error) {
	a := callArgs{proc: s.Procedure, given: map[string]bool{}, values: map[string]*string{}, rest: map[string][]string{}}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("CALL sys.%s: %s (e.g. %s)", s.Procedure, fmt.Sprintf(format, args...), proc.example)
	}
	next := 0      // the next parameter a positional argument fills
	variadic := -1 // the variadic parameter being filled, -1 for none
	named := false // a named argument came before
	for _, arg := range s.Args {
		var k int
		switch {
		case arg.Name != "":
			k = slices.IndexFunc(proc.params, func(p procParam) bool { return strings.EqualFold(p.name, arg.Name) })
			if k < 0 {
				return a, fail("it has no parameter %s; its parameters are %s", arg.Name, paramList(proc.params))
			}
			named, variadic = true, -1
		case variadic >= 0:
			k = variadic
		case named:
			return a, fail("a positional argument cannot follow a named one")
		default:
			if next >= len(proc.params) {
				return a, fail("it takes at most %d arguments (%s)", len(proc.params), paramList(proc.params))
			}
			k = next
		}
		p := proc.params[k]
		if a.given[p.name] && !(p.variadic && k == variadic) {
			return a, fail("argument %s is given twice", p.name)
		}
		a.given[p.name] = true
		if p.variadic {
			if arg.Value == nil {
				return a, fail("%s takes strings, not NULL", p.name)
			}
			a.rest[p.name] = append(a.rest[p.name], *arg.Value)
			variadic = k
		} else {
			a.values[p.name] = arg.Value
		}
		next = k + 1
	}
	for _, p := range proc.params {
		if !p.optional && !p.variadic && !a.given[p.name] {
			return a, fail("argument %s is missing", p.name)
		}
	}
	return a, nil
}

func paramList(ps []procParam) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.name
		if p.variadic {
			names[i] += "…"
		}
		if p.optional {
			names[i] = "[" + names[i] + "]"
		}
	}
	return strings.Join(names, ", ")
}

// resultColumn is the one column, result STRING, of a Flink procedure that answers with strings.
func resultColumn() []ResultColumn {
	return []ResultColumn{{Name: "result", Type: types.NewString()}}
}

// stringRows makes one row per string.
func stringRows(ss ...string) [][]any {
	rows := make([][]any, len(ss))
	for i, s := range ss {
		rows[i] = []any{s}
	}
	return rows
}

// success is what Flink's procedures answer when they have nothing to report.
var success = stringRows("success")

func init() {
	register("get_cluster_configs", procedure{
		params:  []procParam{{name: "config_keys", variadic: true}},
		example: "CALL sys.get_cluster_configs(config_keys => 'datalake.format', 'kv.rocksdb.shared-rate-limiter.bytes-per-sec')",
		plan: func(a callArgs) (CallPlan, error) {
			return &CallGetClusterConfigs{Keys: a.rest["config_keys"]}, nil
		},
	})
	register("set_cluster_configs", procedure{
		params:  []procParam{{name: "config_pairs", variadic: true}},
		example: "CALL sys.set_cluster_configs(config_pairs => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec', '200MB')",
		plan: func(a callArgs) (CallPlan, error) {
			pairs := a.rest["config_pairs"]
			if len(pairs) == 0 || len(pairs)%2 != 0 {
				return nil, fmt.Errorf("CALL sys.set_cluster_configs: config_pairs takes keys and values in pairs, got %d value(s) (e.g. config_pairs => 'key1', 'value1', 'key2', 'value2')", len(pairs))
			}
			p := &CallAlterClusterConfigs{Procedure: "set_cluster_configs"}
			for i := 0; i < len(pairs); i += 2 {
				p.Changes = append(p.Changes, fluss.ClusterConfigChange{Key: strings.TrimSpace(pairs[i]), Value: pairs[i+1]})
			}
			return p, p.check()
		},
	})
	register("reset_cluster_configs", procedure{
		params:  []procParam{{name: "config_keys", variadic: true}},
		example: "CALL sys.reset_cluster_configs(config_keys => 'kv.rocksdb.shared-rate-limiter.bytes-per-sec')",
		plan: func(a callArgs) (CallPlan, error) {
			keys := a.rest["config_keys"]
			if len(keys) == 0 {
				return nil, fmt.Errorf("CALL sys.reset_cluster_configs: name the keys to reset (e.g. config_keys => 'datalake.format')")
			}
			p := &CallAlterClusterConfigs{Procedure: "reset_cluster_configs"}
			for _, k := range keys {
				p.Changes = append(p.Changes, fluss.ClusterConfigChange{Key: strings.TrimSpace(k), Reset: true})
			}
			return p, p.check()
		},
	})
}

// CallGetClusterConfigs is CALL sys.get_cluster_configs([config_keys => 'k', …]): the
// cluster's configs (DESCRIBE_CLUSTER_CONFIGS), all of them by key, or those named in the
// order named (a key the cluster lacks gives no row).
type CallGetClusterConfigs struct {
	Keys []string
}

// ResultColumns returns config_key, config_value and config_source, as Flink's procedure.
func (*CallGetClusterConfigs) ResultColumns() []ResultColumn {
	return []ResultColumn{{Name: "config_key", Type: types.NewString()}, {Name: "config_value", Type: types.NewString()}, {Name: "config_source", Type: types.NewString()}}
}

// Rows selects and orders the configs; value is NULL for an entry without one, source
// "UNKNOWN" for one without a source.
func (p *CallGetClusterConfigs) Rows(configs []fluss.ClusterConfig) [][]any {
	row := func(c fluss.ClusterConfig) []any {
		var v any
		if c.HasValue {
			v = c.Value
		}
		src := c.Source
		if src == "" {
			src = "UNKNOWN"
		}
		return []any{c.Key, v, src}
	}
	var out [][]any
	if len(p.Keys) == 0 {
		sorted := slices.Clone(configs)
		slices.SortFunc(sorted, func(a, b fluss.ClusterConfig) int { return strings.Compare(a.Key, b.Key) })
		for _, c := range sorted {
			out = append(out, row(c))
		}
		return out
	}
	byKey := make(map[string]fluss.ClusterConfig, len(configs))
	for _, c := range configs {
		byKey[c.Key] = c
	}
	for _, k := range p.Keys {
		if c, ok := byKey[k]; ok {
			out = append(out, row(c))
		}
	}
	return out
}

// ProcedureName returns "sys.get_cluster_configs".
func (*CallGetClusterConfigs) ProcedureName() string { return "sys.get_cluster_configs" }

// String describes the plan for EXPLAIN.
func (p *CallGetClusterConfigs) String() string {
	keys := "every key"
	if len(p.Keys) > 0 {
		keys = strings.Join(p.Keys, ", ")
	}
	return describe("CallGetClusterConfigs").line("keys", "%s", keys).
		line("request", "DESCRIBE_CLUSTER_CONFIGS to the coordinator").String()
}

// CallAlterClusterConfigs is CALL sys.set_cluster_configs(config_pairs => 'k', 'v', …) or
// sys.reset_cluster_configs(config_keys => 'k', …): one ALTER_CLUSTER_CONFIGS request with
// every change.
type CallAlterClusterConfigs struct {
	Procedure string // set_cluster_configs or reset_cluster_configs
	Changes   []fluss.ClusterConfigChange
}

func (p *CallAlterClusterConfigs) check() error {
	for _, c := range p.Changes {
		if c.Key == "" {
			return fmt.Errorf("CALL sys.%s: a configuration key cannot be empty", p.Procedure)
		}
	}
	return nil
}

// ResultColumns returns Flink's one column, result.
func (*CallAlterClusterConfigs) ResultColumns() []ResultColumn { return resultColumn() }

// Rows returns Flink's message for each change.
func (p *CallAlterClusterConfigs) Rows() [][]any {
	msgs := make([]string, len(p.Changes))
	for i, c := range p.Changes {
		op := fmt.Sprintf("set to '%s'", c.Value)
		if fluss.IsSensitiveConfig(c.Key) {
			op = fmt.Sprintf("set to '%s'", fluss.MaskedConfigValue) // unlike Flink, no secret in the result
		}
		if c.Reset {
			op = "deleted (reset to default)"
		}
		msgs[i] = fmt.Sprintf("Successfully %s configuration '%s'. ", op, c.Key)
	}
	return stringRows(msgs...)
}

// ProcedureName returns "sys.set_cluster_configs" or "sys.reset_cluster_configs".
func (p *CallAlterClusterConfigs) ProcedureName() string { return "sys." + p.Procedure }

// String describes the plan for EXPLAIN.
func (p *CallAlterClusterConfigs) String() string {
	d := describe("CallAlterClusterConfigs (%s)", p.ProcedureName())
	for _, c := range p.Changes {
		if c.Reset {
			d.line("reset", "%s", c.Key)
		} else {
			d.line("set", "%s = %s", c.Key, maskedValue(c.Key, c.Value))
		}
	}
	return d.line("request", "ALTER_CLUSTER_CONFIGS to the coordinator (validated, stored in ZooKeeper, applied to every server)").String()
}

// maskedValue hides the value of a sensitive key in EXPLAIN.
func maskedValue(key, v string) string {
	if fluss.IsSensitiveConfig(key) {
		return fluss.MaskedConfigValue
	}
	return parser.QuoteString(v)
}

func (*CallGetClusterConfigs) plan()   {}
func (*CallAlterClusterConfigs) plan() {}
