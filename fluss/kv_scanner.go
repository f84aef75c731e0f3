package fluss

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// DefaultKvScanBatchBytes is the record bytes a KvScanner asks for per request unless
// KvScanOptions.BatchBytes says otherwise (the Java client's
// client.scanner.kv.fetch.max-bytes default). The server caps it with its
// kv.scanner.max-batch-size (10 MiB by default).
const DefaultKvScanBatchBytes = 4 << 20

// kvScanOpenAttempts bounds how often a KvScanner sends the open of a bucket's session
// when the server answers TOO_MANY_SCANNERS (waiting 100 ms, 200 ms, 400 ms, … between).
const kvScanOpenAttempts = 5

// KvScanOptions configures a KvScanner.
type KvScanOptions struct {
	// Partitions are the partitions to read, by name, for a partitioned table (every
	// bucket of each); nil or empty for a non-partitioned table.
	Partitions []string
	// Projection lists the table columns to return, by index, in that order; nil returns
	// every column in table order.
	Projection []int
	// BatchBytes is the most record bytes asked for per request (0:
	// DefaultKvScanBatchBytes).
	BatchBytes int
	// Limit, when > 0, ends each bucket's session on the server after that many rows.
	Limit int64
}

// KvScanner reads the current rows of a primary-key table with the server-side KV scan of
// Fluss 1.0 (SCAN_KV): bucket after bucket (partition after partition), it opens a scan
// session on the bucket leader, which reads a snapshot of the bucket's KV store taken
// when the session opens, and streams it in batches. Each key appears once with its latest
// value; deleted keys are absent. Rows come in the order of their encoded keys within a
// bucket. A KvScanner is not safe for concurrent use; Close it when done (it closes the
// open server session, which otherwise lives until the server's kv.scanner.ttl).
//
// A leader that moves while its bucket is being read fails the scan (the rest of the
// bucket would come from another snapshot); a session the server expired because the
// reader was idle longer than kv.scanner.ttl (10 minutes by default) fails it too. Both
// errors say so; run the scan again.
type KvScanner struct {
	t          *pkTable
	partitions []string // "" for a non-partitioned table
	proj       []int
	batchBytes int32
	limit      int64

	next      int // index of the next bucket to read, over partitions × buckets
	curPart   string
	curBucket int32
	node      ServerNode // the leader the current session is on
	sess      *kvSession // nil before the current bucket's session opened
	err       error      // the error that ended the scan
}

// NewKvScanner returns a scanner of the primary-key table's current rows. Against a
// server older than Fluss 1.0 it returns an error wrapping ErrUnsupportedByServer that
// names the SCAN_KV API and the server's release line.
func (tb *Table) NewKvScanner(ctx context.Context, opts KvScanOptions) (*KvScanner, error) {
	t, err := openPKTable(tb)
	if err != nil {
		return nil, fmt.Errorf("kv scan: %w", err)
	}
	switch {
	case len(opts.Partitions) == 0 && t.info.IsPartitioned():
		return nil, invalidSpec("kv scan: table %s is partitioned: name its partitions", t.path)
	case len(opts.Partitions) > 0 && !t.info.IsPartitioned():
		return nil, &Error{Code: flusserr.TableNotPartitionedException, NotSent: true,
			Message: fmt.Sprintf("kv scan: table %s is not partitioned", t.path)}
	case opts.BatchBytes < 0 || opts.BatchBytes > math.MaxInt32:
		return nil, fmt.Errorf("fluss: kv scan of %s: batch size %d is not in 1..%d bytes", t.path, opts.BatchBytes, math.MaxInt32)
	}
	ncols := len(t.info.Schema().Columns)
	for _, c := range opts.Projection {
		if c < 0 || c >= ncols {
			return nil, &Error{Code: flusserr.InvalidColumnProjection, NotSent: true,
				Message: fmt.Sprintf("kv scan of %s: projected column %d is not in 0..%d", t.path, c, ncols-1)}
		}
	}
	offers, addr, err := t.c.tabletOffers(ctx, apiScanKv)
	if err != nil {
		return nil, err
	}
	if !offers {
		v, err := t.c.ServerVersion(ctx)
		if err != nil {
			return nil, err
		}
		return nil, unsupportedByServer("full scan of "+t.path.String(), apiScanKv, ServerVersion{1, 0}, TabletServer, addr, v,
			"use LimitScan, look keys up, or read the changelog")
	}
	s := &KvScanner{t: t, partitions: slices.Clone(opts.Partitions), proj: slices.Clone(opts.Projection),
		batchBytes: int32(cmp0(opts.BatchBytes, DefaultKvScanBatchBytes)), limit: opts.Limit}
	if len(s.partitions) == 0 {
		s.partitions = []string{""}
	}
	return s, nil
}

