package flussql

import (
	"strings"
	"sync"

	"github.com/flussql/flussql/fluss"
)

// maxCachedLookupers bounds the lookupers a Connector keeps; past it the cache starts over.
const maxCachedLookupers = 1024

// lookupKey identifies a cached lookuper: the table's id and schema, and for prefix
// lookups the looked-up columns.
type lookupKey struct {
	tableID  int64
	schemaID int32
	prefix   string
}

// lookuperCache holds the (prefix) lookupers of a Connector, made once per table schema
// and shared by its connections: a lookuper holds the key encoders, is safe for
// concurrent use, and merges concurrent single-key lookups into one request per leader.
type lookuperCache struct {
	mu sync.Mutex
	m  map[lookupKey]any
}

func (lc *lookuperCache) get(key lookupKey) any {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	return lc.m[key]
}

// store keeps l for key, unless another was stored meanwhile: that one is returned, so
// concurrent callers share one lookuper. Lookupers made for a schema the table has left
// (ALTER TABLE … ADD) are dropped.
func (lc *lookuperCache) store(key lookupKey, l any) any {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	if old, ok := lc.m[key]; ok {
		return old
	}
	if lc.m == nil || len(lc.m) >= maxCachedLookupers {
		lc.m = map[lookupKey]any{}
	}
	for k := range lc.m {
		if k.tableID == key.tableID && k.schemaID != key.schemaID {
			delete(lc.m, k)
		}
	}
	lc.m[key] = l
	return l
}

func (lc *lookuperCache) clear() {
	lc.mu.Lock()
	defer lc.mu.Unlock()
	lc.m = nil
}

// lookuper returns the connector's Lookuper for the table's current schema.
func (c *conn) lookuper(info *fluss.TableInfo) (*fluss.Lookuper, error) {
	key := lookupKey{tableID: info.TableID, schemaID: info.SchemaID}
	if lk, ok := c.connector.lookupers.get(key).(*fluss.Lookuper); ok {
		return lk, nil
	}
	tbl, err := c.client.TableOf(info)
	if err != nil {
		return nil, err
	}
	lk, err := tbl.NewLookuper()
	if err != nil {
		return nil, err
	}
	return c.connector.lookupers.store(key, lk).(*fluss.Lookuper), nil
}

// prefixLookuper returns the connector's PrefixLookuper for the table and columns.
func (c *conn) prefixLookuper(info *fluss.TableInfo, cols []string) (*fluss.PrefixLookuper, error) {
	key := lookupKey{tableID: info.TableID, schemaID: info.SchemaID, prefix: strings.Join(cols, "\x00")}
	if pl, ok := c.connector.lookupers.get(key).(*fluss.PrefixLookuper); ok {
		return pl, nil
	}
	tbl, err := c.client.TableOf(info)
	if err != nil {
		return nil, err
	}
	pl, err := tbl.NewPrefixLookuper(cols)
	if err != nil {
		return nil, err
	}
	return c.connector.lookupers.store(key, pl).(*fluss.PrefixLookuper), nil
}
