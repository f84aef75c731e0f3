package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

// eventsSchema is the Arrow schema of `ev (id BIGINT, name STRING)`.
var eventsSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// eventBatches makes batches of the given sizes with ids counting up from 0.
func eventBatches(sizes ...int) []arrow.RecordBatch {
	var out []arrow.RecordBatch
	id := 0
	for _, n := range sizes {
		rb := array.NewRecordBuilder(memory.DefaultAllocator, eventsSchema)
		for range n {
			rb.Field(0).(*array.Int64Builder).Append(int64(id))
			rb.Field(1).(*array.StringBuilder).Append(fmt.Sprintf("event-%d", id))
			id++
		}
		out = append(out, rb.NewRecordBatch())
		rb.Release()
	}
	return out
}

// failingReader yields its batches, then fails.
type failingReader struct {
	array.RecordReader
	err error
}

func (f *failingReader) Err() error { return f.err }

// appendReader runs AppendArrowReader on c.
func appendReader(ctx context.Context, c *sql.Conn, table string, rdr array.RecordReader) (n int64, err error) {
	rerr := c.Raw(func(dc any) error {
		n, err = dc.(flussql.ArrowConn).AppendArrowReader(ctx, table, rdr)
		return nil
	})
	if rerr != nil {
		return 0, rerr
	}
	return n, err
}

// oneOutcome asserts that err matches exactly one of the three write outcomes.
func oneOutcome(t *testing.T, err error) {
	t.Helper()
	matched := 0
	for _, s := range []error{flussql.ErrNotWritten, flussql.ErrPartiallyWritten, flussql.ErrOutcomeUnknown} {
		if errors.Is(err, s) {
			matched++
		}
	}
	assert.Equal(t, 1, matched, "exactly one outcome in %v", err)
}

// checkAppendArrowReader loads batches through AppendArrowReader into a 4-bucket log table
// ev(id BIGINT, name STRING) that db's database has, and checks what a user would: the count,
// every row once, and the outcome of a reader that fails and of a batch that does not match.
func checkAppendArrowReader(t *testing.T, ctx context.Context, db *sql.DB) {
	c, err := db.Conn(ctx)
	require.NoError(t, err)
	defer c.Close()

	batches := eventBatches(50_000, 1, 70_000, 20_000, 3)
	defer func() {
		for _, b := range batches {
			b.Release()
		}
	}()
	rdr, err := array.NewRecordReader(eventsSchema, batches)
	require.NoError(t, err)
	n, err := appendReader(ctx, c, "ev", rdr)
	rdr.Release()
	require.NoError(t, err)
	const total = 140_004
	assert.Equal(t, int64(total), n)
	var count, sum, distinct int64
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*), SUM(id), COUNT(DISTINCT id) FROM ev").Scan(&count, &sum, &distinct))
	assert.Equal(t, int64(total), count)
	assert.Equal(t, int64(total*(total-1)/2), sum)
	assert.Equal(t, int64(total), distinct, "every row once")
	var name string
	require.NoError(t, db.QueryRowContext(ctx, "SELECT name FROM ev WHERE id = 123456").Scan(&name))
	assert.Equal(t, "event-123456", name)

	// A reader that fails after two batches: the statement fails with one outcome, and the
	// rows it says were written are stored.
	rdr, err = array.NewRecordReader(eventsSchema, batches[:2])
	require.NoError(t, err)
	n, err = appendReader(ctx, c, "ev", &failingReader{RecordReader: rdr, err: errors.New("disk on fire")})
	rdr.Release()
	require.Error(t, err)
	assert.ErrorContains(t, err, "AppendArrowReader's reader failed after 50001 rows: disk on fire")
	oneOutcome(t, err)
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM ev").Scan(&count))
	// The rows handed over before the failure are waited for: the count is exact.
	assert.Equal(t, count-total, n, "the rows reported written are those stored")
	assert.NotErrorIs(t, err, flussql.ErrOutcomeUnknown, "the rows in flight were waited for")
	assert.LessOrEqual(t, count-total, int64(50_001), "no more than the rows handed over")
	if errors.Is(err, flussql.ErrNotWritten) {
		assert.Equal(t, int64(total), count, "not written means nothing stored")
	}

	// A batch of other columns stops the load before anything of it is sent.
	other := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)
	ob := array.NewRecordBuilder(memory.DefaultAllocator, other)
	ob.Field(0).(*array.Int32Builder).Append(1)
	bad := ob.NewRecordBatch()
	ob.Release()
	defer bad.Release()
	rdr, err = array.NewRecordReader(other, []arrow.RecordBatch{bad})
	require.NoError(t, err)
	n, err = appendReader(ctx, c, "ev", rdr)
	rdr.Release()
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	assert.ErrorContains(t, err, "record has 1 columns")
	assert.Zero(t, n)

	_, err = appendReader(ctx, c, "ev", nil)
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	rdr, err = array.NewRecordReader(eventsSchema, batches[:1])
	require.NoError(t, err)
	_, err = appendReader(ctx, c, "kv", rdr)
	rdr.Release()
	assert.ErrorIs(t, err, flussql.ErrNotSupported, "a primary-key table")
	assert.ErrorIs(t, err, flussql.ErrNotWritten)

	// A cancelled context: nothing waits, and the error is the caller's.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	rdr, err = array.NewRecordReader(eventsSchema, batches[:1])
	require.NoError(t, err)
	_, err = appendReader(cctx, c, "ev", rdr)
	rdr.Release()
	assert.ErrorIs(t, err, context.Canceled)
	oneOutcome(t, err)
}

func TestFakeAppendArrowReader(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db,
		"CREATE TABLE ev (id BIGINT, name STRING) WITH ('bucket.num' = '4')",
		"CREATE TABLE kv (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED)",
	)
	checkAppendArrowReader(t, fakeCtx(t), db)
}

func TestAppendArrowReader(t *testing.T) {
	_, name := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dbIn, err := sql.Open("fluss", "fluss://"+realcluster.Addr(t)+"/"+name)
	require.NoError(t, err)
	defer dbIn.Close()
	mustExec(t, dbIn,
		"CREATE TABLE ev (id BIGINT, name STRING) WITH ('bucket.num' = '4')",
		"CREATE TABLE kv (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED)",
	)
	checkAppendArrowReader(t, ctx, dbIn)
}