func cmp0(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// Next returns the next batch of rows (never empty), or io.EOF after the last bucket.
// When ctx ends, Next returns its error at once and the session it was reading is
// closed on the server in the background. After an error the scanner stays failed.
func (s *KvScanner) Next(ctx context.Context) ([][]any, error) {
	for {
		if s.err != nil {
			return nil, s.err
		}
		if s.sess == nil || !s.sess.active() {
			if !s.nextBucket() {
				return nil, io.EOF
			}
		}
		recs, err := s.fetch(ctx)
		if err != nil {
			return nil, s.fail(err)
		}
		rows, err := s.decode(recs)
		if err != nil {
			return nil, s.fail(err)
		}
		if len(rows) > 0 {
			return rows, nil
		}
	}
}

// LogOffset returns the high watermark of the bucket being read when the server opened
// its snapshot, or -1 before its first answer.
func (s *KvScanner) LogOffset() int64 {
	if s.sess == nil {
		return -1
	}
	return s.sess.logOffset
}

// Close ends the scan: the session the server holds for it, if any, is closed (waiting
// at most the request timeout; a close that fails leaves it to the server's
// kv.scanner.ttl). Close is idempotent.
func (s *KvScanner) Close() error {
	if s.err == nil {
		s.err = fmt.Errorf("fluss: kv scan of %s: the scanner is closed", s.t.path)
	}
	s.sendClose()
	return nil
}

// kvScanPrefetchPartitions is how many partitions a kv scan fetches the metadata of at
// once, when it reaches one whose metadata is not cached.
const kvScanPrefetchPartitions = 100

// nextBucket moves to the next bucket to read; false after the last one.
func (s *KvScanner) nextBucket() bool {
	nb := s.t.info.NumBuckets()
	if s.next >= len(s.partitions)*nb {
		s.sess = nil
		return false
	}
	s.curPart, s.curBucket = s.partitions[s.next/nb], int32(s.next%nb)
	s.next++
	s.sess = nil
	return true
}

// where names the bucket being read, e.g. "bucket 2 of db.t" or "bucket 0 of db.t$p1".
func (s *KvScanner) where() string {
	return fmt.Sprintf("bucket %d of %s", s.curBucket, physicalName(s.t.path, s.curPart))
}

// fetch sends the next request of the current bucket (opening its session first) and
// returns the records of the answer.
func (s *KvScanner) fetch(ctx context.Context) ([]byte, error) {
	if s.sess == nil {
		return s.open(ctx)
	}
	resp, err := s.call(ctx, s.sess.request())
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("fluss: kv scan of %s: %w", s.where(), err)
		}
		s.sess.fail()
		return nil, fmt.Errorf("fluss: kv scan of %s failed in the middle of its session (it cannot be resumed on the same snapshot); run the scan again: %w", s.where(), err)
	}
	recs, err := s.sess.handle(resp)
	if err != nil {
		return nil, s.sessionError(err)
	}
	return recs, nil
}

// open locates the bucket's leader and opens its session, sending the open again after
// stale metadata, a leader move and TOO_MANY_SCANNERS.
func (s *KvScanner) open(ctx context.Context) ([]byte, error) {
	r := s.t.c.newKVRetry(ctx, "kv scan of "+s.where())
	busy := 0
	for {
		recs, err := s.openOnce(ctx)
		if err == nil {
			return recs, nil
		}
		if ctx.Err() != nil {
			return nil, r.stop(ctx.Err(), err)
		}
		if errors.Is(err, flusserr.TooManyScanners) {
			busy++
			if busy >= kvScanOpenAttempts {
				return nil, fmt.Errorf("fluss: kv scan of %s: the tablet server at %s has too many scan sessions open (its kv.scanner.max-per-bucket, 8 by default, or kv.scanner.max-per-server, 200 by default) after %d attempts: close scans you no longer read, or raise those limits: %w",
					s.where(), s.node.Addr(), busy, err)
			}
			if werr := sleepCtx(ctx, 100*time.Millisecond<<(busy-1)); werr != nil {
				return nil, r.stop(werr, err)
			}
			continue
		}
		if !retryable(err) {
			return nil, fmt.Errorf("fluss: kv scan of %s: %w", s.where(), err)
		}
		s.t.c.invalidateTable(s.t.path)
		if werr := r.failed(ctx, err); werr != nil {
			return nil, werr
		}
	}
}

func (s *KvScanner) openOnce(ctx context.Context) ([]byte, error) {
	if s.curPart != "" && s.curBucket == 0 && !s.t.c.partitionCached(s.t.path, s.curPart) {
		// This partition and the next ones, in one metadata request rather than one
		// request each as the scan reaches them.
		i := (s.next - 1) / s.t.info.NumBuckets()
		s.t.c.prefetchPartitions(ctx, s.t.path, s.partitions[i:min(i+kvScanPrefetchPartitions, len(s.partitions))])
	}
	bt, err := s.t.locate(ctx, s.curPart, s.curBucket)
	if err != nil {
		return nil, err
	}
	s.node = bt.leader
	sess := newKvSession(bt.tableID, bt.partitionID, s.curBucket, s.batchBytes, s.limit)
	s.sess = sess
	resp, err := s.call(ctx, sess.request())
	if err != nil {
		s.sess = nil
		return nil, err
	}
	recs, err := sess.handle(resp)
	if err != nil {
		s.sess = nil
		return nil, err
	}
	return recs, nil
}

