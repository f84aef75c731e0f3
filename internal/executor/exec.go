package executor

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// plan builds and binds the plan of one statement against the shared catalog.
func (c *Session) plan(ctx context.Context, st parser.Statement, args []planner.Arg) (planner.Plan, error) {
	p, err := planner.Build(ctx, st, c.catalog, c.session())
	return c.finishPlan(ctx, st, args, p, err)
}

// finishPlan takes Build's answer for st (p, err) the rest of the way: a KV scan where a full
// scan is needed and the server offers one, the full-scan error otherwise, then Bind.
func (c *Session) finishPlan(ctx context.Context, st parser.Statement, args []planner.Arg, p planner.Plan, err error) (planner.Plan, error) {
	p, err = c.planKv(ctx, p, err, func(s planner.Session) (planner.Plan, error) { return planner.Build(ctx, st, c.catalog, s) })
	if errors.Is(err, planner.ErrNeedsFullScan) {
		return nil, c.fullScanError(ctx, err)
	}
	if err != nil {
		return nil, err
	}
	c.ex.notePlan(ctx, p)
	return planner.Bind(p, args)
}

// fullScanError says, for a query that needs a full scan of a primary-key table on a server
// without SCAN_KV (planKv plans it as a KV scan where the server offers one), what the
// connected server offers: a server older than Fluss 1.0 has no SCAN_KV
// (fluss.ErrUnsupportedByServer); a 1.0 server whose tablet servers did not list it gives
// ErrNotSupported. If the server's version cannot be found out, err stays as it is.
func (c *Session) fullScanError(ctx context.Context, err error) error {
	v, verr := c.client.ServerVersion(ctx)
	if verr != nil {
		return err
	}
	if !v.AtLeast(1, 0) {
		return fmt.Errorf("flussql: %w (the server speaks Fluss %s, which has no SCAN_KV: %w)", err, v, fluss.ErrUnsupportedByServer)
	}
	return fmt.Errorf("flussql: %w (the server speaks Fluss %s, but its tablet server did not offer SCAN_KV: %w)", err, v, ErrNotSupported)
}

// exec runs a statement for Exec. Statements that return rows are refused: use Query.
// The error of a write statement matches exactly one of ErrNotWritten,
// ErrPartiallyWritten and ErrOutcomeUnknown.
func (c *Session) exec(ctx context.Context, st parser.Statement, args []planner.Arg) (Result, error) {
	if isInsertSelect(st) {
		res, err := c.execInsertSelect(ctx, st, args)
		return res, writeOutcome(err)
	}
	res, err := c.execStatement(ctx, st, args)
	if isWrite(st) {
		err = writeOutcome(err)
	}
	return res, err
}

// isWrite reports whether st writes rows.
func isWrite(st parser.Statement) bool {
	switch st.(type) {
	case *parser.Insert, *parser.Delete, *parser.Update:
		return true
	}
	return false
}

func (c *Session) execStatement(ctx context.Context, st parser.Statement, args []planner.Arg) (Result, error) {
	ctx, cancel := c.ex.requestContext(ctx)
	defer cancel()
	p, err := c.plan(ctx, st, args)
	if err != nil {
		return Result{}, err
	}
	if cp, ok := p.(planner.CallPlan); ok {
		// A procedure's rows are a report (Flink answers "success"); Exec runs it and drops them.
		_, err := c.runCall(ctx, cp)
		return Result{}, err
	}
	if fp, ok := p.(*planner.Flink); ok {
		return c.execFlink(ctx, fp)
	}
	if _, ok := p.(planner.QueryPlan); ok {
		return Result{}, fmt.Errorf("flussql: %s returns rows; run it with Query", parser.StatementKind(st))
	}
	return c.execPlan(ctx, p)
}

