package fluss

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusstest"
	"github.com/flussql/flussql/fluss/types"
)

// memFS is a RemoteFS over files in memory; opens counts the files opened.
type memFS struct {
	mu    sync.Mutex
	files map[string][]byte
	opens []string
	// block, when set, makes Open wait for the context to end.
	block bool
	// fail is how many more opens fail with an I/O error.
	fail int
}

func (m *memFS) Open(ctx context.Context, path string) (RemoteFile, error) {
	m.mu.Lock()
	data, ok := m.files[path]
	m.opens = append(m.opens, path)
	block := m.block
	fail := m.fail > 0
	m.fail--
	m.mu.Unlock()
	if fail {
		return nil, fmt.Errorf("%s: connection reset by the store", path)
	}
	if block {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if !ok {
		return nil, fmt.Errorf("%s: %w", path, os.ErrNotExist)
	}
	return nopCloser{bytes.NewReader(data)}, nil
}

type nopCloser struct{ *bytes.Reader }

func (nopCloser) Close() error { return nil }

// registerMemFS registers m for scheme until the test ends.
func registerMemFS(t *testing.T, scheme string, m *memFS) {
	RegisterRemoteFS(scheme, m)
	t.Cleanup(func() { RegisterRemoteFS(scheme, nil) })
}

// tieredRows is the number of batches and rows per batch tieredCluster writes.
const tieredBatches, tieredBatchRows = 12, 5

// tieredCluster returns a fake cluster with the log table db.tiered (id BIGINT, s STRING;
// one bucket) holding 60 rows in 12 batches (id = offset, s = "row <id>"), of which the
// first 9 batches are tiered to three segments under dir.
func tieredCluster(t *testing.T, dir string) (*fakeCluster, map[string][]byte) {
	f := &fakeCluster{Cluster: flusstest.New(t), path: TablePath{Database: "db", Table: "tiered"}}
	f.CreateDatabase("db")
	schema := types.Schema{Columns: []types.Column{{Name: "id", Type: types.NewBigInt()}, {Name: "s", Type: types.NewString()}}}
	f.CreateTable("db", "tiered", types.TableJSON{Schema: types.SchemaJSON{Schema: schema}, BucketCount: 1})
	as, err := types.ToArrowSchema(schema)
	require.NoError(t, err)
	for b := range tieredBatches {
		ids := array.NewInt64Builder(memory.DefaultAllocator)
		strs := array.NewStringBuilder(memory.DefaultAllocator)
		for i := range tieredBatchRows {
			id := int64(b*tieredBatchRows + i)
			ids.Append(id)
			strs.Append(fmt.Sprintf("row %d", id))
		}
		cols := []arrow.Array{ids.NewArray(), strs.NewArray()}
		rec := array.NewRecordBatch(as, cols, tieredBatchRows)
		f.AppendLog("db", "tiered", "", 0, rec)
		rec.Release()
		for _, c := range cols {
			c.Release()
		}
		ids.Release()
		strs.Release()
	}
	files := f.TierLog("db", "tiered", "", 0, dir, 3, 3)
	require.Len(t, files, 3)
	return f, files
}

// scanTiered scans db.tiered from offset (bounded) and returns the rows as "id:s" and the
// scanner's remote byte count.
func scanTiered(t *testing.T, f *fakeCluster, opts ScannerOptions, offset int64) ([]string, int64, error) {
	c := f.connect(t)
	tbl, err := c.Table(context.Background(), f.path)
	require.NoError(t, err)
	opts.Bounded, opts.MaxWait = true, 20*time.Millisecond
	s, err := tbl.NewLogScanner(opts)
	require.NoError(t, err)
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, s.Subscribe(ctx, 0, offset))
	var rows []string
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			return rows, s.RemoteFetchedBytes(), nil
		}
		if err != nil {
			return rows, s.RemoteFetchedBytes(), err
		}
		for i := 0; i < b.NumRows(); i++ {
			vals, err := RowValues(b.Record, s.ColumnTypes(), i)
			require.NoError(t, err)
			parts := make([]string, len(vals))
			for j, v := range vals {
				parts[j] = fmt.Sprint(v)
			}
			require.Equal(t, b.BaseOffset+int64(i), b.Offset(i))
			rows = append(rows, fmt.Sprintf("%d@", b.Offset(i))+strings.Join(parts, ":"))
		}
		b.Release()
	}
}