// sessionError explains an error answer in the middle of a session.
func (s *KvScanner) sessionError(err error) error {
	switch {
	case errors.Is(err, flusserr.ScannerExpired), errors.Is(err, flusserr.UnknownScannerID):
		return fmt.Errorf("fluss: kv scan of %s: the server no longer has the scan session (it expires sessions idle longer than its kv.scanner.ttl, 10 minutes by default, and closes them when the bucket's leader moves): read the rows without long pauses and run the scan again: %w", s.where(), err)
	case errors.Is(err, flusserr.NotLeaderOrFollower):
		s.t.c.invalidateTable(s.t.path)
		return fmt.Errorf("fluss: kv scan of %s: the bucket's leader moved during the scan, whose rest cannot come from the same snapshot: run the scan again: %w", s.where(), err)
	}
	return fmt.Errorf("fluss: kv scan of %s: %w", s.where(), err)
}

// fail records err as the scanner's error and closes the session on the server.
func (s *KvScanner) fail(err error) error {
	s.err = err
	if s.sess != nil && s.sess.active() {
		s.sess.fail()
	}
	s.sendClose()
	return err
}

// sendClose closes the server's session of the current bucket, if it holds one.
func (s *KvScanner) sendClose() {
	if s.sess == nil {
		return
	}
	req := s.sess.closeRequest()
	s.sess.id = nil
	if req == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout())
	defer cancel()
	var resp protocol.ScanKvResponse
	_ = s.t.c.callNode(ctx, s.node, protocol.ScanKv, req, &resp)
}

func (s *KvScanner) timeout() time.Duration {
	if d := s.t.c.cfg.RequestTimeout; d > 0 {
		return d
	}
	return DefaultRequestTimeout
}

// kvCallResult is the answer (or failure) of one SCAN_KV call.
type kvCallResult struct {
	resp *protocol.ScanKvResponse
	err  error
}

// call sends req to the bucket leader. The call itself runs under the request timeout,
// not ctx: when ctx ends first, call returns ctx's error at once, and once the answer
// arrives the session it names is closed in the background (a close sent while the
// request is still being served would be refused as concurrent).
func (s *KvScanner) call(ctx context.Context, req *protocol.ScanKvRequest) (*protocol.ScanKvResponse, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c, node, batch := s.t.c, s.node, s.batchBytes
	ch := make(chan kvCallResult, 1)
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.timeout())
	go func() {
		defer cancel()
		var resp protocol.ScanKvResponse
		err := c.callNode(cctx, node, protocol.ScanKv, req, &resp)
		ch <- kvCallResult{&resp, err}
	}()
	select {
	case r := <-ch:
		return r.resp, r.err
	case <-ctx.Done():
	}
	oldID := req.GetScannerId()
	if s.sess != nil {
		s.sess.fail()
		s.sess.id = nil // the goroutine below closes it
	}
	go func() {
		r := <-ch
		id := oldID
		if r.err == nil {
			id = nil
			if r.resp.GetHasMoreResults() {
				id = r.resp.GetScannerId()
			}
		}
		if len(id) == 0 {
			return
		}
		closeCtx, cancel := context.WithTimeout(context.Background(), s.timeout())
		defer cancel()
		cs := &kvSession{id: id, state: kvOpen, batchBytes: batch}
		var resp protocol.ScanKvResponse
		_ = c.callNode(closeCtx, node, protocol.ScanKv, cs.closeRequest(), &resp)
	}()
	return nil, ctx.Err()
}

// decode turns the records of an answer into projected rows.
func (s *KvScanner) decode(b []byte) ([][]any, error) {
	rows, err := s.t.decodeValueBatches(b, math.MaxInt)
	if err != nil || s.proj == nil {
		return rows, err
	}
	for i, r := range rows {
		p := make([]any, len(s.proj))
		for j, c := range s.proj {
			if c < len(r) {
				p[j] = r[c]
			}
		}
		rows[i] = p
	}
	return rows, nil
}

// OffersKvScan reports whether the cluster's tablet servers offer the KV scan of Fluss 1.0
// (SCAN_KV), which KvScanner needs. It asks no more than the ApiVersions
// handshake of a pooled connection to one tablet server.
func (c *Client) OffersKvScan(ctx context.Context) (bool, error) {
	if c.isClosed() {
		return false, ErrClosed
	}
	ok, _, err := c.tabletOffers(ctx, apiScanKv)
	return ok, err
}
