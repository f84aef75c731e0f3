package fluss

import (
	"context"
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// Schema history. A table's schema gets a new id with every ADD COLUMN;
// data keeps the id it was written with (log batches in their header, KV
// values as a prefix). Readers decode such data with its own schema and map
// its columns to the schema they return by column id, as the Java client
// does (SchemaUtil.getIndexMapping): a column the data's schema lacks reads
// as NULL. Schemas never change once registered, so the client caches them
// per table id and schema id for its lifetime.

// firstSchemaID is the id of a table's schema at creation (the coordinator
// registers it as 1 and every ALTER TABLE adds one).
const firstSchemaID = 1

// schemaVersion is one registered schema of a table, with its column ids.
type schemaVersion struct {
	id     int16
	schema types.Schema
	colIDs []int32 // column id of each column, in column order
}

type schemaKey struct {
	tableID int64
	id      int16
}

// parseSchemaVersion reads a schema JSON (GetTableSchema, or the "schema"
// of a table JSON) with its column ids. Fluss writes ids on every column or
// on none; with none, the server numbers the columns 0, 1, 2, … in order.
func parseSchemaVersion(id int16, js []byte) (*schemaVersion, error) {
	sj, err := types.UnmarshalSchema(js)
	if err != nil {
		return nil, err
	}
	var ids struct {
		Columns []struct {
			ID *int32 `json:"id"`
		} `json:"columns"`
	}
	if err := json.Unmarshal(js, &ids); err != nil {
		return nil, fmt.Errorf("fluss: schema JSON: %w", err)
	}
	v := &schemaVersion{id: id, schema: sj.Schema, colIDs: make([]int32, len(sj.Schema.Columns))}
	withIDs := 0
	for i, c := range ids.Columns {
		if c.ID != nil {
			v.colIDs[i] = *c.ID
			withIDs++
		} else {
			v.colIDs[i] = int32(i)
		}
	}
	if withIDs != 0 && withIDs != len(ids.Columns) {
		return nil, fmt.Errorf("fluss: schema %d: %d of %d columns carry an id; Fluss sets all or none", id, withIDs, len(ids.Columns))
	}
	seen := make(map[int32]bool, len(v.colIDs))
	for i, cid := range v.colIDs {
		if seen[cid] {
			return nil, fmt.Errorf("fluss: schema %d: column %q repeats column id %d", id, v.schema.Columns[i].Name, cid)
		}
		seen[cid] = true
	}
	return v, nil
}

// tableSchema returns schema id of the table (tableID at path), from the
// cache or fetched with GET_TABLE_SCHEMA.
func (c *Client) tableSchema(ctx context.Context, path TablePath, tableID int64, id int16) (*schemaVersion, error) {
	key := schemaKey{tableID, id}
	c.meta.mu.RLock()
	v := c.meta.schemas[key]
	c.meta.mu.RUnlock()
	if v != nil {
		return v, nil
	}
	if id < 0 {
		return nil, fmt.Errorf("fluss: %s: invalid schema id %d", path, id)
	}
	if c.cfg.RequestTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cfg.RequestTimeout)
		defer cancel()
	}
	var resp protocol.GetTableSchemaResponse
	req := &protocol.GetTableSchemaRequest{TablePath: pbPath(path), SchemaId: proto.Int32(int32(id))}
	if err := c.callAnyServer(ctx, protocol.GetTableSchema, req, &resp); err != nil {
		return nil, fmt.Errorf("fluss: fetching schema %d of %s: %w", id, path, err)
	}
	if resp.GetSchemaId() != int32(id) {
		return nil, fmt.Errorf("fluss: asked for schema %d of %s, the server answered with schema %d", id, path, resp.GetSchemaId())
	}
	v, err := parseSchemaVersion(id, resp.GetSchemaJson())
	if err != nil {
		return nil, fmt.Errorf("fluss: schema %d of %s: %w", id, path, err)
	}
	c.meta.mu.Lock()
	c.meta.schemas[key] = v
	c.meta.mu.Unlock()
	return v, nil
}

// columnMapping maps columns of schema to (given by position in to) onto
// schema from: for each wanted column, its position in from, or -1 when
// from has no column with its id. A column present in both with different
// types (nullability aside) is an error: such data cannot be read as the
// wanted type.
func columnMapping(from, to *schemaVersion, wanted []int) ([]int, error) {
	pos := make(map[int32]int, len(from.colIDs))
	for i, id := range from.colIDs {
		pos[id] = i
	}
	out := make([]int, len(wanted))
	for i, w := range wanted {
		if w < 0 || w >= len(to.colIDs) {
			return nil, fmt.Errorf("fluss: column %d is not in schema %d", w, to.id)
		}
		j, ok := pos[to.colIDs[w]]
		if !ok {
			out[i] = -1
			continue
		}
		want, have := to.schema.Columns[w], from.schema.Columns[j]
		if !want.Type.AsNullable().Equal(have.Type.AsNullable()) {
			return nil, fmt.Errorf("fluss: column %q (id %d) is %s in schema %d but %s in schema %d",
				want.Name, to.colIDs[w], want.Type, to.id, have.Type, from.id)
		}
		out[i] = j
	}
	return out, nil
}

// positionsStable reports whether the columns at positions (of schema cur)
// sit at the same positions, with the same ids, in every older schema of
// the table. The server projects a log batch by position within the
// batch's own schema (FileLogProjection), so projection pushdown returns
// the wanted columns for old batches only then. It fetches the schemas from
// firstSchemaID up to cur.id-1 (once per client).
func (c *Client) positionsStable(ctx context.Context, path TablePath, tableID int64, cur *schemaVersion, positions []int) (bool, error) {
	for id := int16(firstSchemaID); id < cur.id; id++ {
		old, err := c.tableSchema(ctx, path, tableID, id)
		if err != nil {
			return false, err
		}
		for _, p := range positions {
			if p >= len(old.colIDs) || old.colIDs[p] != cur.colIDs[p] {
				return false, nil
			}
		}
	}
	return true, nil
}
