package planner

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// ErrNeedsFullScan is matched (errors.Is) by the error of a query that would need a full scan
// of a primary-key table — the server's KV scan (SCAN_KV, Fluss 1.0+) — planned while
// Session.KvScan is false. The planner does not know the server: the driver sets KvScan when
// the connected one offers SCAN_KV, and otherwise adds what it offers to this error.
var ErrNeedsFullScan = errors.New("planner: the query needs a full scan of a primary-key table")

// fullScanError is a query refused because it needs a full scan of a primary-key table.
type fullScanError struct {
	msg string
	// withoutLimit, when set, is msg without its advice to add LIMIT: what the table's
	// read says when it is part of a larger query, where a LIMIT stands above it.
	withoutLimit string
}

func (e *fullScanError) Error() string { return e.msg }

// Is makes the error match ErrNeedsFullScan.
func (e *fullScanError) Is(target error) bool { return target == ErrNeedsFullScan }

// Lookup reads the rows of a primary-key table with the given keys: for
// each bound key, look its Values up (in KeyColumns order, in the key's
// partition) and pass the found row (the full table row) to Output.
type Lookup struct {
	Table *fluss.TableInfo
	KeySet
	Output
	Placeholders
}

// PrefixLookup reads the rows of a primary-key table whose bucket key (a
// strict prefix of the physical primary key) and partition keys have the
// given values: for each bound key, prefix-look its Values up (in
// KeyColumns order) and pass every found row (full table rows) to Output.
type PrefixLookup struct {
	Table *fluss.TableInfo
	KeySet
	Output
	Placeholders
}

// LimitScan reads at most Output.Limit rows from every bucket of a
// primary-key table (of every partition in PartitionSet.Partitions) with
// Fluss's LimitScan, and passes them (full table rows) to Output until its
// limit is reached. With a residual filter, rows past the first Limit of a
// bucket are never examined.
type LimitScan struct {
	Table *fluss.TableInfo
	PartitionSet
	// Buckets is the number of buckets of the table (of each partition).
	Buckets int
	Output
	Placeholders
}

// Scan reads a log table: buckets 0..Buckets-1 of the table or of each
// partition in PartitionSet.Partitions, columns Projection (ascending
// table column indexes) from the start Start says; when Bounded, up to the
// end offsets seen when the scan starts, else until the context is
// cancelled or the rows are closed. Projected rows go to Output.
type Scan struct {
	Table *fluss.TableInfo
	PartitionSet
	Buckets    int
	Projection []int
	Start      StartMode
	// StartTimestamp is the start in epoch milliseconds (StartTimestamp).
	StartTimestamp int64
	Bounded        bool
	// Virtual is the virtual table the scan reads (a query over
	// t$changelog or t$binlog), whose metadata columns (and, for Binlog,
	// images) the driver builds before the rows reach the query's Input.
	Virtual VirtualTable
	// Pushdown is the WHERE over table column positions, for the server
	// filter (pushdown.go); nil when the table has no statistics columns.
	Pushdown *Filter
	// FilterKeepsBatches is set when the WHERE names partition columns only: it has one
	// answer per partition, so it keeps or drops the server's batches whole.
	FilterKeepsBatches bool
	// Lake is whether the scan reads the table's lake (lake.go): a union read of a
	// datalake-enabled log table, or t$lake.
	Lake LakeMode
	// LakePushdown is the WHERE over table column positions for the lake's planning (nil:
	// none, or not a datalake-enabled table).
	LakePushdown *Filter
	Output
	Placeholders
}

// onlyPartitionColumns reports whether where (nil: none) names partition columns only.
func onlyPartitionColumns(where parser.Expr, partitionKeys []string) bool {
	if where == nil {
		return true
	}
	only := true
	parser.Walk(where, func(e parser.Expr) bool {
		if ref, ok := e.(*parser.ColumnRef); ok && !slices.Contains(partitionKeys, ref.Name) {
			only = false
		}
		return only
	})
	return only
}

