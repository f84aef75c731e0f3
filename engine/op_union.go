package engine

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// unionOp passes the batches of its inputs in turn, on its own schema (the
// first input's names), closing each input once it ends.
type unionOp struct {
	ins    []Operator
	schema *arrow.Schema
}

func newUnion(ins []Operator, n *Union) (Operator, error) {
	schema, err := schemaOf(n.Columns())
	if err != nil {
		return nil, err
	}
	return &unionOp{ins: ins, schema: schema}, nil
}

func (u *unionOp) Next() (arrow.RecordBatch, error) {
	for len(u.ins) > 0 {
		b, err := u.ins[0].Next()
		if err == io.EOF {
			u.ins[0].Close()
			u.ins = u.ins[1:]
			continue
		}
		if err != nil {
			return nil, err
		}
		for i, c := range b.Columns() {
			if want := u.schema.Field(i).Type; !arrow.TypeEqual(c.DataType(), want) {
				b.Release()
				return nil, fmt.Errorf("engine: UNION ALL column %d is %s, want %s", i, c.DataType(), want)
			}
		}
		out := arrowRecord(u.schema, b.Columns(), b.NumRows())
		b.Release()
		return out, nil
	}
	return nil, io.EOF
}

func (u *unionOp) Close() {
	for _, in := range u.ins {
		in.Close()
	}
	u.ins = nil
}
