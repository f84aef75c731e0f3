package flussql

import (
	"database/sql/driver"
	"io"
	"reflect"

	"github.com/flussql/flussql/internal/executor"
	"github.com/flussql/flussql/planner"
)

// rows adapts a statement's executor.Rows to database/sql: the column-type interfaces
// from the Fluss schema (coltypes.go), and, for a traced query, the count of rows and the
// trace's end once — at io.EOF, an error of Next, or Close.
type rows struct {
	rows executor.Rows
	cols []planner.ResultColumn
	// scratch receives a row from the executor (driver.Value and any are distinct slice
	// element types; copying a few interface words per row costs nothing measurable).
	scratch []any

	end  func(int64, error) // nil: not traced
	n    int64
	err  error
	done bool
}

var (
	_ driver.Rows                           = (*rows)(nil)
	_ driver.RowsColumnTypeScanType         = (*rows)(nil)
	_ driver.RowsColumnTypeDatabaseTypeName = (*rows)(nil)
	_ driver.RowsColumnTypeNullable         = (*rows)(nil)
	_ driver.RowsColumnTypeLength           = (*rows)(nil)
	_ driver.RowsColumnTypePrecisionScale   = (*rows)(nil)
)

// Columns returns the column names exactly as the select list wrote them.
func (r *rows) Columns() []string {
	names := make([]string, len(r.cols))
	for i, c := range r.cols {
		names[i] = c.Name
	}
	return names
}

// Next fills dest with the next row.
func (r *rows) Next(dest []driver.Value) error {
	if cap(r.scratch) < len(dest) {
		r.scratch = make([]any, len(dest))
	}
	row := r.scratch[:len(dest)]
	err := r.rows.Next(row)
	if err == nil {
		for i, v := range row {
			dest[i] = v
		}
		r.n++
		return nil
	}
	if err != io.EOF {
		err = boundErr(err)
		r.err = err
	}
	r.finish()
	return err
}

// Close stops the statement and releases its resources.
func (r *rows) Close() error {
	err := r.rows.Close()
	if r.err == nil {
		r.err = err
	}
	r.finish()
	return err
}

func (r *rows) finish() {
	if !r.done && r.end != nil {
		r.done = true
		r.end(r.n, r.err)
	}
}

// ColumnTypeScanType is the Go type the column scans into without loss.
func (r *rows) ColumnTypeScanType(i int) reflect.Type { return scanType(r.cols[i].Type) }

// ColumnTypeDatabaseTypeName is the Fluss type name, upper case, without parameters.
func (r *rows) ColumnTypeDatabaseTypeName(i int) string { return databaseTypeName(r.cols[i].Type) }

// ColumnTypeNullable reports the column's nullability from the Fluss schema.
func (r *rows) ColumnTypeNullable(i int) (bool, bool) { return r.cols[i].Type.Nullable(), true }

// ColumnTypeLength reports CHAR(n)/BINARY(n) lengths; STRING and BYTES are unbounded.
func (r *rows) ColumnTypeLength(i int) (int64, bool) { return typeLength(r.cols[i].Type) }

// ColumnTypePrecisionScale reports DECIMAL(p,s) and the precision of temporal types.
func (r *rows) ColumnTypePrecisionScale(i int) (int64, int64, bool) {
	return typePrecisionScale(r.cols[i].Type)
}
