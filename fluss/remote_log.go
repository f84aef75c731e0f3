package fluss

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// Tiered log segments. A tablet server with remote storage ('remote.data.dir',
// 'remote.log.task-interval-duration' > 0) copies every log segment but the
// active one to remote storage and then deletes old local segments, keeping
// 'table.log.tiered.local-segments' of them. A fetch below the local log
// start offset is answered with no records and a PbRemoteLogFetchInfo: the
// bucket's remote directory (FlussPaths.remoteLogTabletDir:
// {remote.data.dir}/log/{db}/{table}-{tableId}[/{partition}-p{id}]/{bucket}),
// the remote segments from the one holding the fetch offset on (id, start
// offset, end offset = the next segment's start, size in bytes), and the
// byte position in the first segment of the batch holding the offset (from
// the segment's offset index). A segment is the file
// {tablet dir}/{segment id}/{start offset, 20 digits zero-padded}.log: log
// batches back to back, exactly as a fetch answer carries them, unprojected.
//
// The scanner reads such an answer itself (readRemote): from the given
// position, whole batches of the segments in order up to MaxBucketBytes,
// decoded as fetched records are (with every column: the server's
// projection does not apply to files), and continues at the offset after
// the last row read; the next fetch is again answered remotely or, past the
// tiered part, with records.

// remoteSegmentPath returns the file of a remote log segment.
func remoteSegmentPath(tabletDir string, seg *protocol.PbRemoteLogSegment) (string, error) {
	id := seg.GetRemoteLogSegmentId()
	if id == "" || strings.ContainsAny(id, "/\\") || id == "." || id == ".." {
		return "", fmt.Errorf("fluss: remote log segment id %q is not a segment directory name", id)
	}
	if tabletDir == "" {
		return "", errors.New("fluss: the fetch answer names no remote log tablet directory")
	}
	return fmt.Sprintf("%s/%s/%020d.log", strings.TrimRight(tabletDir, "/"), id, seg.GetRemoteLogStartOffset()), nil
}

// readSegmentChunk reads whole batches of the segment file path (size bytes
// long, as the server says) from byte pos: it steps over the batches that
// end at or before offset from (the server's position comes from a sparse
// offset index; from < 0 steps over none), then reads up to budget bytes,
// but at least one batch. whole reports that the chunk reaches the
// segment's end; otherwise it may end in a partial batch (which the batch
// iterator ignores).
func readSegmentChunk(ctx context.Context, path string, pos, size, from int64, budget int) (chunk []byte, whole bool, err error) {
	if pos < 0 || pos > size {
		return nil, false, fmt.Errorf("fluss: remote log segment %s: start position %d is outside its %d bytes: %w", path, pos, size, logbatch.ErrCorrupt)
	}
	if pos == size {
		return nil, true, nil
	}
	f, err := openRemote(ctx, path)
	if err != nil {
		var ns *noReaderError
		if errors.As(err, &ns) || ctx.Err() != nil {
			return nil, false, err
		}
		return nil, false, &remoteIOError{err}
	}
	defer f.Close()
	readAt := func(buf []byte, at int64) error {
		n, err := f.ReadAt(buf, at)
		if n == len(buf) {
			return nil
		}
		if err == nil || errors.Is(err, io.EOF) {
			return fmt.Errorf("fluss: remote log segment %s ends at byte %d; the server says it has %d bytes: %w", path, at+int64(n), size, logbatch.ErrCorrupt)
		}
		return &remoteIOError{fmt.Errorf("fluss: reading remote log segment %s at byte %d: %w", path, at, err)}
	}
	var head [logbatch.HeaderSizeV2]byte
	var first int64 // the size of the batch at pos
	for {
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
		h := head[:min(int64(len(head)), size-pos)]
		if err := readAt(h, pos); err != nil {
			return nil, false, err
		}
		n, next, err := logbatch.PeekBatch(h)
		if err != nil {
			return nil, false, fmt.Errorf("fluss: remote log segment %s, byte %d: %w", path, pos, err)
		}
		if n > size-pos {
			return nil, false, fmt.Errorf("fluss: remote log segment %s: the batch at byte %d has %d bytes, beyond the segment's %d: %w",
				path, pos, n, size, logbatch.ErrCorrupt)
		}
		if from < 0 || next > from {
			first = n
			break
		}
		if pos += n; pos == size {
			return nil, true, nil
		}
	}
	want := max(min(size-pos, int64(budget)), first)
	if want <= maxUpfrontRead {
		chunk = make([]byte, want)
		if err := readAt(chunk, pos); err != nil {
			return nil, false, err
		}
		return chunk, pos+want == size, nil
	}
	// A large read (a big first batch, or a big budget) grows with the bytes that
	// arrive, so a wrong size costs no more memory than the file has.
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.NewSectionReader(f, pos, want))
	if err != nil {
		return nil, false, &remoteIOError{fmt.Errorf("fluss: reading remote log segment %s at byte %d: %w", path, pos+n, err)}
	}
	if n < want {
		return nil, false, fmt.Errorf("fluss: remote log segment %s ends at byte %d; the server says it has %d bytes: %w", path, pos+n, size, logbatch.ErrCorrupt)
	}
	return buf.Bytes(), pos+want == size, nil
}