// execPlan runs a plan that returns no rows.
func (c *Session) execPlan(ctx context.Context, p planner.Plan) (Result, error) {
	if res, ok, err := c.execACL(ctx, p); ok {
		return res, err
	}
	admin := c.client.Admin()
	switch p := p.(type) {
	case *planner.CreateDatabase:
		return noRows(ddlOutcome(admin.CreateDatabase(ctx, p.Name, p.Descriptor, p.IgnoreIfExists)))
	case *planner.DropDatabase:
		err := admin.DropDatabase(ctx, p.Name, p.IgnoreIfNotExists, p.Cascade)
		c.catalog.InvalidateAll()
		return noRows(ddlOutcome(err))
	case *planner.Use:
		ok, err := admin.DatabaseExists(ctx, p.Database)
		if err != nil {
			return Result{}, err
		}
		if !ok {
			return Result{}, fmt.Errorf("flussql: database %q does not exist: %w", p.Database, fluss.ErrDatabaseNotExist)
		}
		c.mu.Lock()
		c.database = p.Database
		c.mu.Unlock()
		return Result{}, nil
	case *planner.CreateTable:
		err := ddlOutcome(admin.CreateTable(ctx, p.Path, p.Descriptor, p.IgnoreIfExists))
		c.catalog.Invalidate(p.Path)
		return noRows(err)
	case *planner.DropTable:
		err := ddlOutcome(admin.DropTable(ctx, p.Path, p.IgnoreIfNotExists))
		c.catalog.Invalidate(p.Path)
		c.writers.dropTable(p.Path)
		return noRows(err)
	case *planner.AlterDatabase:
		return noRows(ddlOutcome(admin.AlterDatabase(ctx, p.Name, p.IgnoreIfNotExists, p.Changes()...)))
	case *planner.AlterTable:
		err := ddlOutcome(admin.AlterTable(ctx, p.Path, p.IgnoreIfNotExists, alterChanges(p)...))
		// The schema id changes with ADD: plans, writers and lookupers are keyed by it and
		// are made again from the new table metadata.
		c.catalog.Invalidate(p.Path)
		c.writers.dropTable(p.Path)
		return noRows(err)
	case *planner.AddPartition:
		err := ddlOutcome(admin.CreatePartition(ctx, p.Path, p.Spec, p.IgnoreIfExists))
		c.catalog.Invalidate(p.Path)
		return noRows(err)
	case *planner.DropPartition:
		err := ddlOutcome(admin.DropPartition(ctx, p.Path, p.Spec, p.IgnoreIfNotExists))
		c.catalog.Invalidate(p.Path)
		return noRows(err)
	case *planner.InsertSelect:
		if c.currentTx() != nil {
			return Result{}, fmt.Errorf("flussql: INSERT … SELECT in a transaction is %w; run it outside the transaction", ErrNotSupported)
		}
		return c.runInsertSelect(ctx, p)
	case *planner.Write:
		if err := c.checkPartitions(ctx, p); err != nil {
			return Result{}, writeOutcome(err)
		}
		c.mu.Lock()
		t := c.tx
		c.mu.Unlock()
		if t != nil {
			return t.add(p)
		}
		n, err := c.write(ctx, []*planner.Write{p})
		if err != nil {
			return Result{}, partitionHint(err)
		}
		return counted(int64(n)), nil
	}
	return Result{}, fmt.Errorf("flussql: executing %T is %w", p, ErrNotSupported)
}

func noRows(err error) (Result, error) {
	if err != nil {
		return Result{}, err
	}
	return Result{}, nil
}

// checkPartitions fails a write to a partition that does not exist before anything is
// sent, with the ALTER TABLE statement that creates it — unless the DSN enables
// partition auto-creation. A partition the catalog cache does not know yet is looked up
// once more on the server before the write fails.
func (c *Session) checkPartitions(ctx context.Context, w *planner.Write) error {
	if !w.Table.IsPartitioned() || c.ex.opts.PartitionAutoCreate {
		return nil
	}
	parts, err := c.catalog.Partitions(ctx, w.Table.Path)
	if err != nil {
		return err
	}
	if err := w.CheckPartitions(parts); err == nil {
		return nil
	}
	c.catalog.Invalidate(w.Table.Path)
	if parts, err = c.catalog.Partitions(ctx, w.Table.Path); err != nil {
		return err
	}
	if err := w.CheckPartitions(parts); err != nil {
		return partitionHint(err)
	}
	return nil
}

