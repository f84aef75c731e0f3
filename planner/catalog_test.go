package planner

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/parser"
)

// fakeAdmin answers from the test catalog and counts calls. listed, when set, receives
// every ListPartitions call's error as it returns (tests wait for a background refresh on
// it); hold, when set, holds the calls whose context is not a test's (a background
// refresh's) after they read the partitions, until it is closed.
type fakeAdmin struct {
	cat          *memCatalog
	tableCalls   int
	listCalls    int
	failNextList bool
	listed       chan error
	hold         chan struct{}
	mu           sync.Mutex // guards listCalls, failNextList and cat.parts (background refreshes)
}

// testCtx marks the contexts of a test's own calls.
type testCtx struct{}

func (f *fakeAdmin) GetTableInfo(ctx context.Context, path fluss.TablePath) (*fluss.TableInfo, error) {
	f.tableCalls++
	return f.cat.Table(ctx, path)
}

func (f *fakeAdmin) ListPartitions(ctx context.Context, path fluss.TablePath, partial fluss.PartitionSpec) ([]fluss.PartitionInfo, error) {
	f.mu.Lock()
	f.listCalls++
	fail := f.failNextList
	f.failNextList = false
	var parts []fluss.PartitionInfo
	err := error(&fluss.Error{Code: flusserr.NetworkException})
	if !fail {
		parts, err = f.cat.Partitions(ctx, path)
		parts = append([]fluss.PartitionInfo(nil), parts...)
	}
	hold := f.hold
	f.mu.Unlock()
	if hold != nil && ctx.Value(testCtx{}) == nil {
		<-hold
	}
	if f.listed != nil {
		f.listed <- err
	}
	return parts, err
}

// setParts changes the partitions the fake answers with.
func (f *fakeAdmin) setParts(path fluss.TablePath, change func([]fluss.PartitionInfo) []fluss.PartitionInfo) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cat.parts[path] = change(f.cat.parts[path])
}

func (f *fakeAdmin) lists() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.listCalls
}

func TestAdminCatalogCache(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1000, 0)
	fa := &fakeAdmin{cat: testCatalog()}
	c := newAdminCatalog(fa, time.Minute, func() time.Time { return now })
	events := fluss.TablePath{Database: "fluss", Table: "events"}

	for range 3 {
		info, err := c.Table(ctx, events)
		require.NoError(t, err)
		assert.Equal(t, events, info.Path)
	}
	assert.Equal(t, 1, fa.tableCalls, "answers are cached")

	now = now.Add(61 * time.Second)
	_, err := c.Table(ctx, events)
	require.NoError(t, err)
	assert.Equal(t, 2, fa.tableCalls, "stale entries are fetched again")

	c.Invalidate(events)
	_, err = c.Table(ctx, events)
	require.NoError(t, err)
	assert.Equal(t, 3, fa.tableCalls, "Invalidate forgets the table")

	fa.failNextList = true
	_, err = c.Partitions(ctx, events)
	require.Error(t, err)
	parts, err := c.Partitions(ctx, events)
	require.NoError(t, err, "errors are not cached")
	assert.Len(t, parts, 3)
	_, err = c.Partitions(ctx, events)
	require.NoError(t, err)
	assert.Equal(t, 2, fa.listCalls)

	c.InvalidateAll()
	_, err = c.Partitions(ctx, events)
	require.NoError(t, err)
	assert.Equal(t, 3, fa.listCalls)

	_, err = c.Table(ctx, fluss.TablePath{Database: "fluss", Table: "nope"})
	require.True(t, errors.Is(err, fluss.ErrTableNotExist))

	uncached := newAdminCatalog(fa, 0, time.Now)
	for range 2 {
		_, err = uncached.Table(ctx, events)
		require.NoError(t, err)
	}
	assert.Equal(t, 6, fa.tableCalls, "ttl 0 disables the cache")
}

