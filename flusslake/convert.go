package flusslake

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
)

// toFluss returns the columns names of rec, found by name, in the Arrow types of out (the
// Fluss Arrow types of the requested columns): a lake's files may store a type otherwise
// (Iceberg's timestamps in microseconds, Paimon's TIMESTAMP(3) in milliseconds), and a cast
// brings it to Fluss's. format names the lake in the errors.
func toFluss(ctx context.Context, rec arrow.RecordBatch, names []string, out *arrow.Schema, format string) (arrow.RecordBatch, error) {
	cols := make([]arrow.Array, 0, len(names))
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	for i, name := range names {
		idx := rec.Schema().FieldIndices(name)
		if len(idx) == 0 {
			return nil, fmt.Errorf("flusslake: the %s data has no column %q", format, name)
		}
		in := rec.Column(idx[0])
		want := out.Field(i).Type
		if arrow.TypeEqual(in.DataType(), want) {
			in.Retain()
			cols = append(cols, in)
			continue
		}
		c, err := compute.CastArray(ctx, in, compute.UnsafeCastOptions(want))
		if err != nil {
			return nil, fmt.Errorf("flusslake: column %s: %s's %s does not convert to %s: %w", name, format, in.DataType(), want, err)
		}
		cols = append(cols, c)
	}
	return array.NewRecordBatch(out, cols, rec.NumRows()), nil
}