// partitionHint gives a missing-partition error, the planner's or the wire client's, the
// SQL that fixes it: the ALTER TABLE … ADD PARTITION statement and the DSN key. The original
// error stays in the chain (its write outcome included).
func partitionHint(err error) error {
	var mp *planner.MissingPartitionError
	if !errors.As(err, &mp) {
		var pne *fluss.PartitionNotExistError
		if !errors.As(err, &pne) {
			return err
		}
		mp = planner.MissingPartitionOf(pne)
	}
	return &partitionHintError{mp: mp, err: err}
}

// partitionHintError is a write error caused by a missing partition, told in SQL terms.
type partitionHintError struct {
	mp  *planner.MissingPartitionError
	err error
}

func (e *partitionHintError) Error() string {
	msg := "flussql: " + e.mp.Error() + " (or set partition_auto_create=true in the DSN)"
	if errors.Is(e.err, ErrPartiallyWritten) || errors.Is(e.err, ErrOutcomeUnknown) {
		msg += "; " + e.err.Error()
	}
	return msg
}

func (e *partitionHintError) Unwrap() []error { return []error{e.mp, e.err} }

// write sends the rows of the write plans and waits until the server acknowledged all
// of them; it returns the number of rows written. The rows are tracked by one receipt, so
// the outcome is theirs alone: nil, or an error that matches exactly one of
// ErrNotWritten, ErrPartiallyWritten and ErrOutcomeUnknown. When ctx ends first, rows not
// yet sent are withdrawn and rows in flight abandoned: nothing of the statement is sent
// after write returned.
func (c *Session) write(ctx context.Context, writes []*planner.Write) (int64, error) {
	r := fluss.NewReceipt()
	n, err := c.enqueue(ctx, r, writes)
	if err := settle(ctx, r, err); err != nil {
		return 0, err
	}
	return n, nil
}

// settle waits for the rows handed to writers under receipt r and returns the statement's
// outcome. enqueueErr is the error that stopped handing rows over (nil: all were): rows
// already handed over must not be sent after the statement failed, so they are withdrawn
// (unsent) or abandoned (in flight), and the error says which outcome that leaves.
func settle(ctx context.Context, r *fluss.Receipt, enqueueErr error) error {
	if enqueueErr == nil {
		return r.Wait(ctx)
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	werr := r.Wait(done)
	switch {
	case errors.Is(werr, ErrOutcomeUnknown):
		return fmt.Errorf("%w; of the statement's rows handed to the writer before that: %w", enqueueErr, werr)
	case r.Written() > 0:
		return fmt.Errorf("%w; %d rows of the statement were written before that: %w", enqueueErr, r.Written(), ErrPartiallyWritten)
	}
	return writeOutcome(enqueueErr)
}

// enqueue hands the rows of the write plans to the connection's writers under receipt r.
func (c *Session) enqueue(ctx context.Context, r *fluss.Receipt, writes []*planner.Write) (int64, error) {
	var n int64
	for _, w := range writes {
		switch w.Mode {
		case planner.Append:
			aw, err := c.appendWriter(ctx, w.Table)
			if err != nil {
				return 0, err
			}
			for _, row := range w.Rows {
				if err := aw.AppendWith(ctx, r, row.Any()); err != nil {
					return 0, err
				}
			}
			n += int64(len(w.Rows))
		case planner.Upsert, planner.PartialUpdate, planner.Delete, planner.Update:
			uw, err := c.upsertWriter(ctx, w)
			if err != nil {
				return 0, err
			}
			rows := w.Rows
			affected := int64(len(rows))
			switch w.Mode {
			case planner.Update:
				// SQL's UPDATE touches only existing rows; Fluss's partial update would
				// insert a missing key, so look the keys up first.
				if rows, err = c.existingRows(ctx, w); err != nil {
					return 0, err
				}
				affected = int64(len(rows))
			case planner.Delete:
				// Every key is deleted (a key written meanwhile is gone too), but the count
				// is of the keys that existed, as UPDATE's and SQL's: look them up first.
				existing, err := c.existingRows(ctx, w)
				if err != nil {
					return 0, err
				}
				affected = int64(len(existing))
			}
			for _, row := range rows {
				if w.Mode == planner.Delete {
					err = uw.DeleteWith(ctx, r, row.Any())
				} else {
					err = uw.UpsertWith(ctx, r, row.Any())
				}
				if err != nil {
					return 0, err
				}
			}
			n += affected
		default:
			return 0, fmt.Errorf("flussql: write mode %s is %w", w.Mode, ErrNotSupported)
		}
	}
	return n, nil
}

// existingRows keeps the rows of an UPDATE or DELETE whose key exists, once per key.
func (c *Session) existingRows(ctx context.Context, w *planner.Write) ([]planner.WriteRow, error) {
	lk, err := c.lookuper(w.Table)
	if err != nil {
		return nil, err
	}
	schema := w.Table.Schema()
	keys := make([][]any, len(w.Rows))
	for i, r := range w.Rows {
		vals := r.Any()
		for _, k := range schema.PrimaryKey {
			keys[i] = append(keys[i], vals[schema.Index(k)])
		}
	}
	found, err := lk.LookupMany(ctx, keys)
	if err != nil {
		return nil, err
	}
	// A key named twice (WHERE id IN (1, 1)) is one row.
	var out []planner.WriteRow
	seen := map[string]bool{}
	for i, f := range found {
		k := fmt.Sprintf("%#v", keys[i])
		if f != nil && !seen[k] {
			seen[k] = true
			out = append(out, w.Rows[i])
		}
	}
	return out, nil
}

// appendWriter returns the session's append writer for a log table.
func (c *Session) appendWriter(ctx context.Context, info *fluss.TableInfo) (*fluss.AppendWriter, error) {
	key := keyOf(info, "")
	if w, ok := c.writers.get(key); ok {
		return w.(*fluss.AppendWriter), nil
	}
	tbl, err := c.client.TableOf(info)
	if err != nil {
		return nil, err
	}
	aw, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: c.ex.opts.Writer})
	if err != nil {
		return nil, err
	}
	return c.writers.store(key, info.Path, aw).(*fluss.AppendWriter), nil
}

