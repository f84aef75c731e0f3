package logbatch

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// ArrowDecoder decodes ARROW log batches of one Arrow schema into [Records].
// Fluss batches carry no Arrow schema: the schema must be the table's (for
// the batch's schema id) or, for a projection-pushdown fetch, that of the
// projected columns in table order (types.ProjectedArrowSchema).
//
// Decoding uses arrow-go's IPC reader for the flatbuffer metadata, the
// buffer decompression (LZ4_FRAME and the -1 "stored raw" prefix; ZSTD
// bodies are decompressed ahead of it, see inlineZstdBody) and array
// construction; the decoder feeds it a cached schema
// message followed by the batch's lone RecordBatch message, without copying
// the batch. It then checks every array against its buffers, so a corrupt
// batch is an error rather than a later panic. It is not safe for concurrent
// use.
type ArrowDecoder struct {
	schema    *arrow.Schema
	mem       memory.Allocator
	limit     int    // the largest body or buffer decoding may allocate (WithMaxAllocation)
	schemaMsg []byte // serialized schema message metadata (flatbuffer)
	feed      *messageFeed
	rdr       *ipc.Reader
}

// NewArrowDecoder returns a decoder for batches whose rows have the given
// Arrow schema.
func NewArrowDecoder(schema *arrow.Schema, opts ...Option) (*ArrowDecoder, error) {
	if schema == nil {
		return nil, errors.New("logbatch: nil schema")
	}
	cfg := newConfig(opts)
	d := &ArrowDecoder{schema: schema, mem: &limitedAllocator{Allocator: cfg.mem, limit: cfg.maxAlloc}, limit: cfg.maxAlloc}
	// Serialize the schema once; every reader starts from this message.
	p := ipc.GetSchemaPayload(schema, cfg.mem)
	var buf bytes.Buffer
	_, err := p.WritePayload(&buf)
	p.Release()
	if err != nil {
		return nil, fmt.Errorf("logbatch: serialize schema: %w", err)
	}
	meta, _, err := splitMessage(buf.Bytes())
	if err != nil {
		return nil, err
	}
	d.schemaMsg = meta
	return d, nil
}

// Schema returns the Arrow schema of decoded records.
func (d *ArrowDecoder) Schema() *arrow.Schema { return d.schema }

// Decode decodes one ARROW batch. The caller must Release the result. The
// record may alias b.Data (see [Records.Record]).
func (d *ArrowDecoder) Decode(b Batch) (*Records, error) {
	recs := b.Records()
	n := int(b.RecordCount)
	out := &Records{Header: b.Header}
	if !b.AppendOnly() {
		cts, err := decodeChangeTypes(recs, n)
		if err != nil {
			return nil, err
		}
		out.ChangeTypes = cts
		recs = recs[n:]
	}
	if n == 0 {
		if len(recs) != 0 {
			return nil, errCorruptf("empty batch carries %d bytes of records", len(recs))
		}
		rec, err := emptyRecord(d.schema, d.mem)
		if err != nil {
			return nil, err
		}
		out.Record = rec
		return out, nil
	}
	rec, err := d.readMessage(recs)
	if err != nil {
		return nil, err
	}
	if rec.NumRows() != int64(n) {
		rec.Release()
		return nil, errCorruptf("arrow message has %d rows, batch header says %d", rec.NumRows(), n)
	}
	if err := validateRecord(rec); err != nil {
		rec.Release()
		return nil, err
	}
	out.Record = rec
	return out, nil
}