// wantTiered returns the rows of db.tiered from offset from to offset to (0: the end), as
// scanTiered gives them for the projection cols (nil: both columns).
func wantTiered(from, to int, cols []int) []string {
	if to == 0 {
		to = tieredBatches * tieredBatchRows
	}
	var out []string
	for id := from; id < to; id++ {
		vals := []string{fmt.Sprint(id), fmt.Sprintf("row %d", id)}
		if cols != nil {
			var p []string
			for _, c := range cols {
				p = append(p, vals[c])
			}
			vals = p
		}
		out = append(out, fmt.Sprintf("%d@", id)+strings.Join(vals, ":"))
	}
	return out
}

func TestScanReadsTieredSegments(t *testing.T) {
	for _, tc := range []struct {
		name   string
		opts   ScannerOptions
		offset int64
		from   int
		cols   []int
		end    int // a bounded scan's end offset (the high watermark when it starts); 0: the log end
	}{
		{name: "from earliest", offset: EarliestOffset},
		{name: "from offset 0", offset: 0},
		{name: "inside a segment, between index entries", offset: 23, from: 23},
		{name: "at the last tiered row", offset: 44, from: 44},
		{name: "projection pushed down for local fetches", opts: ScannerOptions{Projection: []int{1}}, offset: 7, from: 7, cols: []int{1}},
		{name: "projection reordered", opts: ScannerOptions{Projection: []int{1, 0}}, offset: EarliestOffset, cols: []int{1, 0}},
		{name: "one batch per read", opts: ScannerOptions{MaxBucketBytes: 1}, offset: EarliestOffset},
		{name: "bounded scan ending inside a batch of a segment", offset: 3, from: 3, end: 22},
		{name: "bounded scan ending at a segment end", offset: EarliestOffset, end: 30},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &memFS{}
			registerMemFS(t, "mem", m)
			f, files := tieredCluster(t, "mem://bucket/remote/log/db/tiered-1/0")
			m.files = files
			if tc.end > 0 {
				f.SetHighWatermark("db", "tiered", "", 0, 1, int64(tc.end))
			}
			rows, remote, err := scanTiered(t, f, tc.opts, tc.offset)
			require.NoError(t, err)
			assert.Equal(t, wantTiered(tc.from, tc.end, tc.cols), rows)
			assert.Positive(t, remote, "rows were read from the remote segments")
			assert.NotEmpty(t, m.opens)
			for _, p := range m.opens {
				assert.Regexp(t, `^mem://bucket/remote/log/db/tiered-1/0/[0-9a-f-]{36}/[0-9]{20}\.log$`, p)
			}
		})
	}
}

// Past the tiered part a scan reads no remote file.
func TestScanPastTieredPartReadsNoRemoteFile(t *testing.T) {
	m := &memFS{}
	registerMemFS(t, "mem", m)
	f, files := tieredCluster(t, "mem://r")
	m.files = files
	rows, remote, err := scanTiered(t, f, ScannerOptions{}, 45)
	require.NoError(t, err)
	assert.Equal(t, wantTiered(45, 0, nil), rows)
	assert.Zero(t, remote)
	assert.Empty(t, m.opens)
}

func TestScanReadsTieredSegmentsFromLocalDir(t *testing.T) {
	for _, tc := range []struct {
		name string
		uri  func(dir string) string
	}{
		{name: "plain path", uri: func(dir string) string { return dir }},
		{name: "file URI", uri: func(dir string) string { return "file://" + dir }},
		{name: "file URI without slashes", uri: func(dir string) string { return "file:" + dir }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			f, files := tieredCluster(t, tc.uri(dir))
			for p, data := range files {
				local := filepath.Join(dir, strings.TrimPrefix(p, tc.uri(dir)))
				require.NoError(t, os.MkdirAll(filepath.Dir(local), 0o755))
				require.NoError(t, os.WriteFile(local, data, 0o644))
			}
			rows, remote, err := scanTiered(t, f, ScannerOptions{}, EarliestOffset)
			require.NoError(t, err)
			assert.Equal(t, wantTiered(0, 0, nil), rows)
			assert.Positive(t, remote)
		})
	}
}

func TestScanTieredSegmentErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dir   string
		edit  func(files map[string][]byte)
		wants []string
	}{
		{name: "unknown scheme", dir: "s3://bucket/remote",
			wants: []string{`no reader for scheme "s3"`, `fluss.RegisterRemoteFS("s3", fs)`, "s3://bucket/remote/"}},
		{name: "missing file", dir: "mem://r", edit: func(files map[string][]byte) {
			delete(files, "mem://r/00000000-0000-4000-8000-000000000000/00000000000000000000.log")
		}, wants: []string{"mem://r/00000000-0000-4000-8000-000000000000/00000000000000000000.log", "file does not exist", "(attempt 6, failing for"}},
		{name: "truncated file", dir: "mem://r", edit: func(files map[string][]byte) {
			p := "mem://r/00000000-0000-4000-8000-000000000000/00000000000000000000.log"
			files[p] = files[p][:len(files[p])-10]
		}, wants: []string{"mem://r/00000000-0000-4000-8000-000000000000/00000000000000000000.log", "the server says it has"}},
		{name: "corrupt batch", dir: "mem://r", edit: func(files map[string][]byte) {
			p := "mem://r/00000000-0000-4000-8000-000000000001/00000000000000000015.log"
			files[p] = bytes.Clone(files[p])
			files[p][len(files[p])-1] ^= 0xff
		}, wants: []string{"remote log segment mem://r/00000000-0000-4000-8000-000000000001/00000000000000000015.log", "crc"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := &memFS{}
			registerMemFS(t, "mem", m)
			f, files := tieredCluster(t, tc.dir)
			if tc.edit != nil {
				tc.edit(files)
			}
			m.files = files
			_, _, err := scanTiered(t, f, ScannerOptions{}, EarliestOffset)
			require.Error(t, err)
			for _, w := range tc.wants {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// A remote file that cannot be opened for a moment is read at the next fetch.
func TestScanRetriesRemoteIOError(t *testing.T) {
	m := &memFS{fail: 2}
	registerMemFS(t, "mem", m)
	f, files := tieredCluster(t, "mem://r")
	m.files = files
	rows, _, err := scanTiered(t, f, ScannerOptions{}, EarliestOffset)
	require.NoError(t, err)
	assert.Equal(t, wantTiered(0, 0, nil), rows)
	assert.Equal(t, m.opens[0], m.opens[2], "the failed segment was opened again")
}

// A remote read that waits is given up when the scanner closes.
func TestCloseCancelsRemoteRead(t *testing.T) {
	m := &memFS{block: true}
	registerMemFS(t, "mem", m)
	f, files := tieredCluster(t, "mem://r")
	m.files = files
	c := f.connect(t)
	tbl, err := c.Table(context.Background(), f.path)
	require.NoError(t, err)
	s, err := tbl.NewLogScanner(ScannerOptions{MaxWait: 20 * time.Millisecond})
	require.NoError(t, err)
	require.NoError(t, s.Subscribe(context.Background(), 0, EarliestOffset))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err = s.Poll(ctx)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	m.mu.Lock()
	assert.NotEmpty(t, m.opens, "the segment was being opened")
	m.mu.Unlock()
	closed := make(chan error)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		assert.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("Close waits for a remote read that ignores its cancellation")
	}
}

func TestRemoteScheme(t *testing.T) {
	for path, want := range map[string]string{
		"/tmp/remote/log":       "",
		"relative/dir":          "",
		`C:\fluss\remote`:       "",
		"file:/tmp/remote":      "file",
		"file:///tmp/remote":    "file",
		"S3://Bucket/fluss":     "s3",
		"oss://b/fluss/log":     "oss",
		"hdfs://nn:8020/fluss":  "hdfs",
		"viewfs://cluster/path": "viewfs",
	} {
		assert.Equal(t, want, remoteScheme(path), path)
	}
}

func TestLocalFSRejectsRemoteHost(t *testing.T) {
	_, err := LocalFS{}.Open(context.Background(), "file://otherhost/tmp/x")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `names host "otherhost"`)
}