// A partition list in its second time to live is used as it is while one background
// refresh runs; a refresh that an Invalidate overtook is dropped; an older list is fetched
// before it is used.
func TestAdminCatalogRefreshesPartitionsInTheBackground(t *testing.T) {
	ctx := context.WithValue(context.Background(), testCtx{}, true)
	var mu sync.Mutex
	now := time.Unix(1000, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	fa := &fakeAdmin{cat: testCatalog(), listed: make(chan error, 16)}
	c := newAdminCatalog(fa, time.Minute, clock)
	events := fluss.TablePath{Database: "fluss", Table: "events"}
	list := func() int {
		t.Helper()
		parts, err := c.Partitions(ctx, events)
		require.NoError(t, err)
		return len(parts)
	}
	refreshing := func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		e := c.parts[events]
		return e != nil && e.refreshing
	}
	require.Equal(t, 3, list())
	require.NoError(t, <-fa.listed)

	// Second time to live: the cached list at once, one refresh behind it.
	advance(90 * time.Second)
	fa.setParts(events, func(p []fluss.PartitionInfo) []fluss.PartitionInfo {
		return append(p, fluss.PartitionInfo{ID: 99, Name: "2024-01-03$US"})
	})
	fa.mu.Lock()
	fa.hold = make(chan struct{})
	fa.mu.Unlock()
	assert.Equal(t, 3, list(), "the cached list, while it is refreshed")
	assert.Equal(t, 3, list())
	close(fa.hold)
	require.NoError(t, <-fa.listed)
	assert.Eventually(t, func() bool { return list() == 4 }, 5*time.Second, time.Millisecond, "the refreshed list")
	assert.Equal(t, 2, fa.lists(), "one refresh")

	// A failed refresh leaves the list; its next use refreshes again.
	advance(90 * time.Second)
	fa.mu.Lock()
	fa.failNextList = true
	fa.mu.Unlock()
	assert.Equal(t, 4, list())
	require.Error(t, <-fa.listed)
	assert.Eventually(t, func() bool { return !refreshing() }, 5*time.Second, time.Millisecond)
	assert.Equal(t, 4, list())
	require.NoError(t, <-fa.listed)
	assert.Eventually(t, func() bool { return !refreshing() }, 5*time.Second, time.Millisecond)

	// Invalidate while a refresh runs: the refresh's (older) answer is dropped; the next
	// use fetches before it answers.
	advance(90 * time.Second)
	fa.mu.Lock()
	fa.hold = make(chan struct{})
	fa.mu.Unlock()
	assert.Equal(t, 4, list(), "a refresh starts and reads 4 partitions")
	assert.Eventually(t, func() bool { return fa.lists() == 5 }, 5*time.Second, time.Millisecond)
	c.Invalidate(events)
	fa.setParts(events, func(p []fluss.PartitionInfo) []fluss.PartitionInfo { return p[:3] })
	assert.Equal(t, 3, list(), "fetched again after Invalidate")
	require.NoError(t, <-fa.listed)
	close(fa.hold)
	require.NoError(t, <-fa.listed) // the overtaken refresh ended
	assert.Equal(t, 3, list(), "the overtaken refresh did not replace the fresh list")

	// Past two times to live: fetched before it is used.
	advance(121 * time.Second)
	fa.setParts(events, func(p []fluss.PartitionInfo) []fluss.PartitionInfo {
		return append(p, fluss.PartitionInfo{ID: 100, Name: "2024-01-04$US"})
	})
	assert.Equal(t, 4, list())
}

func TestMissingTableError(t *testing.T) {
	st, err := parser.Parse("SELECT * FROM nope")
	require.NoError(t, err)
	_, err = Build(context.Background(), st, testCatalog(), Session{Database: "fluss"})
	require.EqualError(t, err, "table fluss.nope does not exist")
	assert.True(t, errors.Is(err, fluss.ErrTableNotExist))
	var te *TableNotExistError
	require.True(t, errors.As(err, &te))
	assert.Equal(t, fluss.TablePath{Database: "fluss", Table: "nope"}, te.Path)

	st, err = parser.Parse("SHOW PARTITIONS logs")
	require.NoError(t, err)
	_, err = Build(context.Background(), st, testCatalog(), Session{Database: "fluss"})
	require.EqualError(t, err, "table fluss.logs is not partitioned")
	assert.True(t, errors.Is(err, flusserr.TableNotPartitionedException))
}

func TestShowRows(t *testing.T) {
	like := "%s"
	assert.Equal(t, [][]any{{"logs"}, {"users"}}, (&ShowTables{Like: &like}).Rows([]string{"users", "logs", "event"}))
	assert.Equal(t, [][]any{{"a"}, {"b"}}, (&ShowDatabases{}).Rows([]string{"b", "a"}))

	p := build(t, "SHOW PARTITIONS events PARTITION (region = 'US')").(*ShowPartitions)
	parts := testCatalog().parts[fluss.TablePath{Database: "fluss", Table: "events"}]
	assert.Equal(t, [][]any{
		{"dt=2024-01-01/region=US", parts[0].ID},
		{"dt=2024-01-02/region=US", parts[2].ID},
	}, p.Rows(parts))
	assert.Len(t, build(t, "SHOW PARTITIONS events").(*ShowPartitions).Rows(parts), 3)

	e := build(t, "EXPLAIN SELECT * FROM logs").(*Explain)
	rows := e.Rows()
	assert.Equal(t, "Scan fluss.logs (log table, 2 buckets)", rows[0][0])
	assert.Equal(t, len(rows), len(splitLines(e.String()))+1, "a row per line of the plan, then the engine")
	assert.Equal(t, "  engine: flussql, in this process", rows[len(rows)-1][0])
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return out
}
