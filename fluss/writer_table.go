package fluss

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// Table is a handle on one table for writing and reading it: its definition
// as the server described it when the handle was made, and its Arrow schema
// (the shape of the batches AppendWriter takes and LogScanner returns). Get
// it with Client.Table. It is safe for concurrent use and holds no
// resources; writers and scanners made from it must be closed.
type Table struct {
	c      *Client
	info   *TableInfo
	schema *arrow.Schema
}

// Table returns a handle on the table at path, or ErrTableNotExist.
func (c *Client) Table(ctx context.Context, path TablePath) (*Table, error) {
	info, err := c.Admin().GetTableInfo(ctx, path)
	if err != nil {
		return nil, err
	}
	return c.TableOf(info)
}

// TableOf returns a handle on the table info describes (as returned by
// Admin.GetTableInfo), without asking the server.
func (c *Client) TableOf(info *TableInfo) (*Table, error) {
	if info == nil {
		return nil, fmt.Errorf("fluss: nil TableInfo")
	}
	schema, err := types.ToArrowSchema(info.Schema())
	if err != nil {
		return nil, fmt.Errorf("fluss: table %s: %w", info.Path, err)
	}
	return &Table{c: c, info: info, schema: schema}, nil
}

// Info returns the table's definition.
func (t *Table) Info() *TableInfo { return t.info }

// Path returns the table's path.
func (t *Table) Path() TablePath { return t.info.Path }

// ArrowSchema returns the Arrow schema of the table's rows: one field per
// column, in column order, with Fluss's Arrow types (see types.ArrowType).
func (t *Table) ArrowSchema() *arrow.Schema { return t.schema }

// numBuckets returns the bucket count of the table (of each partition).
func (t *Table) numBuckets(ctx context.Context) (int, error) {
	if n := t.info.NumBuckets(); n > 0 {
		return n, nil
	}
	if t.info.IsPartitioned() {
		return 0, fmt.Errorf("fluss: table %s reports no bucket count", t.info.Path)
	}
	tm, err := t.c.tableMetadata(ctx, t.info.Path)
	if err != nil {
		return 0, err
	}
	return len(tm.Buckets), nil
}
