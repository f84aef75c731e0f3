package executor

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/flussql/flussql/internal/flinkgw"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// FlinkOptions say how the executor reaches Flink, which runs what needs a streaming engine
// (planner.Flink plans): continuous queries, INSERT … SELECT jobs over unbounded scans,
// SHOW JOBS and STOP JOB.
type FlinkOptions struct {
	// Gateway is the URL of the Flink SQL gateway.
	Gateway string
	// Catalog is the name of the Fluss catalog in the gateway sessions; it is created
	// there (IF NOT EXISTS) with CatalogOptions.
	Catalog string
	// CatalogOptions are the catalog's WITH options ('type' = 'fluss', 'bootstrap.servers', …).
	CatalogOptions map[string]string
	// Properties are Flink options of the gateway sessions.
	Properties map[string]string
}

// flinkConn is a session's gateway session, opened at its first Flink statement: its
// current catalog is the Fluss catalog and its current database follows the session's.
type flinkConn struct {
	mu       sync.Mutex
	s        *flinkgw.Session
	database string // the gateway session's current database
}

// streamingMode runs a statement as a streaming job whatever the session's runtime mode.
var streamingMode = map[string]string{"execution.runtime-mode": "streaming"}

// flinkSession returns the session's gateway session, opened (catalog created and used)
// on first use, with database current in it.
func (c *Session) flinkSession(ctx context.Context, database string) (*flinkgw.Session, error) {
	fo := c.ex.opts.Flink
	if fo == nil || c.ex.gateway == nil {
		return nil, fmt.Errorf("flussql: no Flink SQL gateway: name one in the DSN (%s=http://host:port): %w", planner.FlinkGatewayKey, ErrNotSupported)
	}
	fc := &c.flink
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if fc.s == nil {
		s, err := c.ex.gateway.OpenSession(ctx, "flussql", fo.Properties)
		if err != nil {
			return nil, err
		}
		var opts []string
		for _, k := range slices.Sorted(maps.Keys(fo.CatalogOptions)) {
			opts = append(opts, parser.QuoteString(k)+" = "+parser.QuoteString(fo.CatalogOptions[k]))
		}
		cat := parser.QuoteIdent(fo.Catalog)
		for _, stmt := range []string{
			"CREATE CATALOG IF NOT EXISTS " + cat + " WITH (" + strings.Join(opts, ", ") + ")",
			"USE CATALOG " + cat,
		} {
			if _, err := runFlink(ctx, s, stmt); err != nil {
				_ = s.Close(context.WithoutCancel(ctx))
				return nil, err
			}
		}
		if err := checkCatalogCluster(ctx, s, cat, fo.CatalogOptions["bootstrap.servers"]); err != nil {
			_ = s.Close(context.WithoutCancel(ctx))
			return nil, err
		}
		fc.s, fc.database = s, ""
	}
	if database != "" && database != fc.database {
		if _, err := runFlink(ctx, fc.s, "USE "+parser.QuoteIdent(database)); err != nil {
			return nil, err
		}
		fc.database = database
	}
	return fc.s, nil
}

// checkCatalogCluster refuses a catalog the gateway already had for another Fluss cluster
// (CREATE CATALOG IF NOT EXISTS kept it; a gateway with a file catalog store keeps catalogs
// across restarts): its bootstrap servers must share an address with ours.
func checkCatalogCluster(ctx context.Context, s *flinkgw.Session, cat, bootstrap string) error {
	rows, err := runFlink(ctx, s, "DESCRIBE CATALOG EXTENDED "+cat)
	if err != nil {
		return err
	}
	for _, r := range rows {
		f := r.Strings("")
		if len(f) < 2 || f[0] != "option:bootstrap.servers" {
			continue
		}
		ours := strings.Split(bootstrap, ",")
		for _, addr := range strings.Split(f[1], ",") {
			if slices.Contains(ours, strings.TrimSpace(addr)) {
				return nil
			}
		}
		return fmt.Errorf("flussql: the Flink gateway's catalog %s reads the Fluss cluster at %s, not the DSN's %s: name another catalog in the DSN (flink_catalog=…), which flussql creates for the DSN's servers",
			cat, f[1], bootstrap)
	}
	return nil
}

// closeFlink closes the session's gateway session. Jobs it submitted keep running: a
// job's life is Flink's (STOP JOB ends it).
func (c *Session) closeFlink() {
	fc := &c.flink
	fc.mu.Lock()
	s := fc.s
	fc.s = nil
	fc.mu.Unlock()
	if s != nil {
		ctx, cancel := context.WithTimeout(context.Background(), flinkCloseTimeout)
		defer cancel()
		_ = s.Close(ctx)
	}
}

// forgetFlink drops a gateway session the gateway no longer knows (expired after its idle
// timeout), so that the next statement opens a new one.
func (c *Session) forgetFlink(err error) bool {
	var ge *flinkgw.Error
	if !errors.As(err, &ge) || !strings.Contains(ge.Cause(), "does not exist") || !strings.Contains(strings.ToLower(ge.Cause()), "session") {
		return false
	}
	c.flink.mu.Lock()
	c.flink.s = nil
	c.flink.mu.Unlock()
	return true
}

// runFlink runs one statement to its end and returns its rows; its operation is closed.
func runFlink(ctx context.Context, s *flinkgw.Session, stmt string) ([]flinkgw.Row, error) {
	op, err := s.Execute(ctx, stmt, nil)
	if err != nil {
		return nil, err
	}
	defer op.Close(context.WithoutCancel(ctx))
	rows, err := op.All(ctx)
	return rows, err
}

// flinkText is the text Flink runs for a plan: the statement in canonical form without
// flussql's own 'scan.bounded' option; UPSERT INTO is written INSERT INTO, which upserts
// into a primary-key table in Flink (Flink SQL has no UPSERT).
func flinkText(p *planner.Flink) (string, error) {
	st := p.Statement
	if ins, ok := st.(*parser.Insert); ok && ins.Upsert {
		cp := *ins
		cp.Upsert = false
		st = &cp
	}
	return parser.FlinkText(st.String(), planner.HintBounded)
}

// execute submits the plan's statement in the session's gateway session (opened, or
// opened again once if the gateway expired it).
func (c *Session) executeFlink(ctx context.Context, p *planner.Flink, config map[string]string) (*flinkgw.Operation, error) {
	text, err := flinkText(p)
	if err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		s, err := c.flinkSession(ctx, p.Database)
		if err != nil {
			if attempt == 0 && c.forgetFlink(err) {
				continue
			}
			return nil, err
		}
		op, err := s.Execute(ctx, text, config)
		if err != nil && attempt == 0 && c.forgetFlink(err) {
			continue
		}
		return op, err
	}
}
