package planner

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// WriteMode is how a Write changes its table.
type WriteMode int

// Write modes.
const (
	// Append appends the rows to a log table (INSERT).
	Append WriteMode = iota
	// Upsert inserts or replaces whole rows of a primary-key table
	// (INSERT or UPSERT with every column).
	Upsert
	// PartialUpdate upserts only TargetColumns of a primary-key table
	// (INSERT or UPSERT with a column list that leaves columns out); other
	// columns keep their values, or are NULL in new rows.
	PartialUpdate
	// Delete deletes the rows with the rows' primary keys (DELETE); only
	// the key columns of the rows are set.
	Delete
	// Update sets TargetColumns of the row with the row's primary key
	// (UPDATE). It is written as a partial update (as a whole-row upsert
	// when TargetColumns are every column); since Fluss inserts a
	// missing key on a partial update, a driver that wants SQL's "0 rows
	// affected" for a missing key looks the key up first.
	Update
)

var writeModeNames = [...]string{"Append", "Upsert", "PartialUpdate", "Delete", "Update"}

// String returns the mode's name.
func (m WriteMode) String() string {
	if m >= 0 && int(m) < len(writeModeNames) {
		return writeModeNames[m]
	}
	return fmt.Sprintf("WriteMode(%d)", int(m))
}

// Write writes rows to a table: append (log tables), upsert, partial
// update, delete or update (primary-key tables). RowsAffected is
// len(Rows).
type Write struct {
	Table *fluss.TableInfo
	Mode  WriteMode
	// TargetColumns are the written table column indexes (ascending) for
	// PartialUpdate and Update: the primary key plus the columns given.
	// Nil for the other modes.
	TargetColumns []int
	// Rows hold one value per table column, in table column order;
	// columns the statement does not give are NULL.
	Rows []WriteRow
	Placeholders
}

// WriteRow is one row of a Write: its Values (constants and placeholders) until Bind, then
// the bound values in the value model (Any).
type WriteRow struct {
	// Values are the row's values as planned; nil once the row is bound.
	Values []Value
	// PartitionValues are the row's partition values rendered as Fluss
	// partition strings, in partition-key order; set by Bind (nil when
	// the table is not partitioned).
	PartitionValues []string
	// bound holds the values Bind converted, one per table column (nil: not bound).
	bound []any
}

// Partition returns the name of the row's partition ("" when the table
// is not partitioned).
func (r WriteRow) Partition() string {
	return strings.Join(r.PartitionValues, fluss.PartitionSeparator)
}

// Any returns the values of a bound row in the value model, one per table column. The
// slice is the row's own: callers must not change it.
func (r WriteRow) Any() []any {
	if r.bound != nil || r.Values == nil {
		return r.bound
	}
	out := make([]any, len(r.Values))
	for i, v := range r.Values {
		out[i] = v.Const
	}
	return out
}

func (b *builder) insert(s *parser.Insert) (Plan, error) {
	if s.Query != nil {
		return b.insertSelect(s)
	}
	w, targets, err := b.insertTarget(s)
	if err != nil {
		return nil, err
	}
	info, schema := w.Table, w.Table.Schema()
	for r, exprs := range s.Rows {
		if len(exprs) != len(targets) {
			return nil, fmt.Errorf("row %d has %d values for %d columns", r+1, len(exprs), len(targets))
		}
		row := nullRow(info)
		for j, e := range exprs {
			col := schema.Columns[targets[j]]
			v, err := newValue(col.Name, col.Type, e, b.sess.Location)
			if err != nil {
				return nil, err
			}
			row[targets[j]] = v
		}
		w.Rows = append(w.Rows, WriteRow{Values: row})
	}
	return w, nil
}

