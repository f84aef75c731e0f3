package planner

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// Aggregate functions of the aggregation merge engine, as Fluss's Flink
// connector spells them in WITH: 'fields.<col>.agg' = '<function>' and
// 'fields.<col>.<function>.<param>' = '<value>'. CREATE TABLE turns them
// into the schema's per-column aggregate functions (the server ignores them
// as properties), and SHOW CREATE TABLE renders them back the same way.
//
// The functions, their parameters and the column types each accepts are
// those of Fluss 0.9.1 (org.apache.fluss.metadata.AggFunctionType).

const (
	propMergeEngine   = "table.merge-engine"
	mergeEngineAgg    = "aggregation"
	fieldsPrefix      = "fields."
	aggSuffix         = ".agg"
	aggParamDelimiter = "delimiter"
)

var (
	numericKinds = []types.Kind{types.TinyInt, types.SmallInt, types.Int, types.BigInt, types.Float, types.Double, types.Decimal}
	maxMinKinds  = append(slices.Clone(numericKinds), types.Char, types.String, types.Date, types.Time, types.Timestamp, types.TimestampLTZ)
	stringKinds  = []types.Kind{types.String, types.Char}
)

// aggSpec is what one aggregate function accepts: the column kinds (nil:
// every kind) and parameter names.
type aggSpec struct {
	kinds  []types.Kind
	params []string
}

// aggFunctionSpecs lists Fluss 0.9.1's aggregate functions by their
// canonical (lower-case, underscore) names.
var aggFunctionSpecs = map[string]aggSpec{
	"sum":                      {kinds: numericKinds},
	"product":                  {kinds: numericKinds},
	"max":                      {kinds: maxMinKinds},
	"min":                      {kinds: maxMinKinds},
	"last_value":               {},
	"last_value_ignore_nulls":  {},
	"first_value":              {},
	"first_value_ignore_nulls": {},
	"listagg":                  {kinds: stringKinds, params: []string{aggParamDelimiter}},
	"string_agg":               {kinds: stringKinds, params: []string{aggParamDelimiter}},
	"bool_and":                 {kinds: []types.Kind{types.Boolean}},
	"bool_or":                  {kinds: []types.Kind{types.Boolean}},
	"rbm32":                    {kinds: []types.Kind{types.Bytes}},
	"rbm64":                    {kinds: []types.Kind{types.Bytes}},
}

// canonicalAggName returns the canonical name of an aggregate function
// written as in Java's AggFunctionType.fromString (any case, '-' for '_').
func canonicalAggName(name string) (string, bool) {
	n := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(name), "-", "_"))
	_, ok := aggFunctionSpecs[n]
	return n, ok
}

// isAggKey reports whether a WITH key is an aggregate-function option.
func isAggKey(k string) bool {
	return strings.HasPrefix(k, fieldsPrefix) && strings.Count(k, ".") >= 2
}