// selItem is one resolved select-list entry.
type selItem struct {
	name  string
	col   int // table column index, -1 for COUNT(*)
	count bool
}

// selectStmt plans a SELECT: as a row plan (Lookup, PrefixLookup,
// LimitScan, Scan) when it has only columns, * or COUNT(*), a WHERE the row
// filter can evaluate and LIMIT; else as a Query the engine finishes.
func (b *builder) selectStmt(s *parser.Select) (Plan, error) {
	s = b.foldSelect(s)
	_, lake := splitLake(s.Table.Name)
	if _, v := splitVirtual(s.Table.Name); v != NotVirtual || lake || !simpleSelect(s) {
		return b.query(s)
	}
	p, err := b.simpleSelect(s)
	if errors.Is(err, errEngineOnly) {
		return b.query(s)
	}
	if err != nil {
		var tne *TableNotExistError
		if errors.As(err, &tne) {
			return nil, err
		}
		q, qerr := b.query(s)
		if qerr == nil {
			return q, nil
		}
		if errors.Is(qerr, ErrNeedsFullScan) {
			return nil, qerr // the statement is understood; it needs what the server lacks
		}
	}
	return p, err
}

func (b *builder) simpleSelect(s *parser.Select) (Plan, error) {
	info, err := b.table(s.Table)
	if err != nil {
		return nil, err
	}
	items, count, star, err := selectItems(info, s.Items)
	if err != nil {
		return nil, err
	}
	var whereCols []int
	var refErr error
	parser.Walk(s.Where, func(e parser.Expr) bool {
		if ref, ok := e.(*parser.ColumnRef); ok && refErr == nil {
			idx, err := column(info, ref.Name)
			refErr = err
			whereCols = append(whereCols, idx)
		}
		return true
	})
	if refErr != nil {
		return nil, refErr
	}
	sb := &selectBuilder{b: b, info: info, stmt: s, items: items, count: count,
		ph: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}
	if s.Limit != nil {
		v, err := newValue("LIMIT", types.NewBigInt(), s.Limit, nil)
		if err != nil {
			return nil, fmt.Errorf("LIMIT must be a non-negative integer: %w", err)
		}
		sb.limit = &v
	}
	if info.HasPrimaryKey() {
		if s.Hints != nil {
			return nil, fmt.Errorf("OPTIONS hints apply to log-table scans; %s is a primary-key table", info.Path)
		}
		return sb.primaryKey()
	}
	return sb.scan(star, whereCols)
}