// insertTarget plans the target of an INSERT or UPSERT: the write (table, mode, target
// columns; no rows yet) and the table column index of each value of a row.
func (b *builder) insertTarget(s *parser.Insert) (*Write, []int, error) {
	info, err := b.table(s.Table)
	if err != nil {
		return nil, nil, err
	}
	schema := info.Schema()
	if s.Upsert && !info.HasPrimaryKey() {
		return nil, nil, fmt.Errorf("UPSERT needs a primary-key table; %s is a log table: use INSERT INTO to append", info.Path)
	}
	targets := make([]int, 0, len(schema.Columns))
	if s.Columns == nil {
		for i := range schema.Columns {
			targets = append(targets, i)
		}
	}
	for _, name := range s.Columns {
		idx, err := column(info, name)
		if err != nil {
			return nil, nil, err
		}
		if slices.Contains(targets, idx) {
			return nil, nil, fmt.Errorf("column %q is listed twice", schema.Columns[idx].Name)
		}
		targets = append(targets, idx)
	}
	w := &Write{Table: info, Mode: Append, Placeholders: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}
	partial := len(targets) < len(schema.Columns)
	if info.HasPrimaryKey() {
		w.Mode = Upsert
		if partial {
			w.Mode = PartialUpdate
			w.TargetColumns = slices.Sorted(slices.Values(targets))
			if err := checkPartialUpdate(info, w.TargetColumns, "list every column"); err != nil {
				return nil, nil, err
			}
		}
	}
	for i, c := range schema.Columns {
		if !slices.Contains(targets, i) && !c.Type.Nullable() && w.Mode == Append {
			return nil, nil, fmt.Errorf("column %q is NOT NULL and needs a value; add it to the column list", c.Name)
		}
	}
	return w, targets, nil
}

