package executor

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/flinkgw"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/planner"
)

// A continuous query Flink runs streams back in changelog form, as t$changelog reads: the
// column _change_type first ('insert', 'update_before', 'update_after' or 'delete'), then
// the query's columns. Applied in order — insert and update_after add their row,
// update_before and delete remove it — the rows give the query's current result.

// flinkChangeType maps Flink's RowKind to the _change_type of $changelog.
func flinkChangeType(kind string) string {
	switch kind {
	case "INSERT":
		return "insert"
	case "UPDATE_BEFORE":
		return "update_before"
	case "UPDATE_AFTER":
		return "update_after"
	case "DELETE":
		return "delete"
	}
	return kind
}

// flinkRows stream a continuous query's changelog until Close, which stops its Flink job.
type flinkRows struct {
	baseRows
	ctx  context.Context
	op   *flinkgw.Operation
	conv *flinkConverter
	buf  []flinkgw.Row

	once     sync.Once
	closeErr error
}

// startFlinkQuery submits a continuous query and returns its rows once Flink knows the
// result's columns.
func (c *Session) startFlinkQuery(ctx context.Context, p *planner.Flink) (Rows, error) {
	op, err := c.executeFlink(ctx, p, streamingMode)
	if err != nil {
		return nil, err
	}
	rctx, cancel := c.ex.requestContext(ctx) // planning and submitting; the rows wait for as long as ctx lets them
	defer cancel()
	if err := op.Ready(rctx); err != nil {
		stopFlinkOperation(op)
		return nil, err
	}
	conv := newFlinkConverter(op.Columns)
	cols := append([]planner.ResultColumn{{Name: planner.ColChangeType, Type: types.NewString().AsNotNull()}}, conv.cols...)
	return &flinkRows{baseRows: baseRows{cols: cols}, ctx: ctx, op: op, conv: conv}, nil
}

// Next fills dest with the next change, waiting for Flink to produce one; a continuous
// query ends only when its context is done (or its job fails).
func (r *flinkRows) Next(dest []any) error {
	for len(r.buf) == 0 {
		if err := r.ctx.Err(); err != nil {
			return err
		}
		rows, err := r.op.Next(r.ctx)
		if err != nil {
			return err // io.EOF when the job ended, Flink's *Error when it failed
		}
		r.buf = rows
	}
	row := r.buf[0]
	r.buf = r.buf[1:]
	vals, err := r.conv.values(row)
	if err != nil {
		return err
	}
	dest[0] = flinkChangeType(row.Kind)
	copy(dest[1:], vals)
	return nil
}

// Close stops the query's Flink job.
func (r *flinkRows) Close() error {
	r.once.Do(func() { r.closeErr = stopFlinkOperation(r.op) })
	return r.closeErr
}

// stopFlinkOperation stops an operation and its job: Cancel while the gateway still runs
// the operation (planning, submitting), then Close, which stops a running query's job. A
// query's operation is FINISHED as soon as its job is submitted, when Cancel would fail
// ("Failed to convert the Operation Status from FINISHED to CANCELED"): it is not asked then.
func stopFlinkOperation(op *flinkgw.Operation) error {
	ctx, cancel := context.WithTimeout(context.Background(), flinkCloseTimeout)
	defer cancel()
	if st, err := op.Status(ctx); err == nil && (st == "INITIALIZED" || st == "PENDING" || st == "RUNNING") {
		_ = op.Cancel(ctx) // it may have finished meanwhile; Close below stops the job either way
	}
	return op.Close(ctx)
}

// flinkConverter turns Flink's PLAIN_TEXT fields into driver values of the columns' types:
// the scalar types flussql has read as their kind (INT as int32, DECIMAL as its string,
// DATE and TIMESTAMP as time.Time, …), any other type as Flink's text (STRING).
type flinkConverter struct {
	cols []planner.ResultColumn
}

func newFlinkConverter(cols []flinkgw.Column) *flinkConverter {
	c := &flinkConverter{cols: make([]planner.ResultColumn, len(cols))}
	for i, col := range cols {
		c.cols[i] = planner.ResultColumn{Name: col.Name, Type: flinkType(col.LogicalType)}
	}
	return c
}

// flinkType is the Fluss type of a Flink result column; STRING for the types whose text
// is passed on as it is.
func flinkType(lt flinkgw.LogicalType) types.DataType {
	var t types.DataType
	switch lt.Type {
	case "BOOLEAN":
		t = types.NewBoolean()
	case "TINYINT":
		t = types.NewTinyInt()
	case "SMALLINT":
		t = types.NewSmallInt()
	case "INTEGER":
		t = types.NewInt()
	case "BIGINT":
		t = types.NewBigInt()
	case "FLOAT":
		t = types.NewFloat()
	case "DOUBLE":
		t = types.NewDouble()
	case "DECIMAL":
		t = types.NewDecimal(lt.Precision, lt.Scale)
	case "CHAR":
		t = types.NewChar(lt.Length)
	case "DATE":
		t = types.NewDate()
	case "TIMESTAMP_WITHOUT_TIME_ZONE":
		t = types.NewTimestamp(lt.Precision)
	default: // VARCHAR, and what is passed on as Flink's text
		t = types.NewString()
	}
	if !lt.Nullable {
		t = t.AsNotNull()
	}
	return t
}

// values converts one row's fields.
func (c *flinkConverter) values(r flinkgw.Row) ([]any, error) {
	if len(r.Fields) != len(c.cols) {
		return nil, fmt.Errorf("flussql: Flink sent a row of %d fields for %d columns", len(r.Fields), len(c.cols))
	}
	out := make([]any, len(r.Fields))
	for i, f := range r.Fields {
		if f == nil {
			continue
		}
		col := c.cols[i]
		if col.Type.Kind == types.String {
			out[i] = *f
			continue
		}
		v, err := sqlkind.Of(col.Type.Kind).Text(col.Name, col.Type, *f, time.UTC)
		if err == nil {
			out[i], err = valueCell(col.Type, v)
		}
		if err != nil {
			return nil, fmt.Errorf("flussql: column %s of Flink's result: %w", col.Name, err)
		}
	}
	return out, nil
}