// selectItems resolves the select list.
func selectItems(info *fluss.TableInfo, list []parser.SelectItem) (items []selItem, count, star bool, err error) {
	for _, it := range list {
		switch e := it.Expr.(type) {
		case *parser.Star:
			star = true
			for i, name := range info.Schema().ColumnNames() {
				items = append(items, selItem{name: name, col: i})
			}
		case *parser.CountStar:
			count = true
			items = append(items, selItem{name: cmpOr(it.Alias, "COUNT(*)"), col: -1, count: true})
		case *parser.ColumnRef:
			idx, err := column(info, e.Name)
			if err != nil {
				return nil, false, false, err
			}
			items = append(items, selItem{name: cmpOr(it.Alias, e.Name), col: idx})
		default:
			return nil, false, false, fmt.Errorf("%s cannot be selected; select columns, * or COUNT(*)", it.Expr)
		}
	}
	if count && len(items) > 1 {
		return nil, false, false, fmt.Errorf("COUNT(*) cannot be selected together with columns (there is no GROUP BY)")
	}
	return items, count, star, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

type selectBuilder struct {
	b     *builder
	info  *fluss.TableInfo
	stmt  *parser.Select
	items []selItem
	count bool
	limit *Value
	ph    Placeholders
}

// output builds the Output over input rows laid out by slot.
func (sb *selectBuilder) output(slot func(int) int, width int) (Output, error) {
	c := &compiler{info: sb.info, slot: slot, loc: sb.b.sess.Location, width: width}
	f, err := c.compile(sb.stmt.Where)
	if err != nil {
		return Output{}, err
	}
	o := Output{Filter: f, Count: sb.count, LimitValue: sb.limit, Limit: -1}
	for _, it := range sb.items {
		if it.count {
			o.Columns = append(o.Columns, OutputColumn{Name: it.name, Type: types.NewBigInt().AsNotNull(), Slot: -1})
			continue
		}
		col := sb.info.Schema().Columns[it.col]
		o.Columns = append(o.Columns, OutputColumn{Name: it.name, Type: col.Type, Slot: slot(it.col)})
	}
	return o, nil
}

func identity(i int) int { return i }

func (sb *selectBuilder) primaryKey() (Plan, error) {
	info := sb.info
	width := len(info.Schema().Columns)
	out, err := sb.output(identity, width)
	if err != nil {
		return nil, err
	}
	eq := equalities(info, sb.stmt.Where, sb.b.sess)
	if ks, ok := keySet(info, info.Schema().PrimaryKey, eq); ok {
		return &Lookup{Table: info, KeySet: ks, Output: out, Placeholders: sb.ph}, nil
	}
	bucket, phys := info.BucketKeys(), info.PhysicalPrimaryKey()
	prefix := len(bucket) > 0 && len(bucket) < len(phys) && slices.Equal(bucket, phys[:len(bucket)])
	if prefix {
		if ks, ok := keySet(info, append(slices.Clone(bucket), info.PartitionKeys()...), eq); ok {
			return &PrefixLookup{Table: info, KeySet: ks, Output: out, Placeholders: sb.ph}, nil
		}
	}
	hint := "filter with = or IN on the whole primary key " + keyList(info.Schema().PrimaryKey) + " for a lookup"
	if prefix {
		hint += ", on " + keyList(append(slices.Clone(bucket), info.PartitionKeys()...)) + " for a prefix lookup"
	}
	if p, err := sb.kvScanQuery(); p != nil || err != nil {
		return p, err
	}
	if p, err := sb.lakeMergeQuery(); p != nil || err != nil {
		return p, err
	}
	if sb.count {
		return nil, &fullScanError{msg: fmt.Sprintf("COUNT(*) over a whole primary-key table needs a full scan, which needs Fluss 1.0+ (ScanKv); %s", hint)}
	}
	if sb.limit == nil || !limitScanExact(info, sb.stmt.Where) {
		return nil, fullScanNeeded(info, sb.stmt.Where, hint)
	}
	ps, err := sb.partitionSet(eq)
	if err != nil {
		return nil, err
	}
	return &LimitScan{Table: info, PartitionSet: ps, Buckets: info.NumBuckets(), Output: out, Placeholders: sb.ph}, nil
}

// keySet builds a KeySet over cols when every one has candidates.
func keySet(info *fluss.TableInfo, cols []string, eq map[int][]Value) (KeySet, bool) {
	ks := KeySet{KeyColumns: cols}
	for _, c := range cols {
		idx := info.Schema().Index(c)
		cands, ok := eq[idx]
		if !ok {
			return KeySet{}, false
		}
		ks.KeyIndexes = append(ks.KeyIndexes, idx)
		ks.Candidates = append(ks.Candidates, cands)
	}
	return ks, true
}

func (sb *selectBuilder) partitionSet(eq map[int][]Value) (PartitionSet, error) {
	info := sb.info
	if !info.IsPartitioned() {
		return PartitionSet{}, nil
	}
	all, err := sb.b.partitions(info)
	if err != nil {
		return PartitionSet{}, err
	}
	ps := PartitionSet{Partitioned: true, All: all}
	for _, k := range info.PartitionKeys() {
		if vals, ok := eq[info.Schema().Index(k)]; ok {
			ps.Pruning = append(ps.Pruning, PartitionFilter{Column: k, Values: vals})
		}
	}
	return ps, nil
}

func (sb *selectBuilder) scan(star bool, whereCols []int) (Plan, error) {
	info := sb.info
	h, err := parseHints(sb.stmt.Hints, sb.b.sess.Location)
	if err != nil {
		return nil, err
	}
	if sb.count && !h.bounded {
		return nil, fmt.Errorf("COUNT(*) needs a bounded scan; remove '%s' = 'false'", HintBounded)
	}
	var proj []int
	if star {
		for i := range info.Schema().Columns {
			proj = append(proj, i)
		}
	} else {
		proj = slices.Clone(whereCols)
		for _, it := range sb.items {
			if !it.count {
				proj = append(proj, it.col)
			}
		}
		slices.Sort(proj)
		proj = slices.Compact(proj)
		if len(proj) == 0 {
			proj = []int{0} // COUNT(*) alone still reads one column
		}
	}
	slot := func(col int) int { return slices.Index(proj, col) }
	out, err := sb.output(slot, len(proj))
	if err != nil {
		return nil, err
	}
	ps, err := sb.partitionSet(equalities(info, sb.stmt.Where, sb.b.sess))
	if err != nil {
		return nil, err
	}
	return &Scan{Table: info, PartitionSet: ps, Buckets: info.NumBuckets(), Projection: proj,
		Start: h.start, StartTimestamp: h.timestamp, Bounded: h.bounded, Output: out, Placeholders: sb.ph,
		Pushdown:           pushdownFilter(info, sb.stmt.Where, sb.b.sess.Location),
		Lake:               lakeMode(info, sb.stmt.Table.Name, h),
		LakePushdown:       lakePushdown(info, sb.stmt.Where, sb.b.sess),
		FilterKeepsBatches: onlyPartitionColumns(sb.stmt.Where, info.PartitionKeys())}, nil
}

// equalities returns, per table column, the values of the first top-level
// conjunct of where that is col = v, v = col or col IN (v, …), converted
// to the column's type. Conjuncts whose values do not convert are skipped
// (the filter reports them).
func equalities(info *fluss.TableInfo, where parser.Expr, sess Session) map[int][]Value {
	out := map[int][]Value{}
	for _, c := range conjuncts(where) {
		var ref *parser.ColumnRef
		var vals []parser.Expr
		switch n := c.(type) {
		case *parser.Comparison:
			if n.Op != parser.OpEq {
				continue
			}
			if r, ok := n.Left.(*parser.ColumnRef); ok && isValue(n.Right) {
				ref, vals = r, []parser.Expr{n.Right}
			} else if r, ok := n.Right.(*parser.ColumnRef); ok && isValue(n.Left) {
				ref, vals = r, []parser.Expr{n.Left}
			}
		case *parser.In:
			if r, ok := n.Expr.(*parser.ColumnRef); ok && !n.Not && all(n.List, isValue) {
				ref, vals = r, n.List
			}
		}
		if ref == nil {
			continue
		}
		idx, err := column(info, ref.Name)
		if err != nil {
			continue
		}
		if _, done := out[idx]; done {
			continue
		}
		col := info.Schema().Columns[idx]
		var vs []Value
		for _, e := range vals {
			v, err := newValue(col.Name, col.Type, e, sess.Location)
			if err != nil {
				vs = nil
				break
			}
			vs = append(vs, v)
		}
		if vs != nil {
			out[idx] = vs
		}
	}
	return out
}

// conjuncts flattens the top-level ANDs of e.
func conjuncts(e parser.Expr) []parser.Expr {
	if e == nil {
		return nil
	}
	if a, ok := e.(*parser.And); ok {
		return append(conjuncts(a.Left), conjuncts(a.Right)...)
	}
	return []parser.Expr{e}
}

func isValue(e parser.Expr) bool {
	switch e.(type) {
	case *parser.Literal, *parser.Placeholder:
		return true
	}
	return false
}

func all(es []parser.Expr, f func(parser.Expr) bool) bool {
	for _, e := range es {
		if !f(e) {
			return false
		}
	}
	return true
}

// describeColumns renders column indexes as names.
func describeColumns(info *fluss.TableInfo, idx []int) string {
	names := make([]string, len(idx))
	for i, c := range idx {
		names[i] = info.Schema().Columns[c].Name
	}
	return strings.Join(names, ", ")
}
