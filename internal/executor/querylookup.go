package executor

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/planner"
)

// joinLooker serves an engine LookupJoin with the connection's Lookuper (or
// PrefixLookuper): the keys of one left batch go out as one LookupMany,
// which the wire client batches per bucket leader.
type joinLooker struct {
	c       *Session
	lt      *planner.LookupTable
	readers []func(a arrow.Array, i int) any
}

func (c *Session) lookers(q *planner.Query) ([]engine.Looker, error) {
	out := make([]engine.Looker, len(q.Lookups))
	for i, lt := range q.Lookups {
		l := &joinLooker{c: c, lt: lt}
		schema := lt.Table.Schema()
		for _, k := range lt.KeyCols {
			r, err := fluss.ArrowValueReader(schema.Columns[schema.Index(k)].Type)
			if err != nil {
				return nil, err
			}
			l.readers = append(l.readers, r)
		}
		out[i] = l
	}
	return out, nil
}

// Lookup implements engine.Looker.
func (l *joinLooker) Lookup(ctx context.Context, keys []arrow.Array) (arrow.RecordBatch, [][]int, error) {
	n := keys[0].Len()
	vals := make([][]any, n)
	for r := range n {
		vals[r] = make([]any, len(keys))
		for k, a := range keys {
			vals[r][k] = l.readers[k](a, r)
		}
	}
	rctx, cancel := l.c.ex.requestContext(ctx)
	defer cancel()
	var groups [][][]any
	if l.lt.Prefix {
		pl, err := l.c.prefixLookuper(l.lt.Table, l.lt.KeyCols)
		if err != nil {
			return nil, nil, err
		}
		if groups, err = pl.LookupMany(rctx, vals); err != nil {
			return nil, nil, err
		}
	} else {
		lk, err := l.c.lookuper(l.lt.Table)
		if err != nil {
			return nil, nil, err
		}
		rows, err := lk.LookupMany(rctx, vals)
		if err != nil {
			return nil, nil, err
		}
		groups = make([][][]any, len(rows))
		for i, r := range rows {
			if r != nil {
				groups[i] = [][]any{r}
			}
		}
	}
	if len(groups) != n {
		return nil, nil, fmt.Errorf("flussql: the lookup of %d keys in %s answered %d", n, l.lt.Table.Path, len(groups))
	}
	return rowsBatch(l.lt.Table.Schema().Columns, groups)
}

// rowsBatch puts the rows of every group into one batch and lists, per
// group, the indexes of its rows (nil batch when there are none).
func rowsBatch(cols []types.Column, groups [][][]any) (arrow.RecordBatch, [][]int, error) {
	idx := make([][]int, len(groups))
	total := 0
	for i, g := range groups {
		for range g {
			idx[i] = append(idx[i], total)
			total++
		}
	}
	if total == 0 {
		return nil, idx, nil
	}
	b, err := fluss.NewArrowRowBuilder(nil, cols)
	if err != nil {
		return nil, nil, err
	}
	defer b.Release()
	for _, g := range groups {
		for _, r := range g {
			if err := b.Append(r); err != nil {
				return nil, nil, err
			}
		}
	}
	return b.NewRecordBatch(), idx, nil
}
