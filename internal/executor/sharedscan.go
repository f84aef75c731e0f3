package executor

import (
	"context"
	"errors"
	"io"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/planner"
)

// A query that reads one table several times (TPC-H Q17, Q18 and Q21 read lineitem in a
// subquery and again in the outer query; a WITH referred to twice reads its tables twice)
// reads it once: its bounded scans that differ only in the columns they read become one
// scan of the union of those columns, whose batches each reader sees projected to its own
// columns. The readers of a query run one after another (a hash join reads its build side
// to the end before its probe side), so the batches the first reader pulls wait, held once,
// for the others; what they hold is counted in the query's memory budget. When the held
// batches would pass half the budget, the readers that have not started yet stop sharing
// and read the table themselves when their turn comes (a second read instead of a failed
// query), and the held batches are given back; a reader that has started and fallen that
// far behind fails the query with the budget's error. A reader the engine gave a
// prefilter (engine.Prefilterable: the probe side of a join whose index is built) is held
// only the rows that filter keeps (TPC-H Q17's outer lineitem: the rows of the few parts
// it joins), in batches of its own.

// openInputs opens the query's sources as engine inputs, the scans that read the same
// rows of a table as readers of one shared scan.
func (c *Session) openInputs(ctx context.Context, srcs []planner.QueryPlan, budget *engine.Budget) ([]engine.Operator, error) {
	inputs := make([]engine.Operator, len(srcs))
	fail := func(err error) ([]engine.Operator, error) {
		for _, in := range inputs {
			if in != nil {
				in.Close()
			}
		}
		return nil, err
	}
	for i, src := range srcs {
		if inputs[i] != nil {
			continue
		}
		group := []int{i}
		if scan, ok := src.(*planner.Scan); ok && !(scan.Partitioned && len(scan.Partitions) == 0) {
			for j := i + 1; j < len(srcs); j++ {
				if other, ok := srcs[j].(*planner.Scan); ok && inputs[j] == nil && scan.SharesRead(other) {
					group = append(group, j)
				}
			}
		}
		if len(group) == 1 {
			in, err := c.queryInput(ctx, src, budget)
			if err != nil {
				return fail(err)
			}
			inputs[i] = in
			continue
		}
		readers := make([]*planner.Scan, len(group))
		for k, j := range group {
			readers[k] = srcs[j].(*planner.Scan)
		}
		users, err := c.openShared(ctx, readers, budget)
		if err != nil {
			return fail(err)
		}
		for k, j := range group {
			inputs[j] = users[k]
		}
	}
	return inputs, nil
}

// openShared opens one scan of the union of the readers' columns and returns one engine
// input per reader.
func (c *Session) openShared(ctx context.Context, readers []*planner.Scan, budget *engine.Budget) ([]*sharedUser, error) {
	var union []int
	for _, r := range readers {
		for _, col := range r.Projection {
			if !slices.Contains(union, col) {
				union = append(union, col)
			}
		}
	}
	slices.Sort(union)
	whole := *readers[0]
	whole.Projection = union
	whole.Output = planner.Output{Limit: -1}
	schema := whole.Table.Schema()
	for _, col := range union {
		whole.Output.Columns = append(whole.Output.Columns, planner.OutputColumn{
			Name: schema.Columns[col].Name, Type: schema.Columns[col].Type, Slot: len(whole.Output.Columns)})
	}
	in, err := c.queryInput(ctx, &whole, budget)
	if err != nil {
		return nil, err
	}
	s := newSharedScan(in, budget, "shared scan of "+whole.Table.Path.String())
	s.ctx = ctx
	users := make([]*sharedUser, len(readers))
	for k, r := range readers {
		cols := make([]int, len(r.Projection))
		for i, col := range r.Projection {
			cols[i] = slices.Index(union, col)
		}
		users[k] = s.reader(cols, func() (engine.Operator, error) { return c.queryInput(s.ctx, r, budget) })
	}
	return users, nil
}