// readMessage decodes the Arrow IPC RecordBatch message that fills msg.
func (d *ArrowDecoder) readMessage(msg []byte) (rec arrow.RecordBatch, err error) {
	meta, body, err := splitMessage(msg)
	if err != nil {
		return nil, err
	}
	m, err := newMessage(meta, body, d.limit)
	if err != nil {
		return nil, err
	}
	if d.rdr == nil {
		d.feed = &messageFeed{schema: d.schemaMsg}
		r, err := ipc.NewReaderFromMessageReader(d.feed, ipc.WithSchema(d.schema), ipc.WithAllocator(d.mem))
		if err != nil {
			m.Release()
			d.feed = nil
			return nil, fmt.Errorf("logbatch: arrow reader: %w", err)
		}
		d.rdr = r
	}
	d.feed.push(m)
	rec, err = d.rdr.Read()
	if err != nil || rec == nil {
		// A failed ipc.Reader stays failed: build a new one next time.
		d.rdr.Release()
		d.rdr, d.feed = nil, nil
		if err == nil {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%w: arrow message: %v", ErrCorrupt, err)
	}
	rec.Retain() // the reader releases its reference on the next Read
	return rec, nil
}

// Close releases the decoder's reader.
func (d *ArrowDecoder) Close() {
	if d.rdr != nil {
		d.rdr.Release()
		d.rdr, d.feed = nil, nil
	}
}

// splitMessage splits an encapsulated Arrow IPC message (continuation marker,
// int32 metadata length, metadata, body) into metadata and the rest. The
// body length is taken from the metadata later; rest must hold at least it.
func splitMessage(b []byte) (meta, rest []byte, err error) {
	if len(b) < 8 {
		return nil, nil, errCorruptf("arrow message of %d bytes is too short", len(b))
	}
	if binary.LittleEndian.Uint32(b) != 0xFFFFFFFF {
		return nil, nil, errCorruptf("arrow message lacks the continuation marker")
	}
	n := int64(int32(binary.LittleEndian.Uint32(b[4:])))
	if n < 8 || n > int64(len(b)-8) {
		return nil, nil, errCorruptf("arrow metadata length %d out of range (message %d bytes)", n, len(b))
	}
	return b[8 : 8+n], b[8+n:], nil
}

// newMessage wraps metadata and body in an ipc.Message, checking the message
// type and that the body holds the declared body length. A body compressed with
// ZSTD is decompressed here, into a new body of at most limit bytes
// (inlineZstdBody).
func newMessage(meta, rest []byte, limit int) (m *ipc.Message, err error) {
	defer func() {
		if r := recover(); r != nil {
			if m != nil {
				m.Release()
			}
			m, err = nil, errCorruptf("arrow metadata: %v", r)
		}
	}()
	if err := checkMessageVectors(meta); err != nil {
		return nil, err
	}
	probe := ipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(nil))
	typ, bodyLen, version := probe.Type(), probe.BodyLen(), probe.Version()
	probe.Release()
	if typ != ipc.MessageRecordBatch {
		return nil, errCorruptf("arrow message type %v, want record batch", typ)
	}
	if version < ipc.MetadataV4 {
		return nil, errCorruptf("arrow metadata version %v not supported", version)
	}
	if bodyLen < 0 || bodyLen > int64(len(rest)) {
		return nil, errCorruptf("arrow body length %d exceeds the %d bytes left in the batch", bodyLen, len(rest))
	}
	meta, body, err := inlineZstdBody(meta, rest[:bodyLen], limit)
	if err != nil {
		return nil, err
	}
	return ipc.NewMessage(memory.NewBufferBytes(meta), memory.NewBufferBytes(body)), nil
}

// messageFeed is the ipc.MessageReader behind an ArrowDecoder: the schema
// message first, then each pushed record-batch message once.
type messageFeed struct {
	schema     []byte
	schemaSent bool
	next, cur  *ipc.Message
}

func (f *messageFeed) push(m *ipc.Message) {
	if f.next != nil {
		f.next.Release()
	}
	f.next = m
}

func (f *messageFeed) Message() (*ipc.Message, error) {
	if f.cur != nil {
		f.cur.Release()
		f.cur = nil
	}
	if !f.schemaSent {
		f.schemaSent = true
		f.cur = ipc.NewMessage(memory.NewBufferBytes(f.schema), memory.NewBufferBytes(nil))
		return f.cur, nil
	}
	if f.next == nil {
		return nil, io.EOF
	}
	f.cur, f.next = f.next, nil
	return f.cur, nil
}

func (f *messageFeed) Retain() {}

func (f *messageFeed) Release() {
	for _, m := range []*ipc.Message{f.cur, f.next} {
		if m != nil {
			m.Release()
		}
	}
	f.cur, f.next = nil, nil
}

// emptyRecord returns a record of schema with no rows.
func emptyRecord(schema *arrow.Schema, mem memory.Allocator) (rec arrow.RecordBatch, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("logbatch: empty record: %v", r)
		}
	}()
	cols := make([]arrow.Array, schema.NumFields())
	for i, f := range schema.Fields() {
		cols[i] = array.MakeArrayOfNull(mem, f.Type, 0)
	}
	rec = array.NewRecordBatch(schema, cols, 0)
	for _, c := range cols {
		c.Release()
	}
	return rec, nil
}
