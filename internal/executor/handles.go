package executor

import (
	"sync"

	"github.com/flussql/flussql/fluss"
)

// handleKey identifies a cached table handle (writer or lookuper): the table's id and
// schema, and the handle's shape (the upsert's target columns, the prefix lookup's
// columns; "" for none).
type handleKey struct {
	tableID  int64
	schemaID int32
	shape    string
}

// keyOf is the key of a handle of the table's current schema.
func keyOf(info *fluss.TableInfo, shape string) handleKey {
	return handleKey{tableID: info.TableID, schemaID: info.SchemaID, shape: shape}
}

// handleCache keeps table handles of one type. Writers and lookupers follow the same
// rules: made once per table schema and shape, dropped when the table gets a new schema
// (ALTER TABLE … ADD makes a new schema id) or is dropped, and started over past max
// entries. Dropped handles are closed with close (nil: they hold nothing to close).
type handleCache[V any] struct {
	max   int
	close func(V)

	mu sync.Mutex
	m  map[handleKey]cachedHandle[V]
}

type cachedHandle[V any] struct {
	v    V
	path fluss.TablePath
}

// get returns the handle kept for key.
func (hc *handleCache[V]) get(key handleKey) (V, bool) {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	h, ok := hc.m[key]
	return h.v, ok
}

// store keeps v for key and returns it — unless another handle was stored for key
// meanwhile: that one is returned and v is closed, so concurrent callers share one handle.
// Handles of the table's other schema versions are dropped.
func (hc *handleCache[V]) store(key handleKey, path fluss.TablePath, v V) V {
	hc.mu.Lock()
	if old, ok := hc.m[key]; ok {
		hc.mu.Unlock()
		hc.closeAll([]V{v})
		return old.v
	}
	var dropped []V
	if hc.m == nil || (hc.max > 0 && len(hc.m) >= hc.max) {
		for _, h := range hc.m {
			dropped = append(dropped, h.v)
		}
		hc.m = map[handleKey]cachedHandle[V]{}
	}
	for k, h := range hc.m {
		if k.tableID == key.tableID && k.schemaID != key.schemaID {
			dropped = append(dropped, h.v)
			delete(hc.m, k)
		}
	}
	hc.m[key] = cachedHandle[V]{v: v, path: path}
	hc.mu.Unlock()
	hc.closeAll(dropped)
	return v
}

// dropTable drops (and closes) the handles of the table at path.
func (hc *handleCache[V]) dropTable(path fluss.TablePath) {
	hc.mu.Lock()
	var dropped []V
	for k, h := range hc.m {
		if h.path == path {
			dropped = append(dropped, h.v)
			delete(hc.m, k)
		}
	}
	hc.mu.Unlock()
	hc.closeAll(dropped)
}

// clear drops (and closes) every handle.
func (hc *handleCache[V]) clear() {
	hc.mu.Lock()
	var dropped []V
	for _, h := range hc.m {
		dropped = append(dropped, h.v)
	}
	hc.m = nil
	hc.mu.Unlock()
	hc.closeAll(dropped)
}

// len is the number of handles kept.
func (hc *handleCache[V]) len() int {
	hc.mu.Lock()
	defer hc.mu.Unlock()
	return len(hc.m)
}

func (hc *handleCache[V]) closeAll(vs []V) {
	if hc.close == nil {
		return
	}
	for _, v := range vs {
		hc.close(v)
	}
}