// newSharedScan returns the shared scan of src, whose held batches count in budget as
// the operator name.
func newSharedScan(src engine.Operator, budget *engine.Budget, name string) *sharedScan {
	s := &sharedScan{src: src, budget: budget, name: name}
	if budget != nil && budget.Limit > 0 {
		s.limit = budget.Limit / 2
	}
	return s
}

// reader adds a reader of the columns at positions cols of src's batches; open opens its
// own read of them, for when it stops sharing.
func (s *sharedScan) reader(cols []int, open func() (engine.Operator, error)) *sharedUser {
	u := &sharedUser{s: s, cols: cols, open: open}
	s.users = append(s.users, u)
	return u
}

// sharedScan is one scan read by several engine inputs.
type sharedScan struct {
	ctx    context.Context // the context own reads open under; the ArrowReader sets each Next's
	src    engine.Operator
	budget *engine.Budget
	name   string
	limit  int64 // the bytes held batches may take before readers that have not started stop sharing; 0: no bound
	held   int64 // the bytes of the batches held for readers behind
	users  []*sharedUser
	ended  bool
	closed bool
}

// heldBatch is a batch of the shared scan that readers behind have yet to read.
type heldBatch struct {
	rec     arrow.RecordBatch
	size    int64
	waiting int  // the readers whose queues hold it
	own     bool // rec is one reader's, projected and prefiltered
}

// sharedUser is one reader of a shared scan: an engine input.
type sharedUser struct {
	s       *sharedScan
	open    func() (engine.Operator, error) // opens its own read, for when it stops sharing
	cols    []int                           // its columns' positions in the shared scan's batches
	schema  *arrow.Schema
	queue   []*heldBatch
	started bool
	closed  bool
	alone   bool            // it stopped sharing: it reads own
	own     engine.Operator // its own scan, opened at its first Next after it stopped sharing
	// keep, when the engine set it, returns the rows of a batch of the reader's columns
	// that its reader keeps: what is held for it.
	keep func(arrow.RecordBatch) (arrow.RecordBatch, error)
}

// Prefilter implements engine.Prefilterable: the batches held for u from now on are
// those keep returns.
func (u *sharedUser) Prefilter(keep func(arrow.RecordBatch) (arrow.RecordBatch, error)) {
	u.keep = keep
}

// setContext sets the context of the reads that follow (an ArrowReader's Next).
func (s *sharedScan) setContext(ctx context.Context) {
	s.ctx = ctx
	if src, ok := s.src.(*scanInput); ok {
		src.rows.ctx = ctx
	}
	for _, u := range s.users {
		if own, ok := u.own.(*scanInput); ok {
			own.rows.ctx = ctx
		}
	}
}

func (u *sharedUser) Next() (arrow.RecordBatch, error) {
	if u.closed {
		return nil, io.EOF
	}
	s := u.s
	if u.alone {
		if u.own == nil {
			own, err := u.open()
			if err != nil {
				return nil, err
			}
			u.own = own
		}
		return u.own.Next()
	}
	u.started = true
	if len(u.queue) > 0 {
		h := u.queue[0]
		u.queue[0] = nil
		u.queue = u.queue[1:]
		var out arrow.RecordBatch
		if h.own {
			out = h.rec
			out.Retain()
		} else {
			out = u.project(h.rec)
		}
		s.let(h)
		return out, nil
	}
	if s.ended {
		return nil, io.EOF
	}
	rec, err := s.src.Next()
	if errors.Is(err, io.EOF) {
		s.ended = true
		s.closeSource()
		return nil, io.EOF
	}
	if err != nil {
		return nil, err
	}
	if err := s.hold(u, rec); err != nil {
		rec.Release()
		return nil, err
	}
	out := u.project(rec)
	rec.Release()
	return out, nil
}

// hold queues rec for the readers other than u that share the scan and have not ended.
func (s *sharedScan) hold(u *sharedUser, rec arrow.RecordBatch) error {
	for _, o := range s.users {
		if o != u && !o.closed && !o.alone && o.keep != nil {
			if err := s.holdKept(o, rec); err != nil {
				return err
			}
		}
	}
	return s.holdWhole(u, rec)
}