// upsertWriter returns the session's upsert writer for the shape of w.
func (c *Session) upsertWriter(ctx context.Context, w *planner.Write) (*fluss.UpsertWriter, error) {
	var targets []string
	// An UPDATE of every column writes whole rows: no partial update (which would need
	// every column outside the key to be nullable).
	if cols := w.Table.Schema().Columns; (w.Mode == planner.PartialUpdate || w.Mode == planner.Update) && len(w.TargetColumns) < len(cols) {
		for _, i := range w.TargetColumns {
			targets = append(targets, cols[i].Name)
		}
	}
	// "\x01" keeps the upsert writers apart from the append writer of the same table.
	key := keyOf(w.Table, "\x01"+strings.Join(targets, "\x00"))
	if cached, ok := c.writers.get(key); ok {
		return cached.(*fluss.UpsertWriter), nil
	}
	tbl, err := c.client.TableOf(w.Table)
	if err != nil {
		return nil, err
	}
	uw, err := tbl.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{WriterOptions: c.ex.opts.Writer, TargetColumns: slices.Clone(targets)})
	if err != nil {
		return nil, err
	}
	return c.writers.store(key, w.Table.Path, uw).(*fluss.UpsertWriter), nil
}

// closableWriter is what the session's writer cache holds: an append or upsert writer.
type closableWriter interface {
	Close(context.Context) error
}

// alterChanges lists the changes of an ALTER TABLE plan, properties in key order.
func alterChanges(p *planner.AlterTable) []fluss.TableChange {
	var out []fluss.TableChange
	for _, k := range slices.Sorted(maps.Keys(p.Set)) {
		out = append(out, fluss.SetTableProperty(k, p.Set[k]))
	}
	for _, k := range p.Reset {
		out = append(out, fluss.ResetTableProperty(k))
	}
	for _, col := range p.AddColumns {
		if agg, ok := p.AddAggFunctions[col.Name]; ok {
			out = append(out, fluss.AddAggColumn(col, agg))
			continue
		}
		out = append(out, fluss.AddColumn(col))
	}
	return out
}

// closeWriter closes a writer without waiting. Every statement has waited for its own rows
// before returning, so a writer holds at most batches whose statements gave up on them (and
// reported them not written or of unknown outcome): they are withdrawn or abandoned, not
// waited for. database/sql closes surplus connections inside the call that releases them
// (an Exec's), so a Close that waited for a frozen server would overrun that call's deadline.
func closeWriter(w closableWriter) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_ = w.Close(ctx)
}
