package flussql_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/flusstest"
)

// INSERT … SELECT is one statement with one outcome: the rows the query streams into the
// writer share one receipt, so a failed write says whether none, some or an unknown part of
// them were stored, as INSERT … VALUES does.
func TestFakeInsertSelectOutcomes(t *testing.T) {
	tooLarge := int32(flusserr.RecordTooLargeException)
	for _, tt := range []struct {
		name   string
		faults []flusstest.Fault
		want   error
		stored func(n int64) bool
	}{
		{"written", nil, nil, func(n int64) bool { return n == 6 }},
		{"refused by the server", []flusstest.Fault{{API: flusstest.ProduceLog, Action: flusstest.FailBuckets, Code: tooLarge, Times: -1}},
			flussql.ErrNotWritten, func(n int64) bool { return n == 0 }},
		{"no answer", []flusstest.Fault{{API: flusstest.ProduceLog, Action: flusstest.Drop, Times: -1}},
			flussql.ErrOutcomeUnknown, func(n int64) bool { return n == 0 }},
		{"one bucket refused", []flusstest.Fault{{API: flusstest.ProduceLog, Call: 1, Action: flusstest.FailBuckets, Code: tooLarge}},
			flussql.ErrPartiallyWritten, func(n int64) bool { return n > 0 && n < 6 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			db, fc := openFake(t, "timeout=500ms", flusstest.WithTabletServers(2))
			mustExec(t, db,
				"CREATE TABLE src (id BIGINT) WITH ('bucket.num' = '1')",
				"INSERT INTO src VALUES (1), (2), (3), (4), (5), (6)",
				"CREATE TABLE t (id BIGINT) WITH ('bucket.num' = '2', 'bucket.key' = 'id')")
			for _, f := range tt.faults {
				fc.Inject(f)
			}
			res, err := db.ExecContext(shortCtx(t), "INSERT INTO t SELECT id FROM src")
			if tt.want == nil {
				require.NoError(t, err)
				n, err := res.RowsAffected()
				require.NoError(t, err)
				assert.EqualValues(t, 6, n)
			} else {
				for _, o := range []error{flussql.ErrNotWritten, flussql.ErrOutcomeUnknown, flussql.ErrPartiallyWritten} {
					assert.Equal(t, o == tt.want, errors.Is(err, o), "%v: errors.Is(%v)", err, o)
				}
			}
			fc.ClearFaults()
			n := fc.LogEnd("fluss", "t", "", 0) + fc.LogEnd("fluss", "t", "", 1)
			assert.True(t, tt.stored(n), "%d rows stored", n)
		})
	}
}

// A row that does not convert stops the statement before it is handed to the writer; the
// rows before it, already handed over, are withdrawn or reported.
func TestFakeInsertSelectBadRow(t *testing.T) {
	db, fc := openFake(t, "")
	mustExec(t, db,
		"CREATE TABLE src (id BIGINT, s STRING) WITH ('bucket.num' = '1')",
		"INSERT INTO src VALUES (1, 'a'), (2, NULL), (3, 'c')",
		"CREATE TABLE t (id BIGINT, s STRING NOT NULL)")
	_, err := db.ExecContext(fakeCtx(t), "INSERT INTO t SELECT id, s FROM src")
	require.Error(t, err)
	assert.Contains(t, err.Error(), `row 2 of the query: column "s" is NOT NULL`)
	assert.True(t, errors.Is(err, flussql.ErrNotWritten) || errors.Is(err, flussql.ErrPartiallyWritten) || errors.Is(err, flussql.ErrOutcomeUnknown), "%v", err)
	assert.LessOrEqual(t, fc.LogEnd("fluss", "t", "", 0), int64(1), "the rows after the bad one were not written")
}

// Cancelling INSERT … SELECT stops the read and the writes: cancelled while reading, nothing
// was written; cancelled while its rows are at the server, their outcome is unknown.
func TestFakeInsertSelectCancel(t *testing.T) {
	for _, tc := range []struct {
		name string
		on   flusstest.APIKey
		want error
	}{
		{"while reading", flusstest.FetchLog, flussql.ErrNotWritten},
		{"while writing", flusstest.ProduceLog, flussql.ErrOutcomeUnknown},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, fc := openFake(t, "")
			mustExec(t, db,
				"CREATE TABLE src (id BIGINT) WITH ('bucket.num' = '1')",
				"INSERT INTO src VALUES (1), (2), (3)",
				"CREATE TABLE t (id BIGINT) WITH ('bucket.num' = '1')")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			fc.Inject(flusstest.Fault{API: tc.on, Action: flusstest.Drop, Times: -1})
			fc.OnRequest(func(api flusstest.APIKey, _ int32, _ int) {
				if api == tc.on {
					cancel() // no answer will come
				}
			})
			_, err := db.ExecContext(ctx, "INSERT INTO t SELECT id FROM src")
			fc.OnRequest(nil)
			fc.ClearFaults()
			assert.ErrorIs(t, err, context.Canceled)
			for _, o := range []error{flussql.ErrNotWritten, flussql.ErrOutcomeUnknown, flussql.ErrPartiallyWritten} {
				assert.Equal(t, o == tc.want, errors.Is(err, o), "%v: errors.Is(%v)", err, o)
			}
			if tc.want == flussql.ErrNotWritten {
				assert.Zero(t, fc.LogEnd("fluss", "t", "", 0))
			}
		})
	}
}
