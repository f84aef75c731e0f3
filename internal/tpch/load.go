package tpch

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"strings"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ArrowSchema is the Arrow schema of t as Fluss has it (all columns nullable).
func (t Table) ArrowSchema() *arrow.Schema {
	fields := make([]arrow.Field, len(t.Columns))
	for i, c := range t.Columns {
		var typ arrow.DataType
		switch c.Kind {
		case Int:
			typ = arrow.PrimitiveTypes.Int32
		case BigInt:
			typ = arrow.PrimitiveTypes.Int64
		case Money:
			typ = &arrow.Decimal128Type{Precision: 15, Scale: 2}
		case Date:
			typ = arrow.FixedWidthTypes.Date32
		default:
			typ = arrow.BinaryTypes.String
		}
		fields[i] = arrow.Field{Name: c.Name, Type: typ, Nullable: true}
	}
	return arrow.NewSchema(fields, nil)
}

// ArrowReader returns the rows of t as Arrow record batches of batchRows rows, for
// flussql.ArrowConn.AppendArrowReader. Release it when done.
func (g *Generator) ArrowReader(t Table, batchRows int) array.RecordReader {
	next, stop := iter.Pull(g.Rows(t.Name))
	return &arrowReader{t: t, schema: t.ArrowSchema(), next: next, stop: stop, batch: batchRows, refs: 1}
}

type arrowReader struct {
	t      Table
	schema *arrow.Schema
	next   func() (Row, bool)
	stop   func()
	batch  int
	cur    arrow.RecordBatch
	refs   int64
	done   bool
}

func (r *arrowReader) Retain()                        { atomic.AddInt64(&r.refs, 1) }
func (r *arrowReader) Schema() *arrow.Schema          { return r.schema }
func (r *arrowReader) RecordBatch() arrow.RecordBatch { return r.cur }
func (r *arrowReader) Record() arrow.RecordBatch      { return r.cur }
func (r *arrowReader) Err() error                     { return nil }

func (r *arrowReader) Release() {
	if atomic.AddInt64(&r.refs, -1) == 0 {
		r.stop()
		if r.cur != nil {
			r.cur.Release()
			r.cur = nil
		}
	}
}

func (r *arrowReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.done {
		return false
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, r.schema)
	defer b.Release()
	n := 0
	for n < r.batch {
		row, ok := r.next()
		if !ok {
			r.done = true
			break
		}
		for i, c := range r.t.Columns {
			switch c.Kind {
			case Int:
				b.Field(i).(*array.Int32Builder).Append(int32(row[i].I))
			case BigInt:
				b.Field(i).(*array.Int64Builder).Append(row[i].I)
			case Money:
				b.Field(i).(*array.Decimal128Builder).Append(decimal128.FromI64(row[i].I))
			case Date:
				b.Field(i).(*array.Date32Builder).Append(arrow.Date32(row[i].I))
			default:
				b.Field(i).(*array.StringBuilder).Append(row[i].S)
			}
		}
		n++
	}
	if n == 0 {
		return false
	}
	r.cur = b.NewRecordBatch()
	return true
}

// LoadSQL creates the eight tables in a database/sql database of SQLite's dialect,
// inserts the rows with multi-row INSERTs of SQL literals (modernc.org/sqlite binds many
// parameters slowly) in one transaction per table and indexes the keys.
func (g *Generator) LoadSQL(ctx context.Context, db *sql.DB) error {
	const perInsert = 500
	for _, t := range Tables {
		if _, err := db.ExecContext(ctx, t.SQLiteDDL()); err != nil {
			return fmt.Errorf("tpch: creating %s: %w", t.Name, err)
		}
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		var b strings.Builder
		rows := 0
		flush := func() error {
			if rows == 0 {
				return nil
			}
			_, err := tx.ExecContext(ctx, b.String())
			b.Reset()
			rows = 0
			return err
		}
		for row := range g.Rows(t.Name) {
			if rows == 0 {
				b.WriteString("INSERT INTO " + t.Name + " VALUES ")
			} else {
				b.WriteString(", ")
			}
			writeLiterals(&b, t, row, "")
			if rows++; rows == perInsert {
				if err := flush(); err != nil {
					tx.Rollback()
					return fmt.Errorf("tpch: loading %s: %w", t.Name, err)
				}
			}
		}
		if err := flush(); err != nil {
			tx.Rollback()
			return fmt.Errorf("tpch: loading %s: %w", t.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	for _, ix := range sqliteIndexes {
		if _, err := db.ExecContext(ctx, ix); err != nil {
			return fmt.Errorf("tpch: %s: %w", ix, err)
		}
	}
	return nil
}

// sqliteIndexes are the keys the correlated subqueries of Q2, Q4, Q17, Q20, Q21 and Q22
// look rows up by: without them SQLite runs those as nested full scans (minutes at scale
// 0.01).
var sqliteIndexes = []string{
	`CREATE INDEX lineitem_order ON lineitem (l_orderkey)`,
	`CREATE INDEX lineitem_part_supp ON lineitem (l_partkey, l_suppkey)`,
	`CREATE INDEX orders_key ON orders (o_orderkey)`,
	`CREATE INDEX orders_cust ON orders (o_custkey)`,
	`CREATE INDEX partsupp_part ON partsupp (ps_partkey, ps_suppkey)`,
	`CREATE INDEX part_key ON part (p_partkey)`,
	`CREATE INDEX supplier_key ON supplier (s_suppkey)`,
	`CREATE INDEX customer_key ON customer (c_custkey)`,
	`ANALYZE`,
}
