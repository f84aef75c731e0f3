package logbatch

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Records is one decoded batch: its header, its rows as an Arrow record and
// the change type of every row.
type Records struct {
	// Header is the batch header (base offset, commit timestamp, schema id…).
	Header Header
	// Record holds the rows; its NumRows equals Header.RecordCount. It may
	// reference the bytes the batch was decoded from (uncompressed ARROW
	// buffers are not copied): keep them unmodified while Record is in use.
	Record arrow.RecordBatch
	// ChangeTypes has one entry per row, or is nil when the batch is
	// append-only (every row +A).
	ChangeTypes []ChangeType
}

// NumRows returns the number of rows.
func (r *Records) NumRows() int { return int(r.Header.RecordCount) }

// ChangeType returns the change type of row i.
func (r *Records) ChangeType(i int) ChangeType {
	if r.ChangeTypes == nil {
		return AppendOnly
	}
	return r.ChangeTypes[i]
}

// Offset returns the log offset of row i.
func (r *Records) Offset(i int) int64 { return r.Header.BaseOffset + int64(i) }

// Release releases the Arrow record. It is safe to call more than once.
func (r *Records) Release() {
	if r.Record != nil {
		r.Record.Release()
		r.Record = nil
	}
}

// changeTypes decodes the change-type vector of a non-append-only batch.
func decodeChangeTypes(b []byte, n int) ([]ChangeType, error) {
	if len(b) < n {
		return nil, errCorruptf("change-type vector needs %d bytes, batch has %d", n, len(b))
	}
	out := make([]ChangeType, n)
	for i, v := range b[:n] {
		c := ChangeType(int8(v))
		if !c.Valid() {
			return nil, errCorruptf("invalid change type byte %d at row %d", v, i)
		}
		out[i] = c
	}
	return out, nil
}
