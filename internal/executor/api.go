package executor

import (
	"context"
	"sync"

	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// The entry points of a session. Each statement's error is its own: a write's matches
// exactly one of ErrNotWritten, ErrPartiallyWritten and ErrOutcomeUnknown; a statement
// that fails in a transaction aborts it (later statements fail, Commit sends nothing).

// ExecText parses query (the parse is cached by its text) and runs it for Exec.
func (c *Session) ExecText(ctx context.Context, query string, args []planner.Arg) (Result, error) {
	if err := c.txAborted(); err != nil {
		return Result{}, err
	}
	e, err := c.parsed.entry(query)
	if err != nil {
		return Result{}, c.txFailed(err)
	}
	if isWrite(e.st) {
		if e.write == nil {
			e.write = &Prepared{sess: c, query: query, parsed: e.st, params: parser.Placeholders(e.st)}
		}
		return e.write.Exec(ctx, args)
	}
	res, err := c.exec(ctx, e.st, args)
	return res, c.txFailed(c.decorate(e.st, err))
}

// QueryText parses query (cached by its text, with its lookup plan) and runs it for
// Query. A statement that returns no rows is executed and answers with no rows, so tools
// that send everything through Query work.
func (c *Session) QueryText(ctx context.Context, query string, args []planner.Arg) (Rows, error) {
	e, err := c.parsed.entry(query)
	if err != nil {
		return nil, err
	}
	rows, err := c.queryWith(ctx, e.st, args, &e.plans)
	if err != nil {
		return nil, c.decorate(e.st, err)
	}
	return &decoratedRows{Rows: rows, decorate: func(err error) error { return c.decorate(e.st, err) }}, nil
}

// decorate applies Options.DecorateError to the error of statement st.
func (c *Session) decorate(st parser.Statement, err error) error {
	if err == nil || c.ex.opts.DecorateError == nil {
		return err
	}
	return c.ex.opts.DecorateError(st, c.Database(), err)
}

// decoratedRows give the errors of later fetches the same explanation.
type decoratedRows struct {
	Rows
	decorate func(error) error
}

func (r *decoratedRows) Next(dest []any) error {
	err := r.Rows.Next(dest)
	if err == nil {
		return nil
	}
	return r.decorate(err)
}

// Prepared is a parsed statement of a session. It is planned at each execution, so it
// sees schema and partition changes made after Prepare; the unbound plan of a write or a
// lookup is kept while the catalog returns the same table metadata, so that running it
// many times (the bulk path) binds arguments without planning again.
type Prepared struct {
	sess   *Session
	query  string
	parsed parser.Statement
	params parser.Params

	mu      sync.Mutex
	write   *planner.Write
	writeDB string
	plans   lookupPlanCache
}

// Prepare parses query. Parse errors carry line and column.
func (c *Session) Prepare(query string) (*Prepared, error) {
	st, err := parser.Parse(query)
	if err != nil {
		return nil, err
	}
	return &Prepared{sess: c, query: query, parsed: st, params: parser.Placeholders(st)}, nil
}

// Params describes the statement's placeholders.
func (p *Prepared) Params() parser.Params { return p.params }

// Exec runs the statement for Exec with args.
func (p *Prepared) Exec(ctx context.Context, args []planner.Arg) (Result, error) {
	c := p.sess
	if err := c.txAborted(); err != nil {
		return Result{}, err
	}
	if res, ok, err := p.execCached(ctx, args); ok {
		return res, c.txFailed(c.decorate(p.parsed, writeOutcome(err)))
	}
	res, err := c.exec(ctx, p.parsed, args)
	return res, c.txFailed(c.decorate(p.parsed, err))
}

// Query runs the statement for Query with args.
func (p *Prepared) Query(ctx context.Context, args []planner.Arg) (Rows, error) {
	rows, err := p.sess.queryWith(ctx, p.parsed, args, &p.plans)
	if err != nil {
		return nil, p.sess.decorate(p.parsed, err)
	}
	return &decoratedRows{Rows: rows, decorate: func(err error) error { return p.sess.decorate(p.parsed, err) }}, nil
}

// execCached runs a write through the cached plan; ok is false when there is none (yet),
// or when the table's metadata changed since it was planned.
func (p *Prepared) execCached(ctx context.Context, args []planner.Arg) (Result, bool, error) {
	if !isWrite(p.parsed) || isInsertSelect(p.parsed) {
		return Result{}, false, nil
	}
	c := p.sess
	t := c.currentTx()
	if t == nil {
		// In a transaction the write is only buffered (Commit sends it, under the
		// transaction's context); the catalog's and the partition check's requests get the
		// client's request timeout on their own. A timer per buffered row cost ~15 % of a
		// prepared INSERT's time.
		var cancel context.CancelFunc
		ctx, cancel = c.ex.requestContext(ctx)
		defer cancel()
	}
	db := c.Database()
	p.mu.Lock()
	w := p.write
	if p.writeDB != db {
		w = nil
	}
	p.mu.Unlock()
	if w != nil {
		if info, err := c.catalog.Table(ctx, w.Table.Path); err != nil || info != w.Table {
			w = nil
		}
	}
	if w == nil {
		built, err := planner.Build(ctx, p.parsed, c.catalog, c.session())
		if err != nil {
			return Result{}, true, err
		}
		bw, ok := built.(*planner.Write)
		if !ok {
			return Result{}, false, nil
		}
		w = bw
		p.mu.Lock()
		p.write, p.writeDB = w, db
		p.mu.Unlock()
	}
	c.ex.notePlan(ctx, w)
	if t != nil {
		res, err := t.bind(ctx, w, args)
		return res, true, err
	}
	bound, err := planner.Bind(w, args)
	if err != nil {
		return Result{}, true, err
	}
	res, err := c.execPlan(ctx, bound)
	return res, true, err
}