// remoteIOError is a remote log segment that could not be opened or read (not one
// that was read and is corrupt): the fetch is retried a few times, since the
// storage may fail for a moment and the server may have dropped the segment
// (retention) after naming it.
type remoteIOError struct{ err error }

func (e *remoteIOError) Error() string { return e.err.Error() }
func (e *remoteIOError) Unwrap() error { return e.err }

// maxUpfrontRead is the largest remote read given its whole buffer at once.
const maxUpfrontRead = 8 << 20

// readRemote reads the rows of a fetch answered with remote log segments:
// from the first segment's start position, segment after segment, up to
// MaxBucketBytes, stopping at the bounded scan's end. It returns the
// batches and the offset to fetch next.
func (s *LogScanner) readRemote(ctx context.Context, f *bucketFetch, info *protocol.PbRemoteLogFetchInfo, hw int64) ([]*ScanBatch, int64, error) {
	segs := info.GetRemoteLogSegments()
	if len(segs) == 0 {
		return nil, f.offset, fmt.Errorf("fluss: the fetch answer at offset %d sends to remote storage %s but lists no segment", f.offset, info.GetRemoteLogTabletDir())
	}
	p, decs, err := s.remoteDecoding()
	if err != nil {
		return nil, f.offset, err
	}
	dec := decs.get()
	defer decs.put(dec)
	var out []*ScanBatch
	fail := func(err error) ([]*ScanBatch, int64, error) {
		for _, b := range out {
			b.Release()
		}
		return nil, f.offset, err
	}
	budget := s.opts.MaxBucketBytes
	next := f.offset
	for i, seg := range segs {
		if f.end >= 0 && next >= f.end {
			break
		}
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		path, err := remoteSegmentPath(info.GetRemoteLogTabletDir(), seg)
		if err != nil {
			return fail(err)
		}
		pos := int64(0)
		if i == 0 {
			pos = int64(info.GetFirstStartPos())
		}
		chunk, whole, err := readSegmentChunk(ctx, path, pos, int64(seg.GetSegmentSizeInBytes()), next, budget)
		if err != nil {
			return fail(err)
		}
		s.remoteFetched.Add(int64(len(chunk)))
		part := *f
		part.offset = next
		batches, n, err := s.decodeBatches(ctx, p, dec, &part, chunk, hw)
		if err != nil {
			return fail(fmt.Errorf("fluss: remote log segment %s: %w", path, err))
		}
		out = append(out, batches...)
		next = n
		budget -= len(chunk)
		if !whole {
			break
		}
		// The segment is read to its end: the next one starts at its end offset.
		if end := seg.GetRemoteLogEndOffset(); end > next {
			next = end
			if f.end >= 0 && next > f.end {
				next = f.end
			}
		}
		if budget <= 0 {
			break
		}
	}
	return out, next, nil
}

// remoteDecoding is how the scanner decodes batches read from remote
// segments: its own projection when it fetches every column, else the same
// selection made on the client (the files hold whole batches).
type remoteDecoding struct {
	once sync.Once
	p    *projection
	decs *decoderPool
	own  bool // decs is the remote reader's own pool (closed with the scanner)
	err  error
}

func (s *LogScanner) remoteDecoding() (*projection, *decoderPool, error) {
	r := &s.remote
	r.once.Do(func() {
		// Set before the first fetch (checkPushdown), like fetchFrom reads them.
		p, decs := s.proj, s.decs
		if !p.pushdown {
			r.p, r.decs = p, decs
			return
		}
		if r.p, r.err = p.withoutPushdown(); r.err == nil {
			r.decs, r.own = newDecoderPool(s.t, r.p, s.mem), true
		}
	})
	return r.p, r.decs, r.err
}

// close releases the remote reader's own decoders.
func (r *remoteDecoding) close() {
	r.once.Do(func() {}) // no decoding after close
	if r.own {
		r.decs.close()
	}
}
