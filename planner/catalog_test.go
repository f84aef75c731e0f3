package planner

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/parser"
)

// fakeAdmin answers from the test catalog and counts calls.
type fakeAdmin struct {
	cat          *memCatalog
	tableCalls   int
	listCalls    int
	failNextList bool
}

func (f *fakeAdmin) GetTableInfo(ctx context.Context, path fluss.TablePath) (*fluss.TableInfo, error) {
	f.tableCalls++
	return f.cat.Table(ctx, path)
}

func (f *fakeAdmin) ListPartitions(ctx context.Context, path fluss.TablePath, partial fluss.PartitionSpec) ([]fluss.PartitionInfo, error) {
	f.listCalls++
	if f.failNextList {
		f.failNextList = false
		return nil, &fluss.Error{Code: flusserr.NetworkException}
	}
	return f.cat.Partitions(ctx, path)
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
	assert.Equal(t, len(rows), len(splitLines(e.String())))
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
