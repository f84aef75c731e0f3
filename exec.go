package flussql

import (
	"context"
	"database/sql/driver"
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
func (c *conn) plan(ctx context.Context, st parser.Statement, args []driver.NamedValue) (planner.Plan, error) {
	p, err := planner.Build(ctx, st, c.catalog, c.session())
	if err != nil {
		return nil, err
	}
	return planner.Bind(p, plannerArgs(args))
}

// exec runs a statement for Exec. Statements that return rows are refused: use Query.
func (c *conn) exec(ctx context.Context, st parser.Statement, args []driver.NamedValue) (driver.Result, error) {
	ctx, cancel := c.connector.requestContext(ctx)
	defer cancel()
	p, err := c.plan(ctx, st, args)
	if err != nil {
		return nil, err
	}
	if _, ok := p.(planner.QueryPlan); ok {
		return nil, fmt.Errorf("flussql: %s returns rows; run it with Query", statementKind(st))
	}
	return c.execPlan(ctx, p)
}

// statementKind names a statement for messages, e.g. "SELECT".
func statementKind(st parser.Statement) string {
	s := st.String()
	if i := strings.IndexAny(s, " \n"); i > 0 {
		return strings.ToUpper(s[:i])
	}
	return "the statement"
}

// execPlan runs a plan that returns no rows.
func (c *conn) execPlan(ctx context.Context, p planner.Plan) (driver.Result, error) {
	admin := c.client.Admin()
	switch p := p.(type) {
	case *planner.CreateDatabase:
		return noRows(admin.CreateDatabase(ctx, p.Name, p.Descriptor, p.IgnoreIfExists))
	case *planner.DropDatabase:
		err := admin.DropDatabase(ctx, p.Name, p.IgnoreIfNotExists, p.Cascade)
		c.catalog.InvalidateAll()
		return noRows(err)
	case *planner.Use:
		ok, err := admin.DatabaseExists(ctx, p.Database)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("flussql: database %q does not exist: %w", p.Database, fluss.ErrDatabaseNotExist)
		}
		c.mu.Lock()
		c.database = p.Database
		c.mu.Unlock()
		return driver.ResultNoRows, nil
	case *planner.CreateTable:
		err := admin.CreateTable(ctx, p.Path, p.Descriptor, p.IgnoreIfExists)
		c.catalog.Invalidate(p.Path)
		return noRows(err)
	case *planner.DropTable:
		err := admin.DropTable(ctx, p.Path, p.IgnoreIfNotExists)
		c.catalog.Invalidate(p.Path)
		c.dropWriters(p.Path)
		return noRows(err)
	case *planner.AlterTable:
		err := admin.AlterTable(ctx, p.Path, p.IgnoreIfNotExists, alterChanges(p)...)
		// The schema id changes with ADD: plans, writers and lookupers are keyed by it and
		// are made again from the new table metadata.
		c.catalog.Invalidate(p.Path)
		c.dropWriters(p.Path)
		return noRows(err)
	case *planner.AddPartition:
		err := admin.CreatePartition(ctx, p.Path, p.Spec, p.IgnoreIfExists)
		c.catalog.Invalidate(p.Path)
		return noRows(err)
	case *planner.DropPartition:
		err := admin.DropPartition(ctx, p.Path, p.Spec, p.IgnoreIfNotExists)
		c.catalog.Invalidate(p.Path)
		return noRows(err)
	case *planner.Write:
		if err := c.checkPartitions(ctx, p); err != nil {
			return nil, err
		}
		c.mu.Lock()
		t := c.tx
		c.mu.Unlock()
		if t != nil {
			return t.add(p)
		}
		n, err := c.write(ctx, []*planner.Write{p})
		if err != nil {
			return nil, err
		}
		return driver.RowsAffected(n), nil
	}
	return nil, fmt.Errorf("flussql: executing %T is %w", p, ErrNotSupported)
}

func noRows(err error) (driver.Result, error) {
	if err != nil {
		return nil, err
	}
	return driver.ResultNoRows, nil
}

// checkPartitions fails a write to a partition that does not exist before anything is
// sent, with the ALTER TABLE statement that creates it — unless the DSN enables
// partition auto-creation. A partition the catalog cache does not know yet is looked up
// once more on the server before the write fails.
func (c *conn) checkPartitions(ctx context.Context, w *planner.Write) error {
	if !w.Table.IsPartitioned() || c.connector.cfg.PartitionAutoCreate {
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
		var mp *planner.MissingPartitionError
		if errors.As(err, &mp) {
			return fmt.Errorf("flussql: %w (or set partition_auto_create=true in the DSN)", err)
		}
		return err
	}
	return nil
}

