package fluss

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/internal/logbatch"
)

// Reading log batches of other schemas. After ALTER TABLE … ADD COLUMN the
// log holds batches of several schema ids: each batch is decoded with its
// own schema and its columns are mapped to the scanner's output by column
// id; output columns the batch's schema lacks are NULL. A handle obtained
// before the ALTER reads newer batches the same way (their extra columns
// are dropped).
//
// Projection pushdown: the 0.9 server projects every batch by column
// position within the batch's own schema (FileLogProjection), and fails
// the fetch with INVALID_COLUMN_PROJECTION when a position is beyond that
// schema's columns. So when the table has older schemas the scanner checks,
// before its first fetch, that the projected positions exist with the same
// column ids in every older schema; if not (a projection that includes an
// added column), it fetches whole batches and selects on the client.

// schemaViews holds the scanner's decoders for batches of other schema ids.
type schemaViews struct {
	mu      sync.Mutex
	checked bool // the pushdown check ran
	byID    map[viewKey]*schemaView
}

// viewKey names the decoders of one schema id for batches fetched with
// projection pushdown or whole (remote segments, or no pushdown).
type viewKey struct {
	id       int16
	pushdown bool
}

// schemaView decodes batches of one other schema id.
type schemaView struct {
	id     int16
	colMap []int // output column j is decoded column colMap[j], or NULL when -1
	decs   *decoderPool
}

func (v *schemaViews) close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	for _, sv := range v.byID {
		sv.decs.close()
	}
	v.byID = nil
}

// checkPushdown turns projection pushdown off when the table has older
// schemas in which the projected positions do not name the same columns.
// It runs once, before the scanner's first subscription takes effect (so
// before any fetch).
func (s *LogScanner) checkPushdown(ctx context.Context) error {
	s.views.mu.Lock()
	done := s.views.checked
	s.views.mu.Unlock()
	s.mu.Lock()
	p := s.proj
	s.mu.Unlock()
	if done || !p.pushdown || s.t.info.SchemaID <= firstSchemaID {
		s.views.mu.Lock()
		s.views.checked = true
		s.views.mu.Unlock()
		return nil
	}
	info := s.t.info
	cur, err := s.t.c.tableSchema(ctx, info.Path, info.TableID, int16(info.SchemaID))
	if err != nil {
		return err
	}
	stable, err := s.t.c.positionsStable(ctx, info.Path, info.TableID, cur, p.fetch)
	if err != nil {
		return err
	}
	s.views.mu.Lock()
	defer s.views.mu.Unlock()
	if s.views.checked {
		return nil
	}
	s.views.checked = true
	if stable {
		return nil
	}
	np, err := p.withoutPushdown()
	if err != nil {
		return err
	}
	s.mu.Lock()
	old := s.decs
	s.proj, s.decs = np, newDecoderPool(s.t, np, s.mem)
	s.mu.Unlock()
	old.close()
	return nil
}

// decodeOtherSchema decodes a batch written under another schema id into a
// record of the scanner's output schema.
func (s *LogScanner) decodeOtherSchema(ctx context.Context, p *projection, b logbatch.Batch) (*logbatch.Records, error) {
	v, err := s.schemaView(ctx, p, b.SchemaID)
	if err != nil {
		return nil, err
	}
	dec := v.decs.get()
	defer v.decs.put(dec)
	recs, err := dec.Decode(b)
	if err != nil {
		return nil, err
	}
	out := p.out
	n := recs.Record.NumRows()
	cols := make([]arrow.Array, len(v.colMap))
	for j, k := range v.colMap {
		if k >= 0 {
			cols[j] = recs.Record.Column(k)
			cols[j].Retain()
		} else {
			cols[j] = array.MakeArrayOfNull(s.mem, out.Field(j).Type, int(n))
		}
	}
	rec := array.NewRecordBatch(out, cols, n)
	for _, c := range cols {
		c.Release()
	}
	recs.Record.Release()
	recs.Record = rec
	return recs, nil
}

// schemaView returns the decoders for batches of schema id fetched as p
// says, building them (and fetching the schema) on first use.
func (s *LogScanner) schemaView(ctx context.Context, p *projection, id int16) (*schemaView, error) {
	key := viewKey{id: id, pushdown: p.pushdown}
	s.views.mu.Lock()
	v := s.views.byID[key]
	s.views.mu.Unlock()
	if v != nil {
		return v, nil
	}
	info := s.t.info
	cur, err := s.t.c.tableSchema(ctx, info.Path, info.TableID, int16(info.SchemaID))
	if err != nil {
		return nil, err
	}
	old, err := s.t.c.tableSchema(ctx, info.Path, info.TableID, id)
	if err != nil {
		return nil, err
	}
	v, err = newSchemaView(s, p, cur, old)
	if err != nil {
		return nil, err
	}
	s.views.mu.Lock()
	defer s.views.mu.Unlock()
	if s.views.byID == nil {
		s.views.byID = map[viewKey]*schemaView{}
	}
	if prev := s.views.byID[key]; prev != nil {
		v.decs.close()
		return prev, nil
	}
	s.views.byID[key] = v
	return v, nil
}

// newSchemaView plans decoding batches of schema old, fetched as p says,
// for a scanner whose table handle has schema cur.
func newSchemaView(s *LogScanner, p *projection, cur, old *schemaVersion) (*schemaView, error) {
	var cols []int // columns of old the batches hold: all, or the pushed-down positions
	if p.pushdown {
		cols = p.fetch
		for _, c := range cols {
			if c >= len(old.schema.Columns) {
				return nil, fmt.Errorf("fluss: batches of schema %d have %d columns; the pushed-down projection needs column %d",
					old.id, len(old.schema.Columns), c)
			}
		}
	}
	q, err := newProjection(old.schema, cols, p.format)
	if err != nil {
		return nil, err
	}
	m, err := columnMapping(old, cur, p.output)
	if err != nil {
		return nil, err
	}
	// q decodes the columns q.output of old, in that order.
	colMap := make([]int, len(m))
	for j, oi := range m {
		colMap[j] = -1
		if oi < 0 {
			continue
		}
		if colMap[j] = slices.Index(q.output, oi); colMap[j] < 0 {
			return nil, fmt.Errorf("fluss: column %q of schema %d was not fetched: the server projected other columns of that schema",
				old.schema.Columns[oi].Name, old.id)
		}
	}
	return &schemaView{id: old.id, colMap: colMap, decs: newDecoderPool(s.t, q, s.mem)}, nil
}
