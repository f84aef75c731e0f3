package fluss

import (
	"errors"
	"fmt"
)

// ServerMaxRequestSize is the largest request a Fluss server takes by default
// (netty.server.max-request-size, 100 MiB, counting the frame's 4-byte length). A server
// closes the connection on a larger frame, so a row that cannot fit in one is refused
// before anything is sent: resending it would only reset connection after connection.
const ServerMaxRequestSize = 100 << 20

// ErrRecordTooLarge is matched by the error of a write whose row cannot fit in one request
// to a server (see RecordTooLargeError).
var ErrRecordTooLarge = errors.New("fluss: row too large for one request")

// RecordTooLargeError is a row refused by a writer before sending because, with the batch
// it joins, it cannot fit in one request the server accepts. Nothing of it was sent.
type RecordTooLargeError struct {
	Table string // the table's path
	Size  int    // the row's estimated encoded size in bytes
	Limit int    // the largest row the writer sends
}

func (e *RecordTooLargeError) Error() string {
	return fmt.Sprintf("fluss: write to %s: a row of %s cannot be sent: one request to a Fluss server carries at most %s "+
		"(the server's netty.server.max-request-size, 100 MiB by default), and a row may use %s of it; "+
		"store large values elsewhere and write a reference to them", e.Table, byteSize(e.Size), byteSize(ServerMaxRequestSize), byteSize(e.Limit))
}

// Is makes the error match ErrRecordTooLarge.
func (e *RecordTooLargeError) Is(target error) bool { return target == ErrRecordTooLarge }

// maxRowSize is the largest row a writer sends: a request holds the row's batch, which may
// already hold up to a batch size of other rows, plus the request's own headers.
func (c *writerConfig) maxRowSize() int {
	const headers = 64 << 10
	return ServerMaxRequestSize - c.batchSize - headers
}

// checkRowSize refuses a row of size bytes that cannot fit in a request.
func (w *writerCore) checkRowSize(table string, size int) error {
	if limit := w.cfg.maxRowSize(); size > limit {
		return &RecordTooLargeError{Table: table, Size: size, Limit: limit}
	}
	return nil
}

// byteSize renders a size in bytes for a message.
func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
