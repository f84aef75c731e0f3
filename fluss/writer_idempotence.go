package fluss

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// Idempotent writes (Fluss's IdempotenceManager, simplified): the writer
// asks the cluster for a writer id once (InitWriter, to any tablet server)
// and stamps every batch with it and a per-bucket sequence that starts at 0
// and grows by one per acknowledged batch. The bucket leader appends a
// batch only if its sequence follows the last one it has from that writer
// and answers a resend of one of the last five with the original result, so
// resending after a lost answer never duplicates rows. Only one batch per
// bucket is in flight. When a batch fails for good (its fate on the server
// unknown) or the server forgets the writer, the writer takes a new id and
// every bucket starts again from sequence 0.

// initWriter obtains a writer id from a tablet server.
func (w *writerCore) initWriter(ctx context.Context) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, w.cfg.timeout)
	defer cancel()
	req := &protocol.InitWriterRequest{TablePath: []*protocol.PbTablePath{pbPath(w.path)}}
	var resp protocol.InitWriterResponse
	if err := w.c.callAnyTablet(ctx, protocol.InitWriter, req, &resp); err != nil {
		return -1, fmt.Errorf("fluss: obtaining a writer id for %s: %w", w.path, err)
	}
	return resp.GetWriterId(), nil
}

func (w *writerCore) needsNewWriterID() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.newWriterID
}

// renewWriterID replaces the writer id after a failure left the sequence
// state of the old one unknown.
func (w *writerCore) renewWriterID() error {
	id, err := w.initWriter(w.sendCtx)
	if err != nil {
		return err
	}
	w.mu.Lock()
	w.writerID = id
	w.newWriterID = false
	w.mu.Unlock()
	return nil
}

// nextSequence returns the sequence after s (wrapping as Fluss does).
func nextSequence(s int32) int32 {
	if s == math.MaxInt32 {
		return 0
	}
	return s + 1
}

// callAnyTablet sends a request that only tablet servers serve (a
// coordinator would ignore it silently) to one of them, trying the others
// when one cannot be reached.
func (c *Client) callAnyTablet(ctx context.Context, api protocol.APIKey, req, resp proto.Message) error {
	cl, err := c.cluster(ctx)
	if err != nil {
		return err
	}
	nodes := cl.tabletList()
	if len(nodes) == 0 {
		return ErrNoTabletServer
	}
	rand.Shuffle(len(nodes), func(i, j int) { nodes[i], nodes[j] = nodes[j], nodes[i] })
	var errs []error
	for _, n := range nodes {
		err := c.callNode(ctx, n, api, req, resp)
		var fe *Error
		if err == nil || !errors.As(err, &fe) || fe.Code != flusserr.NetworkException || ctx.Err() != nil {
			return err
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