// holdWhole queues rec for the readers other than u that share the scan, have not ended
// and hold whole batches.
func (s *sharedScan) holdWhole(u *sharedUser, rec arrow.RecordBatch) error {
	var behind []*sharedUser
	for _, o := range s.users {
		if o != u && !o.closed && !o.alone && o.keep == nil {
			behind = append(behind, o)
		}
	}
	if len(behind) == 0 {
		return nil
	}
	size := recordBytes(rec)
	if s.limit > 0 && s.held+size > s.limit {
		s.part()
		return s.holdWhole(u, rec)
	}
	if err := s.budget.Grow(size, s.name); err != nil {
		s.budget.Shrink(size)
		if s.part() {
			return s.holdWhole(u, rec)
		}
		return err
	}
	s.held += size
	h := &heldBatch{rec: rec, size: size, waiting: len(behind)}
	rec.Retain()
	for _, o := range behind {
		o.queue = append(o.queue, h)
	}
	return nil
}

// holdKept queues for o the rows of rec its prefilter keeps, in a batch of its own.
func (s *sharedScan) holdKept(o *sharedUser, rec arrow.RecordBatch) error {
	p := o.project(rec)
	kept, err := o.keep(p)
	p.Release()
	if err != nil {
		return err
	}
	if kept.NumRows() == 0 {
		kept.Release()
		return nil
	}
	size := recordBytes(kept)
	if s.limit > 0 && s.held+size > s.limit && !o.started {
		s.part()
		kept.Release()
		return nil
	}
	if err := s.budget.Grow(size, s.name); err != nil {
		s.budget.Shrink(size)
		kept.Release()
		return err
	}
	s.held += size
	o.queue = append(o.queue, &heldBatch{rec: kept, size: size, waiting: 1, own: true})
	return nil
}

// part makes the readers that have not started read on their own, giving back what was
// held for them; it reports whether there was one. With none, the held batches may pass
// the bound only by the budget's measure.
func (s *sharedScan) part() bool {
	parted := false
	for _, o := range s.users {
		if !o.started && !o.closed && !o.alone {
			o.alone = true
			o.drop()
			parted = true
		}
	}
	if !parted {
		s.limit = 0
	}
	return parted
}

// let tells h that one more reader has read it.
func (s *sharedScan) let(h *heldBatch) {
	h.waiting--
	if h.waiting == 0 {
		s.held -= h.size
		s.budget.Shrink(h.size)
		h.rec.Release()
		h.rec = nil
	}
}

// drop lets go of the batches u has not read.
func (u *sharedUser) drop() {
	for _, h := range u.queue {
		u.s.let(h)
	}
	u.queue = nil
}

// project returns rec's columns u reads, as a batch of its own.
func (u *sharedUser) project(rec arrow.RecordBatch) arrow.RecordBatch {
	cols := make([]arrow.Array, len(u.cols))
	if u.schema == nil {
		fields := make([]arrow.Field, len(u.cols))
		for i, c := range u.cols {
			fields[i] = rec.Schema().Field(c)
		}
		u.schema = arrow.NewSchema(fields, nil)
	}
	for i, c := range u.cols {
		cols[i] = rec.Column(c)
	}
	return array.NewRecordBatch(u.schema, cols, rec.NumRows())
}

func (u *sharedUser) Close() {
	if u.closed {
		return
	}
	u.closed = true
	u.drop()
	if u.own != nil {
		u.own.Close()
	}
	s := u.s
	for _, o := range s.users {
		if !o.closed && !o.alone {
			return
		}
	}
	s.closeSource()
}

func (s *sharedScan) closeSource() {
	if !s.closed {
		s.closed = true
		s.src.Close()
	}
}

// recordBytes is the memory rec's buffers take.
func recordBytes(rec arrow.RecordBatch) int64 {
	var n int64
	for _, col := range rec.Columns() {
		n += dataBytes(col.Data())
	}
	return n
}

func dataBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, b := range d.Buffers() {
		if b != nil {
			n += int64(b.Len())
		}
	}
	for _, child := range d.Children() {
		n += dataBytes(child)
	}
	return n
}
