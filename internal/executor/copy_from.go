package executor

import (
	"context"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// CopyArrowReader loads every record batch rdr yields into a table as one statement: a log
// table's rows are appended (AppendArrowReader), a primary-key table's upserted row by row
// (the latest row of a key wins, as UPSERT). It returns the rows acknowledged; a failure
// has one write outcome, as AppendArrowReader's.
func (c *Session) CopyArrowReader(ctx context.Context, table string, rdr array.RecordReader) (int64, error) {
	if rdr == nil {
		return 0, errors.New("flussql: CopyFrom needs a record reader")
	}
	name, err := parser.ParseTableName(table)
	if err != nil {
		return 0, writeOutcome(fmt.Errorf("flussql: CopyFrom's table %q: %w", table, err))
	}
	path := fluss.TablePath{Database: name.Database, Table: name.Name}
	if path.Database == "" {
		path.Database = c.Database()
	}
	rctx, cancel := c.ex.requestContext(ctx)
	info, err := c.catalog.Table(rctx, path)
	cancel()
	if err != nil {
		return 0, writeOutcome(err)
	}
	if !info.HasPrimaryKey() {
		return c.AppendArrowReader(ctx, table, rdr)
	}
	n, err := c.upsertArrowReader(ctx, info, rdr)
	return n, writeOutcome(err)
}

func (c *Session) upsertArrowReader(ctx context.Context, info *fluss.TableInfo, rdr array.RecordReader) (int64, error) {
	want, err := types.ToArrowSchema(info.Schema())
	if err != nil {
		return 0, err
	}
	colTypes := make([]types.DataType, len(info.Schema().Columns))
	for i, col := range info.Schema().Columns {
		colTypes[i] = col.Type
	}
	rctx, cancel := c.ex.requestContext(ctx)
	w, err := c.upsertWriter(rctx, &planner.Write{Table: info, Mode: planner.Upsert})
	cancel()
	if err != nil {
		return 0, err
	}
	r := fluss.NewReceipt()
	var n int64
	for err == nil && rdr.Next() {
		rec := rdr.RecordBatch()
		if err = matchSchema(rec.Schema(), want, info.Path); err != nil {
			break
		}
		rctx, cancel := c.ex.requestContext(ctx)
		for i := 0; i < int(rec.NumRows()) && err == nil; i++ {
			var vals []any
			if vals, err = fluss.RowValues(rec, colTypes, i); err == nil {
				err = w.UpsertWith(rctx, r, vals)
			}
			if err != nil {
				err = fmt.Errorf("flussql: row %d of the rows read: %w", n+int64(i)+1, err)
			}
		}
		cancel()
		if err == nil {
			n += rec.NumRows()
		}
	}
	return c.settleReader(ctx, r, rdr, "CopyFrom", n, err)
}

// matchSchema checks that a batch's columns are the table's, by name and Arrow type.
func matchSchema(got, want *arrow.Schema, path fluss.TablePath) error {
	if got.NumFields() != want.NumFields() {
		return fmt.Errorf("flussql: the batch has %d columns, table %s has %d", got.NumFields(), path, want.NumFields())
	}
	for i, f := range want.Fields() {
		g := got.Field(i)
		if g.Name != f.Name || !arrow.TypeEqual(g.Type, f.Type) {
			return fmt.Errorf("flussql: the batch's column %d is %s %s, table %s has %s %s", i+1, g.Name, g.Type, path, f.Name, f.Type)
		}
	}
	return nil
}
