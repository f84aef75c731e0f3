package planner

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// This file renders plans for EXPLAIN: a heading line, then indented
// "key: value" lines. The output is stable (no map order, no addresses).

// maxListed bounds the rows, keys and partitions listed one by one.
const maxListed = 10

type desc struct{ b strings.Builder }

func describe(format string, args ...any) *desc {
	d := &desc{}
	fmt.Fprintf(&d.b, format, args...)
	d.b.WriteByte('\n')
	return d
}

func (d *desc) line(key, format string, args ...any) *desc {
	fmt.Fprintf(&d.b, "  %s: %s\n", key, fmt.Sprintf(format, args...))
	return d
}

func (d *desc) lineIf(on bool, key, format string, args ...any) *desc {
	if on {
		d.line(key, format, args...)
	}
	return d
}

func (d *desc) item(s string) { d.b.WriteString("    " + s + "\n") }

// items lists up to maxListed entries and counts the rest.
func (d *desc) items(n int, f func(i int) string) {
	for i := range min(n, maxListed) {
		d.item(f(i))
	}
	if n > maxListed {
		d.item(fmt.Sprintf("… %d more", n-maxListed))
	}
}

func (d *desc) String() string { return d.b.String() }

func props(m map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, parser.QuoteString(k)+" = "+parser.QuoteString(m[k]))
	}
	return strings.Join(parts, ", ")
}

// String describes the plan for EXPLAIN.
func (p *CreateDatabase) String() string {
	return describe("CreateDatabase %s", p.Name).
		lineIf(p.IgnoreIfExists, "if not exists", "true").
		lineIf(p.Descriptor.Comment != "", "comment", "%s", parser.QuoteString(p.Descriptor.Comment)).
		lineIf(len(p.Descriptor.CustomProperties) > 0, "properties", "%s", props(p.Descriptor.CustomProperties)).String()
}

// String describes the plan for EXPLAIN.
func (p *DropDatabase) String() string {
	return describe("DropDatabase %s", p.Name).
		lineIf(p.IgnoreIfNotExists, "if exists", "true").
		lineIf(p.Cascade, "cascade", "true (drops its tables)").String()
}

// String describes the plan for EXPLAIN.
func (p *Use) String() string { return describe("Use %s", p.Database).String() }

// String describes the plan for EXPLAIN.
func (p *CreateTable) String() string {
	d := p.Descriptor
	cols := make([]string, len(d.Schema.Columns))
	for i, c := range d.Schema.Columns {
		cols[i] = c.Name + " " + parser.FormatType(c.Type)
	}
	buckets := "server default"
	if d.BucketCount > 0 {
		buckets = strconv.Itoa(d.BucketCount)
	}
	bucketKey := "default"
	if len(d.BucketKeys) > 0 {
		bucketKey = keyList(d.BucketKeys)
	}
	return describe("CreateTable %s", p.Path).
		line("columns", "%s", strings.Join(cols, ", ")).
		lineIf(len(d.Schema.PrimaryKey) > 0, "primary key", "%s", keyList(d.Schema.PrimaryKey)).
		lineIf(len(d.PartitionKeys) > 0, "partitioned by", "%s", keyList(d.PartitionKeys)).
		line("buckets", "%s", buckets).
		line("bucket key", "%s", bucketKey).
		lineIf(len(d.AggFunctions) > 0, "aggregate functions", "%s", aggFunctionsText(d)).
		lineIf(len(d.Properties) > 0, "properties", "%s", props(d.Properties)).
		lineIf(len(d.CustomProperties) > 0, "custom properties", "%s", props(d.CustomProperties)).
		lineIf(d.Comment != "", "comment", "%s", parser.QuoteString(d.Comment)).
		lineIf(p.IgnoreIfExists, "if not exists", "true").String()
}

// String describes the plan for EXPLAIN.
func (p *DropTable) String() string {
	return describe("DropTable %s", p.Path).lineIf(p.IgnoreIfNotExists, "if exists", "true").String()
}

// specText renders partition values: the spec once bound, else the values.
func specText(vals []Value, spec fluss.PartitionSpec, bound bool) string {
	var parts []string
	for _, v := range vals {
		if v.Column == "" {
			continue
		}
		if bound {
			parts = append(parts, v.Column+"="+spec[v.Column])
		} else {
			parts = append(parts, v.Column+"="+v.String())
		}
	}
	return strings.Join(parts, "/")
}

