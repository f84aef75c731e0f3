package fluss

import (
	"context"
	"sync/atomic"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// StatisticsColumns returns the indexes of the columns whose statistics
// this client writes into log batches ('table.statistics.columns', on
// Fluss 1.0 servers), or nil. A Predicate on other columns is not pushed.
func (t *TableInfo) StatisticsColumns() []int {
	cols, _ := statisticsColumns(t)
	return cols
}

// scanFilter is the FetchLog filter of a scanner, resolved at its first
// fetch: nil predicate when nothing is pushed.
type scanFilter struct {
	resolved bool
	pb       *protocol.PbPredicate
	schemaID int32
}

// fetchFilter returns the filter to send with a FetchLog request (nil
// when none): ScannerOptions.Filter, when the table has statistics columns
// covering it and the tablet servers speak Fluss 1.0. Servers older than
// 1.0 never get one. The answer is decided once per scanner.
func (s *LogScanner) fetchFilter(ctx context.Context) (*protocol.PbPredicate, int32) {
	s.filterMu.Lock()
	defer s.filterMu.Unlock()
	if s.filter.resolved {
		return s.filter.pb, s.filter.schemaID
	}
	p := s.opts.Filter
	if p == nil {
		s.filter.resolved = true
		return nil, 0
	}
	info := s.t.info
	stat := info.StatisticsColumns()
	if err := p.Pushable(info.Schema(), stat); err != nil {
		s.t.c.debug("fluss: scan filter not pushed", "table", s.t.Path().String(), "reason", err)
		s.filter.resolved = true
		return nil, 0
	}
	v, err := s.t.c.ServerVersion(ctx)
	if err != nil {
		return nil, 0 // undecided: ask again at the next fetch
	}
	if !v.AtLeast(1, 0) {
		s.filter.resolved = true
		return nil, 0
	}
	sv, err := s.t.c.tableSchema(ctx, s.t.Path(), info.TableID, int16(info.SchemaID))
	if err != nil {
		return nil, 0
	}
	pb, err := p.toPb(info.Schema(), sv.colIDs, stat)
	s.filter.resolved = true
	if err != nil {
		return nil, 0
	}
	s.filter.pb, s.filter.schemaID = pb, info.SchemaID
	s.filterPushed.Store(true)
	return pb, info.SchemaID
}

// FilterPushed reports whether the scanner sends ScannerOptions.Filter to
// the servers (known after the first fetch; false before).
func (s *LogScanner) FilterPushed() bool { return s.filterPushed.Load() }

// FetchedBytes returns how many bytes of log records the scanner received
// from the servers so far.
func (s *LogScanner) FetchedBytes() int64 { return s.fetched.Load() }

// RemoteFetchedBytes returns how many bytes of remote (tiered) log
// segments the scanner read so far (see RemoteFS).
func (s *LogScanner) RemoteFetchedBytes() int64 { return s.remoteFetched.Load() }

// fetchCounters are the scanner's atomic counters (embedded in LogScanner).
type fetchCounters struct {
	filterPushed  atomic.Bool
	fetched       atomic.Int64
	remoteFetched atomic.Int64
	// reported is how much of fetched+remoteFetched Poll has added to its callers' byte
	// counters (WithByteCounter): fetches run in the background, the bytes go to the
	// Poll that hands their rows out.
	reported atomic.Int64
}

// reportBytes adds the bytes fetched since the last report to ctx's byte counter.
func (s *LogScanner) reportBytes(ctx context.Context) {
	if byteCounter(ctx) == nil {
		return
	}
	total := s.fetched.Load() + s.remoteFetched.Load()
	countBytes(ctx, total-s.reported.Swap(total))
}