// write sends the rows of the write plans and waits until the server acknowledged all
// of them; it returns the number of rows written.
func (c *conn) write(ctx context.Context, writes []*planner.Write) (int64, error) {
	type flusher interface{ Flush(context.Context) error }
	var used []flusher
	var n int64
	for _, w := range writes {
		switch w.Mode {
		case planner.Append:
			aw, err := c.appendWriter(ctx, w.Table)
			if err != nil {
				return 0, err
			}
			for _, r := range w.Rows {
				if err := aw.Append(ctx, r.Any()); err != nil {
					return 0, err
				}
			}
			used = append(used, aw)
			n += int64(len(w.Rows))
		case planner.Upsert, planner.PartialUpdate, planner.Delete, planner.Update:
			uw, err := c.upsertWriter(ctx, w)
			if err != nil {
				return 0, err
			}
			rows := w.Rows
			if w.Mode == planner.Update {
				// SQL's UPDATE touches only existing rows; Fluss's partial update would
				// insert a missing key, so look the keys up first.
				if rows, err = c.existingRows(ctx, w); err != nil {
					return 0, err
				}
			}
			for _, r := range rows {
				if w.Mode == planner.Delete {
					err = uw.Delete(ctx, r.Any())
				} else {
					err = uw.Upsert(ctx, r.Any())
				}
				if err != nil {
					return 0, err
				}
			}
			used = append(used, uw)
			n += int64(len(rows))
		default:
			return 0, fmt.Errorf("flussql: write mode %s is %w", w.Mode, ErrNotSupported)
		}
	}
	for _, f := range used {
		if err := f.Flush(ctx); err != nil {
			return 0, err
		}
	}
	return n, nil
}

// existingRows keeps the rows of an UPDATE whose key exists.
func (c *conn) existingRows(ctx context.Context, w *planner.Write) ([]planner.WriteRow, error) {
	tbl, err := c.client.TableOf(w.Table)
	if err != nil {
		return nil, err
	}
	lk, err := tbl.NewLookuper()
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
	var out []planner.WriteRow
	for i, f := range found {
		if f != nil {
			out = append(out, w.Rows[i])
		}
	}
	return out, nil
}

// writerKey identifies a cached writer: the table's id and schema, and the write shape.
type writerKey struct {
	tableID  int64
	schemaID int32
	upsert   bool
	targets  string
}

func (c *conn) writerOptions() fluss.WriterOptions {
	cfg := c.connector.cfg
	return fluss.WriterOptions{
		BatchSize:               cfg.WriteBatchSize,
		Linger:                  cfg.WriteLinger,
		MissingPartitionTimeout: cfg.PartitionWait,
		AutoCreatePartitions:    cfg.PartitionAutoCreate,
	}
}

// appendWriter returns the connection's append writer for a log table.
func (c *conn) appendWriter(ctx context.Context, info *fluss.TableInfo) (*fluss.AppendWriter, error) {
	key := writerKey{tableID: info.TableID, schemaID: info.SchemaID}
	c.mu.Lock()
	w, ok := c.writers[key]
	c.mu.Unlock()
	if ok {
		return w.(*fluss.AppendWriter), nil
	}
	tbl, err := c.client.TableOf(info)
	if err != nil {
		return nil, err
	}
	aw, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: c.writerOptions()})
	if err != nil {
		return nil, err
	}
	c.storeWriter(key, info.Path, aw)
	return aw, nil
}

// upsertWriter returns the connection's upsert writer for the shape of w.
func (c *conn) upsertWriter(ctx context.Context, w *planner.Write) (*fluss.UpsertWriter, error) {
	var targets []string
	if w.Mode == planner.PartialUpdate || w.Mode == planner.Update {
		cols := w.Table.Schema().Columns
		for _, i := range w.TargetColumns {
			targets = append(targets, cols[i].Name)
		}
	}
	key := writerKey{tableID: w.Table.TableID, schemaID: w.Table.SchemaID, upsert: true, targets: strings.Join(targets, "\x00")}
	c.mu.Lock()
	cached, ok := c.writers[key]
	c.mu.Unlock()
	if ok {
		return cached.(*fluss.UpsertWriter), nil
	}
	tbl, err := c.client.TableOf(w.Table)
	if err != nil {
		return nil, err
	}
	uw, err := tbl.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{WriterOptions: c.writerOptions(), TargetColumns: slices.Clone(targets)})
	if err != nil {
		return nil, err
	}
	c.storeWriter(key, w.Table.Path, uw)
	return uw, nil
}

type closableWriter interface {
	Close(context.Context) error
}

func (c *conn) storeWriter(key writerKey, path fluss.TablePath, w closableWriter) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.writers == nil {
		c.writers = map[writerKey]closableWriter{}
		c.writerPaths = map[writerKey]fluss.TablePath{}
	}
	if old, ok := c.writers[key]; ok {
		go old.Close(context.Background())
	}
	c.writers[key] = w
	c.writerPaths[key] = path
}

// dropWriters closes the writers of a dropped table.
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
		out = append(out, fluss.AddColumn(col))
	}
	return out
}

func (c *conn) dropWriters(path fluss.TablePath) {
	c.mu.Lock()
	var closing []closableWriter
	for k, p := range c.writerPaths {
		if p == path {
			closing = append(closing, c.writers[k])
			delete(c.writers, k)
			delete(c.writerPaths, k)
		}
	}
	c.mu.Unlock()
	for _, w := range closing {
		_ = w.Close(context.Background())
	}
}

// closeWriters closes every writer of the connection.
func (c *conn) closeWriters() {
	c.mu.Lock()
	ws := c.writers
	c.writers, c.writerPaths = nil, nil
	c.mu.Unlock()
	for _, w := range ws {
		_ = w.Close(context.Background())
	}
}
