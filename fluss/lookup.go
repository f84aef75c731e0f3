package fluss

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// Lookup batching defaults.
const (
	// DefaultLookupBatchSize is the most keys sent in one Lookup request.
	DefaultLookupBatchSize = 512
	// DefaultLookupInFlight is the most Lookup requests one LookupMany call
	// keeps in flight.
	DefaultLookupInFlight = 16
)

// Lookuper finds rows of a primary-key table by their primary key (point
// lookups, LOOKUP v1). It is safe for concurrent use.
//
// A key is the values of the primary-key columns in primary-key order
// (KeyColumns), partition columns included, in the Go value model of this
// package (INT is int32, STRING is string, …). The key bytes and the
// bucket are computed exactly as the Java client computes them, so rows
// written by any Fluss client are found.
type Lookuper struct {
	t       *pkTable
	router  *keyRouter
	keyCols []string
	co      *lookupCoalescer
}

// NewLookuper returns a Lookuper for the table, which must be a
// primary-key table (else the error matches flusserr.NonPrimaryKeyTableException).
func (tb *Table) NewLookuper() (*Lookuper, error) {
	t, err := openPKTable(tb)
	if err != nil {
		return nil, err
	}
	pk := t.info.Schema().PrimaryKey
	cols, err := columnsNamed(t.info.Schema(), pk)
	if err != nil {
		return nil, err
	}
	r, err := newKeyRouter(t.info, cols, t.info.PhysicalPrimaryKey(), t.info.BucketKeys(), true)
	if err != nil {
		return nil, err
	}
	l := &Lookuper{t: t, router: r, keyCols: slices.Clone(pk)}
	l.co = newLookupCoalescer(t, l.send)
	return l, nil
}

// Table returns the definition of the table looked up.
func (l *Lookuper) Table() *TableInfo { return l.t.info }

// KeyColumns returns the primary-key columns, in the order Lookup expects
// their values.
func (l *Lookuper) KeyColumns() []string { return slices.Clone(l.keyCols) }

// Lookup returns the row with the given primary key, in the table's column
// order, and whether it exists. A missing key (or a missing partition) is
// found == false with a nil error.
//
// Concurrent Lookup calls whose keys have the same bucket leader are merged
// into one request of up to DefaultLookupCoalesceKeys keys: a call is sent
// at once while fewer than DefaultLookupPipelineDepth requests are in flight
// to its leader, else with the calls that queued behind those requests.
// There is no wait for a batch to fill. Each call gets its own answer, and
// one whose ctx ends returns at once without failing the others.
func (l *Lookuper) Lookup(ctx context.Context, key []any) (row []any, found bool, err error) {
	rk, err := l.router.route(key)
	if err != nil {
		return nil, false, fmt.Errorf("lookup key 0 of %s: %w", l.t.path, err)
	}
	row, err = l.lookupRouted(ctx, rk)
	if err != nil {
		return nil, false, err
	}
	return row, row != nil, nil
}

// lookupRouted looks one key up through the coalescer; a key it hands back
// is looked up alone, with fanout's retries. Without a deadline in ctx, the
// wait for the coalesced request is bounded by the client's request timeout.
func (l *Lookuper) lookupRouted(ctx context.Context, rk routedKey) ([]any, error) {
	cctx, rt := ctx, l.t.c.cfg.RequestTimeout
	if _, ok := ctx.Deadline(); !ok && rt > 0 {
		var cancel context.CancelFunc
		cctx, cancel = context.WithTimeout(ctx, rt)
		defer cancel()
	}
	row, retry, err := l.co.lookup(cctx, rk)
	if !retry {
		if err != nil && cctx.Err() != nil && errors.Is(err, cctx.Err()) {
			where := fmt.Sprintf("bucket %d of %s", rk.bucket, physicalName(l.t.path, rk.partition))
			if ctx.Err() == nil {
				return nil, fmt.Errorf("fluss: looking up a key in %s: gave up after %s (the request timeout): %w", where, rt, err)
			}
			return nil, fmt.Errorf("fluss: looking up a key in %s: %w", where, err)
		}
		return row, err
	}
	rows, err := l.lookupRoutedMany(ctx, []routedKey{rk})
	if err != nil {
		return nil, err
	}
	return rows[0], nil
}

