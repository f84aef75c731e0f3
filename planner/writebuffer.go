package planner

// WriteBuffer collects the rows of many executions of one write plan (a prepared INSERT run
// in a transaction) for one bound Write: the rows in fixed chunks and their values in shared
// slabs, so that a buffered row costs its values, not a bound plan of its own, and a growing
// buffer copies nothing.
type WriteBuffer struct {
	plan   *Write // unbound
	chunks [][]WriteRow
	rows   int
	slab   []any // where the next rows' values go
}

// bufferChunk is how many rows one chunk of a WriteBuffer holds, and how many rows' values
// one slab holds.
const bufferChunk = 1024

// NewWriteBuffer returns an empty buffer for the write plan p (as Build returns it).
func NewWriteBuffer(p *Write) *WriteBuffer { return &WriteBuffer{plan: p} }

// Plan returns the plan the buffer binds.
func (b *WriteBuffer) Plan() *Write { return b.plan }

// Len returns the number of rows added.
func (b *WriteBuffer) Len() int { return b.rows }

// Writes returns the rows added so far as bound writes of the plan, in order: one per
// chunk, so that nothing is copied.
func (b *WriteBuffer) Writes() []*Write {
	out := make([]*Write, 0, len(b.chunks))
	for _, c := range b.chunks {
		if len(c) == 0 { // a failed Add's
			continue
		}
		w := *b.plan
		w.bound = true
		w.Rows = c
		out = append(out, &w)
	}
	return out
}

// Add binds the plan's rows with args, as Bind does, and appends them. It returns the rows
// added (read-only); on error it adds none.
func (b *WriteBuffer) Add(args []Arg) ([]WriteRow, error) {
	p := b.plan
	bd := binder{args: args, names: p.Params.Names, loc: p.Location}
	if err := bd.checkCount(p.Params); err != nil {
		return nil, err
	}
	if len(b.chunks) == 0 || len(b.chunks[len(b.chunks)-1])+len(p.Rows) > bufferChunk {
		b.chunks = append(b.chunks, make([]WriteRow, 0, max(bufferChunk, len(p.Rows))))
	}
	last := &b.chunks[len(b.chunks)-1]
	start := len(*last)
	for i := range p.Rows {
		r := &p.Rows[i]
		if r.Values == nil { // bound by Build (no placeholders): immutable, shared
			*last = append(*last, *r)
			continue
		}
		n := len(r.Values)
		if len(b.slab) < n {
			b.slab = make([]any, n*bufferChunk)
		}
		row, err := p.bindRow(&bd, r, b.slab[:n:n])
		if err != nil {
			clear(b.slab[:n])
			clear((*last)[start:])
			*last = (*last)[:start]
			return nil, rowError(len(p.Rows), i, err)
		}
		b.slab = b.slab[n:]
		*last = append(*last, row)
	}
	b.rows += len(*last) - start
	return (*last)[start:len(*last):len(*last)], nil
}
