package authz_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

// TestRevokedReaderIsDenied: a pool that has read a table (its table info cached by the
// catalog) and then loses the grant must be told it was denied, not that the table does not
// exist: the servers' metadata hides a table the user may not describe, and that must not
// read as a dropped table. The first failure after DROP ACL is ErrPermissionDenied.
func TestRevokedReaderIsDenied(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	dbName := fixture(t, admin)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// warm is what the pool ran before the revocation: the statement itself (the wire
	// client's metadata cached too), or only DESCRIBE (the catalog's table info cached, the
	// table's metadata asked for after the revocation).
	for _, tc := range []struct{ name, table, read, warm string }{
		{"log scan", "logt", "SELECT * FROM DB.logt LIMIT 1", ""},
		{"lookup", "pkt", "SELECT * FROM DB.pkt WHERE a = 1", ""},
		{"log scan after describe", "logt", "SELECT * FROM DB.logt LIMIT 1", "DESCRIBE DB.logt"},
		{"lookup after describe", "pkt", "SELECT * FROM DB.pkt WHERE a = 1", "DESCRIBE DB.pkt"},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			read := query(tc.read)
			grant := fmt.Sprintf("CREATE ACL (resource => '%s.%s', principal => 'User:alice', operation => 'READ')", dbName, tc.table)
			mustExec(t, admin, grant)
			alice := open(t, "alice", alicePass)
			if tc.warm == "" {
				eventually(t, func() error { return read(ctx, alice, dbName) }, "after "+grant)
				require.NoError(t, read(ctx, alice, dbName), "the pool is warm")
			} else {
				eventually(t, func() error { return query(tc.warm)(ctx, alice, dbName) }, "after "+grant)
			}

			mustExec(t, admin, fmt.Sprintf("DROP ACL (resource => '%s.%s', principal => 'User:alice')", dbName, tc.table))
			var attempts int
			err, ok := poll(func() error { attempts++; return read(ctx, alice, dbName) }, func(err error) bool { return err != nil })
			require.True(t, ok, "alice can still read after DROP ACL (%d attempts)", attempts)
			// The first failure and every one after it (the catalog still holds the table's
			// info; the servers' metadata no longer shows the table to alice) say why.
			for i := 0; i < 5; i++ {
				if i > 0 {
					err = read(ctx, alice, dbName)
				}
				require.Error(t, err, "statement %d after the first refusal", i)
				assert.ErrorIs(t, err, flussql.ErrPermissionDenied, "statement %d after the first refusal", i)
				assert.False(t, errors.Is(err, fluss.ErrTableNotExist), "the table exists: %v", err)
				var pe *flussql.PermissionError
				if assert.ErrorAs(t, err, &pe) {
					assert.Equal(t, dbName+"."+tc.table, pe.Resource)
				}
			}
		})
	}
}

// TestDroppedTableIsNotExist: a table dropped while another pool has its info cached is
// reported as not existing from the first statement that fails after the drop (not as
// denied), whether that pool's wire client had the table's metadata (a scan before) or not
// (only DESCRIBE before).
func TestDroppedTableIsNotExist(t *testing.T) {
	needCluster(t)
	admin := open(t, "admin", adminPass)
	for _, warm := range []string{"SELECT * FROM DB.logt LIMIT 1", "DESCRIBE DB.logt"} {
		t.Run(strings.Fields(warm)[0], func(t *testing.T) {
			other := open(t, "admin", adminPass)
			dbName := fixture(t, admin)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			read := query("SELECT * FROM DB.logt LIMIT 1")
			require.NoError(t, query(warm)(ctx, other, dbName), "the pool is warm")
			mustExec(t, admin, "DROP TABLE "+dbName+".logt")
			// The replicas go a moment after the drop; from the first failure on, every
			// statement says the table does not exist.
			err, ok := poll(func() error { return read(ctx, other, dbName) }, func(err error) bool { return err != nil })
			require.True(t, ok, "the dropped table can still be read")
			for i := 0; i < 5; i++ {
				if i > 0 {
					err = read(ctx, other, dbName)
				}
				require.Error(t, err)
				assert.ErrorIs(t, err, fluss.ErrTableNotExist, "statement %d after the first failure", i)
				assert.NotErrorIs(t, err, flussql.ErrPermissionDenied)
			}
		})
	}
}