// LookupMany looks up many keys at once: they are grouped per bucket
// leader and sent in requests of up to DefaultLookupBatchSize keys, several
// in flight. The result has one entry per key, in order; nil means not
// found. Buckets whose leader moved are retried after a metadata refresh.
// A single key is merged with concurrent lookups, as in Lookup.
func (l *Lookuper) LookupMany(ctx context.Context, keys [][]any) ([][]any, error) {
	routed := make([]routedKey, len(keys))
	for i, k := range keys {
		rk, err := l.router.route(k)
		if err != nil {
			return nil, fmt.Errorf("lookup key %d of %s: %w", i, l.t.path, err)
		}
		routed[i] = rk
	}
	if len(routed) == 1 {
		row, err := l.lookupRouted(ctx, routed[0])
		if err != nil {
			return nil, err
		}
		return [][]any{row}, nil
	}
	return l.lookupRoutedMany(ctx, routed)
}

// lookupRoutedMany looks routed keys up with fanout (grouped per leader,
// retried after metadata refreshes).
func (l *Lookuper) lookupRoutedMany(ctx context.Context, routed []routedKey) ([][]any, error) {
	out := make([][]any, len(routed))
	opts := fanoutOptions{
		maxKeysPerRequest: DefaultLookupBatchSize,
		maxInFlight:       DefaultLookupInFlight,
		missingPartition:  func(int) {}, // not found, as in the Java client
	}
	err := l.t.fanout(ctx, routed, opts, func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error) {
		return l.send(ctx, node, tableID, reqs, routed, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (l *Lookuper) send(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq, routed []routedKey, out [][]any) ([]kvBucketFailure, error) {
	req := &protocol.LookupRequest{TableId: proto.Int64(tableID)}
	for _, br := range reqs {
		req.BucketsReq = append(req.BucketsReq, &protocol.PbLookupReqForBucket{
			PartitionId: br.partitionID, BucketId: proto.Int32(br.bucket), Keys: bucketKeys(br, routed)})
	}
	var resp protocol.LookupResponse
	if err := l.t.c.callNode(ctx, node, protocol.Lookup, req, &resp); err != nil {
		return nil, err
	}
	answered := matchBuckets(reqs, resp.GetBucketsResp(), func(r *protocol.PbLookupRespForBucket) (*int64, int32) {
		return r.PartitionId, r.GetBucketId()
	})
	ok, failed := sortAnswers(reqs, answered)
	for _, k := range ok {
		br, r := reqs[k], answered[k]
		vals := r.GetValues()
		if len(vals) != len(br.idx) {
			return nil, &Error{Code: flusserr.CorruptMessage, Message: fmt.Sprintf(
				"lookup answered %d values for %d keys in bucket %d", len(vals), len(br.idx), br.bucket)}
		}
		for j, v := range vals {
			if v.Values == nil {
				continue
			}
			row, err := l.t.values.decode(v.Values)
			if err != nil {
				return nil, err
			}
			out[br.idx[j]] = row
		}
	}
	return failed, nil
}

// matchBuckets pairs each bucket part of a request with its answer (nil
// when the server sent none) by partition id and bucket id.
func matchBuckets[R any](reqs []*kvBucketReq, resps []R, id func(R) (*int64, int32)) []R {
	out := make([]R, len(reqs))
	used := make([]bool, len(resps))
	for k, br := range reqs {
		for j, r := range resps {
			if used[j] {
				continue
			}
			pid, b := id(r)
			if b == br.bucket && samePartition(pid, br.partitionID) {
				out[k] = r
				used[j] = true
				break
			}
		}
	}
	return out
}

func samePartition(a, b *int64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return *a == *b
}

// bucketKeys lists the encoded keys of one bucket's part of a request.
func bucketKeys(br *kvBucketReq, routed []routedKey) [][]byte {
	keys := make([][]byte, len(br.idx))
	for j, i := range br.idx {
		keys[j] = routed[i].key
	}
	return keys
}

// bucketAnswer is a per-bucket answer of a lookup or prefix lookup.
type bucketAnswer interface {
	comparable
	GetErrorCode() int32
	GetErrorMessage() string
}

// sortAnswers returns the indexes of the requests whose bucket was answered
// without an error, and the failures of the others (no answer, or an error
// code).
func sortAnswers[R bucketAnswer](reqs []*kvBucketReq, answered []R) (ok []int, failed []kvBucketFailure) {
	var none R
	for k, br := range reqs {
		r := answered[k]
		if r == none {
			failed = append(failed, kvBucketFailure{br, noAnswer(br)})
			continue
		}
		if err := errorFromCode(r.GetErrorCode(), r.GetErrorMessage()); err != nil {
			failed = append(failed, kvBucketFailure{br, err})
			continue
		}
		ok = append(ok, k)
	}
	return ok, failed
}

func noAnswer(br *kvBucketReq) error {
	return &Error{Code: flusserr.UnknownTableOrBucketException,
		Message: fmt.Sprintf("the server sent no answer for bucket %d", br.bucket)}
}
