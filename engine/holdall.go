package engine

import (
	"io"

	"github.com/apache/arrow-go/v18/arrow"
)

// forEachBatch hands every batch of in to f until in ends, releasing each after f, checking
// the query's context between batches; then it closes in.
func forEachBatch(ec *evalCtx, in Operator, f func(arrow.RecordBatch) error) error {
	for {
		if err := ec.ctx.Err(); err != nil {
			return err
		}
		b, err := in.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		err = f(b)
		b.Release()
		if err != nil {
			return err
		}
	}
	in.Close()
	return nil
}

// holdAll reads in to its end and returns its rows as one batch with the columns cols (nil
// when it has no rows): the side a join holds. The batches' bytes are charged to budget
// under state as they arrive and added to *held, which the caller gives back when it closes.
func holdAll(ec *evalCtx, budget *Budget, in Operator, cols []Column, state string, held *int64) (arrow.RecordBatch, error) {
	var batches []arrow.RecordBatch
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	err := forEachBatch(ec, in, func(b arrow.RecordBatch) error {
		b.Retain()
		batches = append(batches, b)
		sz := batchBytes(b)
		*held += sz
		return budget.Grow(sz, state)
	})
	if err != nil || len(batches) == 0 {
		return nil, err
	}
	schema, err := schemaOf(cols)
	if err != nil {
		return nil, err
	}
	return concatBatches(ec.mem, schema, batches)
}
