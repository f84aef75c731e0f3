package executor

import (
	"context"
	"sync"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// lookupPlanCache keeps the unbound plan of a point or prefix lookup (SELECT … WHERE key =
// ?), so that running the same statement again binds the arguments without planning it
// again. The plan is used only while the catalog still returns the same table metadata
// (the same *fluss.TableInfo: a schema change, DDL through the connector or the catalog's
// refresh after its TTL make it plan again) and for the same current database.
type lookupPlanCache struct {
	mu    sync.Mutex
	plan  planner.Plan
	table *fluss.TableInfo
	db    string
}

// get returns the cached plan when it is still valid, else nil.
func (pc *lookupPlanCache) get(ctx context.Context, c *Session, db string) planner.Plan {
	if pc == nil {
		return nil
	}
	pc.mu.Lock()
	p, table, pdb := pc.plan, pc.table, pc.db
	pc.mu.Unlock()
	if p == nil || pdb != db {
		return nil
	}
	if info, err := c.catalog.Table(ctx, table.Path); err != nil || info != table {
		return nil
	}
	return p
}

// put keeps p when it is a lookup plan, and reports whether it did.
func (pc *lookupPlanCache) put(p planner.Plan, db string) bool {
	if pc == nil {
		return false
	}
	var table *fluss.TableInfo
	switch x := p.(type) {
	case *planner.Lookup:
		table = x.Table
	case *planner.PrefixLookup:
		table = x.Table
	default:
		return false
	}
	pc.mu.Lock()
	pc.plan, pc.table, pc.db = p, table, db
	pc.mu.Unlock()
	return true
}

// planCached plans st like plan, reusing the unbound lookup plan kept in pc (nil: none).
func (c *Session) planCached(ctx context.Context, st parser.Statement, args []planner.Arg, pc *lookupPlanCache) (planner.Plan, error) {
	if pc == nil {
		return c.plan(ctx, st, args)
	}
	sess := c.session()
	p := pc.get(ctx, c, sess.Database)
	if p == nil {
		built, err := planner.Build(ctx, st, c.catalog, sess)
		if err != nil || !pc.put(built, sess.Database) {
			// Not a lookup: finishPlan decides the rest (a KV scan where the server offers
			// one, the error as it words it).
			return c.finishPlan(ctx, st, args, built, err)
		}
		p = built
	}
	c.ex.notePlan(ctx, p)
	return planner.Bind(p, args)
}