// checkPartialUpdate applies Fluss's rules for partial updates (the Java
// UpsertWriter's): the target columns hold the whole primary key, and
// every column outside the primary key is nullable.
func checkPartialUpdate(info *fluss.TableInfo, targets []int, fix string) error {
	schema := info.Schema()
	var missing []string
	for _, k := range schema.PrimaryKey {
		if !slices.Contains(targets, schema.Index(k)) {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("a partial update (a column list without every column) must include the whole primary key %s; missing: %s",
			keyList(schema.PrimaryKey), strings.Join(missing, ", "))
	}
	for _, c := range schema.Columns {
		if !slices.Contains(schema.PrimaryKey, c.Name) && !c.Type.Nullable() {
			return fmt.Errorf("a partial update of %s is not possible: Fluss needs every column outside the primary key to be nullable, and %q is NOT NULL; %s", info.Path, c.Name, fix)
		}
	}
	return nil
}

// nullRow returns a row of NULL constants for every column.
func nullRow(info *fluss.TableInfo) []Value {
	row := make([]Value, len(info.Schema().Columns))
	for i, c := range info.Schema().Columns {
		row[i] = Value{Column: c.Name, Type: c.Type}
	}
	return row
}

func (b *builder) delete(s *parser.Delete) (Plan, error) {
	info, err := b.table(s.Table)
	if err != nil {
		return nil, err
	}
	if !info.HasPrimaryKey() {
		return nil, fmt.Errorf("DELETE needs a primary-key table; %s is a log table, which is append-only", info.Path)
	}
	keys, err := b.keyRows(info, s.Where, "DELETE")
	if err != nil {
		return nil, err
	}
	rows := make([]WriteRow, len(keys))
	for i, k := range keys {
		rows[i] = WriteRow{Values: k}
	}
	return &Write{Table: info, Mode: Delete, Rows: rows,
		Placeholders: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}, nil
}

func (b *builder) update(s *parser.Update) (Plan, error) {
	info, err := b.table(s.Table)
	if err != nil {
		return nil, err
	}
	if !info.HasPrimaryKey() {
		return nil, fmt.Errorf("UPDATE needs a primary-key table; %s is a log table, which is append-only", info.Path)
	}
	schema := info.Schema()
	keys, err := b.keyRows(info, s.Where, "UPDATE")
	if err != nil {
		return nil, err
	}
	var targets []int
	for _, k := range schema.PrimaryKey {
		targets = append(targets, schema.Index(k))
	}
	for _, a := range s.Set {
		idx, err := column(info, a.Column)
		if err != nil {
			return nil, err
		}
		col := schema.Columns[idx]
		if slices.Contains(targets, idx) {
			if slices.Contains(schema.PrimaryKey, col.Name) {
				return nil, fmt.Errorf("UPDATE cannot SET primary-key column %q; delete the row and insert a new one", col.Name)
			}
			return nil, fmt.Errorf("column %q is SET twice", col.Name)
		}
		v, err := newValue(col.Name, col.Type, a.Value, b.sess.Location)
		if err != nil {
			return nil, err
		}
		for _, row := range keys {
			row[idx] = v
		}
		targets = append(targets, idx)
	}
	slices.Sort(targets)
	// An UPDATE that sets every column is a whole row, not a partial update: it needs no
	// nullable columns (GORM's Save sets them all).
	if len(targets) < len(schema.Columns) {
		if err := checkPartialUpdate(info, targets, "SET every column, or write the whole row with UPSERT"); err != nil {
			return nil, err
		}
	}
	rows := make([]WriteRow, len(keys))
	for i, k := range keys {
		rows[i] = WriteRow{Values: k}
	}
	return &Write{Table: info, Mode: Update, TargetColumns: targets, Rows: rows,
		Placeholders: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}, nil
}

// keyRows reads a WHERE clause that must be equality (or IN, as ORMs write a statement over
// several keys) on every primary-key column joined by AND, into one row per key with the key
// values set: `k = 1 AND j IN (2, 3)` gives the keys (1, 2) and (1, 3).
func (b *builder) keyRows(info *fluss.TableInfo, where parser.Expr, verb string) ([][]Value, error) {
	schema := info.Schema()
	var form []string
	for _, k := range schema.PrimaryKey {
		form = append(form, k+" = …")
	}
	accepted := fmt.Sprintf("%s on a primary-key table takes WHERE with equality (or IN) on every primary-key column, joined by AND: WHERE %s",
		verb, strings.Join(form, " AND "))
	if where == nil {
		return nil, fmt.Errorf("%s", accepted)
	}
	rows := [][]Value{nullRow(info)}
	set := map[int]bool{}
	for _, c := range conjuncts(where) {
		var ref parser.Expr
		var vals []parser.Expr
		switch e := c.(type) {
		case *parser.Comparison:
			if e.Op != parser.OpEq {
				return nil, fmt.Errorf("%s; %s is not accepted", accepted, c)
			}
			ref, vals = e.Left, []parser.Expr{e.Right}
			if _, ok := ref.(*parser.ColumnRef); !ok {
				ref, vals = e.Right, []parser.Expr{e.Left}
			}
		case *parser.In:
			if e.Not || len(e.List) == 0 {
				return nil, fmt.Errorf("%s; %s is not accepted", accepted, c)
			}
			ref, vals = e.Expr, e.List
		default:
			return nil, fmt.Errorf("%s; %s is not accepted", accepted, c)
		}
		r, ok := ref.(*parser.ColumnRef)
		if !ok || !all(vals, isValue) {
			return nil, fmt.Errorf("%s; %s is not accepted", accepted, c)
		}
		idx, err := column(info, r.Name)
		if err != nil {
			return nil, err
		}
		col := schema.Columns[idx]
		if !slices.Contains(schema.PrimaryKey, col.Name) {
			return nil, fmt.Errorf("%s; %q is not a primary-key column", accepted, col.Name)
		}
		if set[idx] {
			return nil, fmt.Errorf("%s; %q is compared twice", accepted, col.Name)
		}
		set[idx] = true
		next := make([][]Value, 0, len(rows)*len(vals))
		for _, val := range vals {
			v, err := newValue(col.Name, col.Type, val, b.sess.Location)
			if err != nil {
				return nil, err
			}
			for _, row := range rows {
				row = slices.Clone(row)
				row[idx] = v
				next = append(next, row)
			}
		}
		rows = next
	}
	for _, k := range schema.PrimaryKey {
		if !set[schema.Index(k)] {
			return nil, fmt.Errorf("%s; %q is missing", accepted, k)
		}
	}
	return rows, nil
}

// checkRow refuses NULL where the table does not allow it and renders the
// row's partition; it runs on bound rows.
func (w *Write) checkRow(r WriteRow) (WriteRow, error) {
	schema := w.Table.Schema()
	for i, v := range r.bound {
		if v != nil {
			continue
		}
		col := schema.Columns[i]
		switch {
		case slices.Contains(schema.PrimaryKey, col.Name):
			return r, fmt.Errorf("column %q is part of the primary key and cannot be NULL", col.Name)
		case slices.Contains(w.Table.PartitionKeys(), col.Name):
			return r, fmt.Errorf("column %q is a partition key and cannot be NULL", col.Name)
		case !col.Type.Nullable() && (w.Mode == Append || w.Mode == Upsert):
			return r, fmt.Errorf("column %q is NOT NULL; got NULL", col.Name)
		case !col.Type.Nullable() && (w.Mode == PartialUpdate || w.Mode == Update) && slices.Contains(w.TargetColumns, i):
			return r, fmt.Errorf("column %q is NOT NULL; got NULL", col.Name)
		}
	}
	if keys := w.Table.PartitionKeys(); len(keys) > 0 {
		r.PartitionValues = make([]string, len(keys))
		for i, k := range keys {
			idx := schema.Index(k)
			s, err := partitionString(schema.Columns[idx].Type, r.bound[idx])
			if err != nil {
				return r, fmt.Errorf("partition key %q: %w", k, err)
			}
			r.PartitionValues[i] = s
		}
	}
	return r, nil
}

// CheckPartitions returns a *MissingPartitionError for the first row
// whose partition is not among parts (fetch them fresh before writing);
// nil when every partition exists or the table is not partitioned.
func (w *Write) CheckPartitions(parts []fluss.PartitionInfo) error {
	if !w.Table.IsPartitioned() {
		return nil
	}
	have := map[string]bool{}
	for _, p := range parts {
		have[p.Name] = true
	}
	schema := w.Table.Schema()
	for _, r := range w.Rows {
		if have[r.Partition()] {
			continue
		}
		keys := w.Table.PartitionKeys()
		lits := make([]string, len(keys))
		for i, k := range keys {
			lits[i] = partitionLiteral(r.Any()[schema.Index(k)])
		}
		return &MissingPartitionError{Path: w.Table.Path, Keys: keys, Values: r.PartitionValues,
			Statement: addPartitionStatement(w.Table.Path, keys, lits)}
	}
	return nil
}

// addPartitionStatement renders the ALTER TABLE … ADD PARTITION statement that creates a
// partition, from its keys and values as SQL literals. It is the one place that writes it.
func addPartitionStatement(path fluss.TablePath, keys, literals []string) string {
	spec := make([]string, len(keys))
	for i, k := range keys {
		spec[i] = parser.QuoteIdent(k) + " = " + literals[i]
	}
	return fmt.Sprintf("ALTER TABLE %s.%s ADD PARTITION (%s)",
		parser.QuoteIdent(path.Database), parser.QuoteIdent(path.Table), strings.Join(spec, ", "))
}

// MissingPartitionOf turns the wire client's error for a missing partition into the SQL
// layer's, which names the ALTER TABLE statement that creates it. The partition strings
// become string literals, which a PARTITION (…) clause converts back.
func MissingPartitionOf(e *fluss.PartitionNotExistError) *MissingPartitionError {
	lits := make([]string, len(e.Keys))
	for i := range e.Keys {
		v := ""
		if i < len(e.Values) {
			v = e.Values[i]
		}
		lits[i] = parser.QuoteString(v)
	}
	return &MissingPartitionError{Path: e.Table, Keys: e.Keys, Values: e.Values,
		Statement: addPartitionStatement(e.Table, e.Keys, lits), Waited: e.Waited}
}

// partitionLiteral renders a partition value as a string literal that a
// PARTITION (…) clause converts back to the same value.
func partitionLiteral(v any) string {
	switch x := v.(type) {
	case string:
		return parser.QuoteString(x)
	case []byte:
		return parser.QuoteString(string(x))
	}
	if e := sqlkind.OfValue(v); e != nil && e.Plain != nil { // DATE, TIME, TIMESTAMP[_LTZ], …
		return parser.QuoteString(e.Plain(v))
	}
	return parser.QuoteString(FormatValue(v))
}

// MissingPartitionError reports a write to a partition that does not
// exist and names the statement that creates it. It matches
// fluss.ErrPartitionNotExists with errors.Is.
type MissingPartitionError struct {
	Path fluss.TablePath
	// Keys are the partition keys and Values the partition's values as
	// Fluss partition strings.
	Keys, Values []string
	// Statement is the ALTER TABLE … ADD PARTITION statement to run.
	Statement string
	// Waited is how long the write waited for the partition (0: it did not).
	Waited time.Duration
}

// Error names the missing partition and the statement that creates it.
func (e *MissingPartitionError) Error() string {
	parts := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		parts[i] = k + "=" + e.Values[i]
	}
	wait := ""
	if e.Waited > 0 {
		wait = fmt.Sprintf(" (waited %s)", e.Waited)
	}
	return fmt.Sprintf("partition %s of %s does not exist%s; create it with: %s", strings.Join(parts, "/"), e.Path, wait, e.Statement)
}

// Unwrap makes the error match fluss.ErrPartitionNotExists.
func (e *MissingPartitionError) Unwrap() error { return fluss.ErrPartitionNotExists }