// extractAggFunctions takes the aggregate-function options out of props
// (which it changes) and returns the functions by column. It refuses
// functions on a table whose merge engine is not aggregation, on unknown or
// primary-key columns, unknown function names, parameters the function does
// not take, and column types the function cannot aggregate.
func extractAggFunctions(schema types.Schema, props map[string]string) (map[string]types.AggFunction, error) {
	var keys []string
	for k := range props {
		if isAggKey(k) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	sort.Strings(keys)
	engine := strings.ToLower(strings.TrimSpace(props[propMergeEngine]))
	if engine != mergeEngineAgg {
		// Other fields.* keys stay custom properties; these are meant as aggregate functions.
		for _, k := range keys {
			_, fnParam, _ := strings.Cut(strings.TrimPrefix(k, fieldsPrefix), ".")
			fn, _, _ := strings.Cut(fnParam, ".")
			if _, known := canonicalAggName(fn); strings.HasSuffix(k, aggSuffix) || known {
				current := "none"
				if engine != "" {
					current = "'" + engine + "'"
				}
				return nil, fmt.Errorf("'%s': aggregate functions need 'table.merge-engine' = 'aggregation' (the merge engine is %s)", k, current)
			}
		}
		return nil, nil
	}
	funcs := map[string]types.AggFunction{}
	// First the functions: fields.<col>.agg.
	for _, k := range keys {
		if !strings.HasSuffix(k, aggSuffix) {
			continue
		}
		col := strings.TrimSuffix(strings.TrimPrefix(k, fieldsPrefix), aggSuffix)
		i := schema.Index(col)
		if i < 0 {
			return nil, fmt.Errorf("'%s': the table has no column %q (columns: %s)", k, col, strings.Join(schemaColumnNames(schema), ", "))
		}
		if slices.Contains(schema.PrimaryKey, col) {
			return nil, fmt.Errorf("'%s': %q is a primary-key column; aggregate functions apply to the other columns", k, col)
		}
		name, ok := canonicalAggName(props[k])
		if !ok {
			return nil, fmt.Errorf("'%s' = '%s': unknown aggregate function; Fluss has %s", k, props[k], strings.Join(slices.Sorted(maps.Keys(aggFunctionSpecs)), ", "))
		}
		spec := aggFunctionSpecs[name]
		typ := schema.Columns[i].Type
		if spec.kinds != nil && !slices.Contains(spec.kinds, typ.Kind) {
			return nil, fmt.Errorf("'%s' = '%s': column %q has type %s, which %s cannot aggregate (it takes %s)", k, props[k], col, typeName(typ), name, kindList(spec.kinds))
		}
		funcs[col] = types.AggFunction{Type: name}
		delete(props, k)
	}
	// Then their parameters: fields.<col>.<function>.<param>.
	for _, k := range keys {
		if _, taken := props[k]; !taken {
			continue // a function key, done above
		}
		rest := strings.TrimPrefix(k, fieldsPrefix)
		col, fnParam, _ := strings.Cut(rest, ".")
		fn, param, ok := strings.Cut(fnParam, ".")
		agg, has := funcs[col]
		if !ok || !has {
			return nil, fmt.Errorf("'%s': an aggregate-function parameter needs 'fields.%s.agg' (write 'fields.<column>.<function>.<parameter>')", k, col)
		}
		if name, _ := canonicalAggName(fn); name != agg.Type {
			return nil, fmt.Errorf("'%s': column %q aggregates with %s, not %s", k, col, agg.Type, fn)
		}
		spec := aggFunctionSpecs[agg.Type]
		if !slices.Contains(spec.params, param) {
			takes := "no parameters"
			if len(spec.params) > 0 {
				takes = "only " + strings.Join(spec.params, ", ")
			}
			return nil, fmt.Errorf("'%s': %s takes %s", k, agg.Type, takes)
		}
		if props[k] == "" {
			return nil, fmt.Errorf("'%s': the %s of %s must not be empty", k, param, agg.Type)
		}
		if agg.Parameters == nil {
			agg.Parameters = map[string]string{}
		}
		agg.Parameters[param] = props[k]
		funcs[col] = agg
		delete(props, k)
	}
	return funcs, nil
}

// aggFunctionOptions renders aggregate functions back as WITH options.
func aggFunctionOptions(funcs map[string]types.AggFunction, into map[string]string) {
	for col, f := range funcs {
		into[fieldsPrefix+col+aggSuffix] = f.Type
		for p, v := range f.Parameters {
			into[fieldsPrefix+col+"."+f.Type+"."+p] = v
		}
	}
}

// aggFunctionsText lists a descriptor's aggregate functions in column
// order, e.g. "total sum, tags listagg(delimiter=';')".
func aggFunctionsText(d fluss.TableDescriptor) string {
	var out []string
	for _, c := range d.Schema.Columns {
		if f, ok := d.AggFunctions[c.Name]; ok {
			out = append(out, c.Name+" "+aggFunctionText(f, true))
		}
	}
	return strings.Join(out, ", ")
}

// aggFunctionText renders one function for DESCRIBE, e.g.
// "listagg(delimiter=';')"; "" for none.
func aggFunctionText(f types.AggFunction, ok bool) string {
	if !ok {
		return ""
	}
	if len(f.Parameters) == 0 {
		return f.Type
	}
	var ps []string
	for _, p := range slices.Sorted(maps.Keys(f.Parameters)) {
		ps = append(ps, fmt.Sprintf("%s='%s'", p, strings.ReplaceAll(f.Parameters[p], "'", "''")))
	}
	return f.Type + "(" + strings.Join(ps, ", ") + ")"
}

func kindList(kinds []types.Kind) string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.String()
	}
	return strings.Join(out, ", ")
}