// String describes the plan for EXPLAIN.
func (p *AddPartition) String() string {
	return describe("AddPartition %s", p.Path).
		line("partition", "%s", specText(p.Values, p.Spec, p.bound)).
		lineIf(p.IgnoreIfExists, "if not exists", "true").
		pending(p.Placeholders).String()
}

// String describes the plan for EXPLAIN.
func (p *DropPartition) String() string {
	return describe("DropPartition %s", p.Path).
		line("partition", "%s", specText(p.Values, p.Spec, p.bound)).
		lineIf(p.IgnoreIfNotExists, "if exists", "true").
		pending(p.Placeholders).String()
}

// pending notes placeholders that Bind has yet to fill.
func (d *desc) pending(ph Placeholders) *desc {
	n := ph.Params.Positional + len(ph.Params.Names)
	return d.lineIf(!ph.bound && n > 0, "placeholders", "%d, bound at execution", n)
}

func likeText(like *string) string {
	if like == nil {
		return ""
	}
	return parser.QuoteString(*like)
}

// String describes the plan for EXPLAIN.
func (p *ShowDatabases) String() string {
	return describe("ShowDatabases").lineIf(p.Like != nil, "like", "%s", likeText(p.Like)).String()
}

// String describes the plan for EXPLAIN.
func (p *ShowTables) String() string {
	return describe("ShowTables %s", p.Database).lineIf(p.Like != nil, "like", "%s", likeText(p.Like)).String()
}

// String describes the plan for EXPLAIN.
func (p *ShowPartitions) String() string {
	spec := specText(p.Values, p.Spec, p.bound)
	return describe("ShowPartitions %s", p.Path).lineIf(spec != "", "partition", "%s", spec).pending(p.Placeholders).String()
}

// String describes the plan for EXPLAIN.
func (p *ShowCreateTable) String() string {
	return describe("ShowCreateTable %s", p.Table.Path).String()
}

// String describes the plan for EXPLAIN.
func (p *Describe) String() string { return describe("Describe %s", p.Table.Path).String() }

// String describes the plan for EXPLAIN.
func (p *Explain) String() string { return p.Plan.String() }

// String describes the plan for EXPLAIN.
func (w *Write) String() string {
	d := describe("Write %s (%s)", w.Table.Path, tableKind(w.Table)).line("mode", "%s", w.Mode)
	d.lineIf(w.TargetColumns != nil, "target columns", "%s", describeColumns(w.Table, w.TargetColumns))
	d.line("columns", "%s", strings.Join(w.Table.Schema().ColumnNames(), ", "))
	d.line("rows", "%d", len(w.Rows))
	d.items(len(w.Rows), func(i int) string {
		r := w.Rows[i]
		s := formatValues(r.Values)
		if r.Values == nil { // bound: the values with their columns' types
			cols := w.Table.Schema().Columns
			parts := make([]string, len(r.bound))
			for j, v := range r.bound {
				parts[j] = formatTyped(cols[j].Type, v)
			}
			s = "(" + strings.Join(parts, ", ") + ")"
		}
		if r.PartitionValues != nil {
			s += " → partition " + r.Partition()
		}
		return s
	})
	return d.pending(w.Placeholders).String()
}

// output adds the lines every read plan shares.
func (d *desc) output(o Output) *desc {
	d.lineIf(o.Filter != nil, "filter", "%s", o.Filter)
	names := make([]string, len(o.Columns))
	for i, c := range o.Columns {
		names[i] = c.Name
	}
	if o.Count {
		d.line("count", "%s", names[0])
	} else {
		d.line("columns", "%s", strings.Join(names, ", "))
	}
	switch {
	case o.LimitValue == nil:
	case o.Limit >= 0:
		d.line("limit", "%d", o.Limit)
	default:
		d.line("limit", "%s", o.LimitValue)
	}
	return d
}

func (d *desc) keys(ks KeySet, ph Placeholders) *desc {
	var cands []string
	for i, c := range ks.KeyColumns {
		vs := ks.Candidates[i]
		if len(vs) == 1 {
			cands = append(cands, c+" = "+vs[0].String())
		} else {
			parts := make([]string, len(vs))
			for j, v := range vs {
				parts[j] = v.String()
			}
			cands = append(cands, c+" IN ("+strings.Join(parts, ", ")+")")
		}
	}
	d.line("key", "%s", keyList(ks.KeyColumns))
	if !ph.bound {
		d.line("keys", "from %s, expanded at execution", strings.Join(cands, " AND "))
		return d
	}
	d.line("keys", "%d", len(ks.Keys))
	d.items(len(ks.Keys), func(i int) string {
		k := ks.Keys[i]
		parts := make([]string, len(k.Values))
		for j, v := range k.Values {
			parts[j] = FormatValue(v)
		}
		s := "(" + strings.Join(parts, ", ") + ")"
		if k.Partition != "" {
			s += " → partition " + k.Partition
		}
		return s
	})
	return d
}

