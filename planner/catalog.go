package planner

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/flussql/flussql/fluss"
)

// Catalog gives the planner the table metadata it needs. Table returns an
// error matching fluss.ErrTableNotExist (errors.Is) for a missing table;
// Partitions returns the partitions of a partitioned table.
type Catalog interface {
	Table(ctx context.Context, path fluss.TablePath) (*fluss.TableInfo, error)
	Partitions(ctx context.Context, path fluss.TablePath) ([]fluss.PartitionInfo, error)
}

// adminAPI is the part of *fluss.Admin the AdminCatalog uses.
type adminAPI interface {
	GetTableInfo(ctx context.Context, path fluss.TablePath) (*fluss.TableInfo, error)
	ListPartitions(ctx context.Context, path fluss.TablePath, partial fluss.PartitionSpec) ([]fluss.PartitionInfo, error)
}

// AdminCatalog is a Catalog over fluss.Admin that caches table infos and
// partition lists for a time to live. It is safe for concurrent use. Call
// Invalidate after DDL on a table (or after an error that suggests the
// cache is stale, such as a missing partition).
//
// A partition list used in the time to live after its own is returned as it
// is while one refresh runs in the background: listing a table's partitions
// costs the server a ZooKeeper read per partition (about 250 ms for 1,000),
// which would otherwise stall a statement, and every statement that asked at
// that moment, once per time to live. Such a list is at most two times to
// live old; older ones are fetched again before they are used.
type AdminCatalog struct {
	admin adminAPI
	ttl   time.Duration
	now   func() time.Time

	mu     sync.Mutex
	tables map[fluss.TablePath]*cached[*fluss.TableInfo]
	parts  map[fluss.TablePath]*cached[[]fluss.PartitionInfo]
}

type cached[T any] struct {
	val        T
	expires    time.Time
	refreshing bool // a background refresh of the entry runs
}

// NewAdminCatalog returns a catalog that asks admin and keeps answers for
// ttl (0 disables caching).
func NewAdminCatalog(admin *fluss.Admin, ttl time.Duration) *AdminCatalog {
	return newAdminCatalog(admin, ttl, time.Now)
}

func newAdminCatalog(admin adminAPI, ttl time.Duration, now func() time.Time) *AdminCatalog {
	return &AdminCatalog{
		admin:  admin,
		ttl:    ttl,
		now:    now,
		tables: map[fluss.TablePath]*cached[*fluss.TableInfo]{},
		parts:  map[fluss.TablePath]*cached[[]fluss.PartitionInfo]{},
	}
}

// Table returns the table's info, from the cache while it is fresh.
func (c *AdminCatalog) Table(ctx context.Context, path fluss.TablePath) (*fluss.TableInfo, error) {
	return lookupCached(ctx, c, c.tables, path, false, func(ctx context.Context) (*fluss.TableInfo, error) {
		return c.admin.GetTableInfo(ctx, path)
	})
}

// Partitions returns the table's partitions, from the cache while fresh (see
// AdminCatalog for the refresh in the background).
func (c *AdminCatalog) Partitions(ctx context.Context, path fluss.TablePath) ([]fluss.PartitionInfo, error) {
	return lookupCached(ctx, c, c.parts, path, true, func(ctx context.Context) ([]fluss.PartitionInfo, error) {
		return c.admin.ListPartitions(ctx, path, nil)
	})
}

// Invalidate forgets what the catalog knows about the table.
func (c *AdminCatalog) Invalidate(path fluss.TablePath) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.tables, path)
	delete(c.parts, path)
}

// InvalidateAll empties the cache.
func (c *AdminCatalog) InvalidateAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	clear(c.tables)
	clear(c.parts)
}

// lookupCached returns m[path] while fresh, else calls fetch (without
// holding the lock) and caches a successful answer. Errors are not cached.
// With background, an entry in its second time to live is returned and
// refreshed by one background fetch.
func lookupCached[T any](ctx context.Context, c *AdminCatalog, m map[fluss.TablePath]*cached[T], path fluss.TablePath, background bool, fetch func(context.Context) (T, error)) (T, error) {
	c.mu.Lock()
	if e := m[path]; e != nil {
		now := c.now()
		if now.Before(e.expires) {
			c.mu.Unlock()
			return e.val, nil
		}
		if background && now.Before(e.expires.Add(c.ttl)) {
			if !e.refreshing {
				e.refreshing = true
				go refreshCached(c, m, path, e, fetch)
			}
			c.mu.Unlock()
			return e.val, nil
		}
	}
	c.mu.Unlock()
	v, err := fetch(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	if c.ttl > 0 {
		c.mu.Lock()
		m[path] = &cached[T]{val: v, expires: c.now().Add(c.ttl)}
		c.mu.Unlock()
	}
	return v, nil
}

// refreshCached fetches the entry e of m[path] again and replaces it, unless it was
// invalidated or replaced meanwhile. On error the entry stays as it is, to be refreshed
// again at its next use (or fetched by it, once too old). The fetch has the client's
// request timeout.
func refreshCached[T any](c *AdminCatalog, m map[fluss.TablePath]*cached[T], path fluss.TablePath, e *cached[T], fetch func(context.Context) (T, error)) {
	v, err := fetch(context.Background())
	c.mu.Lock()
	defer c.mu.Unlock()
	if m[path] != e {
		return
	}
	if err != nil {
		e.refreshing = false
		return
	}
	m[path] = &cached[T]{val: v, expires: c.now().Add(c.ttl)}
}

// errNoListing is returned by ListTables and ListDatabases when the
// catalog's admin cannot list names.
var errNoListing = errors.New("planner: the catalog cannot list names")

// ListDatabases lists the databases (not cached: it serves error messages).
func (c *AdminCatalog) ListDatabases(ctx context.Context) ([]string, error) {
	if l, ok := c.admin.(NameLister); ok {
		return l.ListDatabases(ctx)
	}
	return nil, errNoListing
}

// ListTables lists the tables of database (not cached: it serves error
// messages).
func (c *AdminCatalog) ListTables(ctx context.Context, database string) ([]string, error) {
	if l, ok := c.admin.(NameLister); ok {
		return l.ListTables(ctx, database)
	}
	return nil, errNoListing
}