// String describes the plan for EXPLAIN.
func (p *Lookup) String() string {
	return describe("Lookup %s (%s)", p.Table.Path, tableKind(p.Table)).
		keys(p.KeySet, p.Placeholders).output(p.Output).String()
}

// String describes the plan for EXPLAIN.
func (p *PrefixLookup) String() string {
	return describe("PrefixLookup %s (%s)", p.Table.Path, tableKind(p.Table)).
		keys(p.KeySet, p.Placeholders).output(p.Output).String()
}

func (d *desc) partitions(ps PartitionSet, ph Placeholders) *desc {
	if !ps.Partitioned {
		return d
	}
	if len(ps.Pruning) > 0 {
		var parts []string
		for _, f := range ps.Pruning {
			vs := make([]string, len(f.Values))
			for i, v := range f.Values {
				vs[i] = v.String()
			}
			parts = append(parts, f.Column+" IN ("+strings.Join(vs, ", ")+")")
		}
		d.line("pruning", "%s", strings.Join(parts, " AND "))
	}
	switch {
	case !ph.bound:
		d.line("partitions", "pruned at execution from %d", len(ps.All))
	case len(ps.Partitions) == 0:
		d.line("partitions", "none of %d (the result is empty)", len(ps.All))
	case len(ps.Partitions) == len(ps.All):
		d.line("partitions", "all %d", len(ps.All))
	default:
		d.line("partitions", "%d of %d", len(ps.Partitions), len(ps.All))
	}
	if ph.bound {
		d.items(len(ps.Partitions), func(i int) string { return ps.Partitions[i].QualifiedName() })
	}
	return d
}

// String describes the plan for EXPLAIN.
func (p *LimitScan) String() string {
	each := p.LimitValue.String()
	if p.Limit >= 0 {
		each = strconv.FormatInt(p.Limit, 10)
	}
	return describe("LimitScan %s (%s)", p.Table.Path, tableKind(p.Table)).
		partitions(p.PartitionSet, p.Placeholders).
		line("buckets", "%d, at most %s rows read from each", p.Buckets, each).
		output(p.Output).pending(p.Placeholders).String()
}

// String describes the plan for EXPLAIN.
func (p *Scan) String() string {
	start := p.Start.String()
	if p.Start == StartTimestamp {
		start += fmt.Sprintf(" %d (%s)", p.StartTimestamp, time.UnixMilli(p.StartTimestamp).UTC().Format(time.RFC3339Nano))
	}
	bounded := "yes, up to the end offsets seen at the start"
	if !p.Bounded {
		bounded = "no, until the context is cancelled or the rows are closed"
	}
	return describe("Scan %s (%s)", p.Table.Path, tableKind(p.Table)).
		partitions(p.PartitionSet, p.Placeholders).
		line("buckets", "%d", p.Buckets).
		line("projection", "%s", describeColumns(p.Table, p.Projection)).
		lineIf(p.Virtual != NotVirtual, "virtual table", "%s", virtualText(p.Virtual)).
		lineIf(p.Lake != NoLake, "lake", "%s", p.lakeText()).
		line("start", "%s", start).
		line("bounded", "%s", bounded).
		lineIf(p.serverFilterLine() != "", "server filter", "%s", p.serverFilterLine()).
		output(p.Output).pending(p.Placeholders).String()
}

func (*CreateDatabase) plan()  {}
func (*DropDatabase) plan()    {}
func (*Use) plan()             {}
func (*CreateTable) plan()     {}
func (*DropTable) plan()       {}
func (*AddPartition) plan()    {}
func (*DropPartition) plan()   {}
func (*ShowDatabases) plan()   {}
func (*ShowTables) plan()      {}
func (*ShowPartitions) plan()  {}
func (*ShowCreateTable) plan() {}
func (*Describe) plan()        {}
func (*Explain) plan()         {}
func (*Write) plan()           {}
func (*Lookup) plan()          {}
func (*PrefixLookup) plan()    {}
func (*LimitScan) plan()       {}
func (*Scan) plan()            {}
