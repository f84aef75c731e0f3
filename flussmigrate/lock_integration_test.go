package flussmigrate_test

import (
	"database/sql"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-migrate/migrate/v4/database"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/flussmigrate"
)

// TestLockExcludesOtherDrivers: while one driver holds the lock, another's Lock waits its
// LockTimeout and fails with ErrLocked naming the table; after Unlock it gets the lock.
func TestLockExcludesOtherDrivers(t *testing.T) {
	db, _, _ := testDatabase(t)
	a, err := flussmigrate.WithInstance(db, nil)
	require.NoError(t, err)
	defer a.Close()
	b, err := flussmigrate.WithInstance(db, &flussmigrate.Config{LockTimeout: 3 * time.Second})
	require.NoError(t, err)
	defer b.Close()

	// Each takes and frees the lock first, a (with the default LockTimeout) before b: on a
	// fresh cluster, opening the first connection to the tablet server can take seconds.
	require.NoError(t, a.Lock())
	require.NoError(t, a.Unlock())
	require.NoError(t, b.Lock())
	require.NoError(t, b.Unlock())
	require.NoError(t, a.Lock())
	assert.ErrorIs(t, a.Lock(), database.ErrLocked, "a second Lock of the same driver")
	start := time.Now()
	err = b.Lock()
	assert.ErrorIs(t, err, database.ErrLocked)
	assert.Contains(t, err.Error(), "schema_migrations_lock is held by")
	assert.GreaterOrEqual(t, time.Since(start), 3*time.Second, "it waited LockTimeout")

	require.NoError(t, a.Unlock())
	assert.ErrorIs(t, a.Unlock(), database.ErrNotLocked)
	require.NoError(t, b.Lock())
	require.NoError(t, b.Unlock())
}

// TestLockRenewedAndExpired: a holder renews its lock, so it outlives LockTTL; a holder
// that stops renewing (here: a lock row written by hand, as a crashed process leaves it)
// loses it once its expiry has passed, and the breaker's release is recorded.
func TestLockRenewedAndExpired(t *testing.T) {
	db, _, _ := testDatabase(t)
	ttl := 2 * time.Second
	a, err := flussmigrate.WithInstance(db, &flussmigrate.Config{LockTTL: ttl})
	require.NoError(t, err)
	defer a.Close()
	b, err := flussmigrate.WithInstance(db, &flussmigrate.Config{LockTTL: ttl, LockTimeout: 2 * ttl})
	require.NoError(t, err)
	defer b.Close()

	require.NoError(t, a.Lock())
	assert.ErrorIs(t, b.Lock(), database.ErrLocked, "a renews its lock past its TTL")
	require.NoError(t, a.Unlock())

	// A crashed holder: the newest epoch is "locked" by ghost, expired a second ago.
	// (Fluss 0.9 cannot scan a primary-key table: walk the epochs by lookups.)
	last := int64(-1)
	for {
		var state string
		if err := db.QueryRow("SELECT state FROM schema_migrations_lock WHERE epoch = ?", last+1).Scan(&state); err != nil {
			require.ErrorIs(t, err, sql.ErrNoRows)
			break
		}
		last++
	}
	require.GreaterOrEqual(t, last, int64(3), "lock, renewals and release are epochs")
	_, err = db.Exec("INSERT INTO schema_migrations_lock VALUES (?, 'locked', 'ghost', ?)", last+1, time.Now().Add(-time.Second).UnixMilli())
	require.NoError(t, err)
	require.NoError(t, b.Lock())
	var owner string
	require.NoError(t, db.QueryRow("SELECT owner FROM schema_migrations_lock WHERE epoch = ?", last+2).Scan(&owner))
	assert.Contains(t, owner, "expired lock of ghost")
	require.NoError(t, b.Unlock())
}

// TestLockMutualExclusion: drivers that race for the lock at once hold it one at a time.
func TestLockMutualExclusion(t *testing.T) {
	db, _, _ := testDatabase(t)
	const n = 6
	var holders, most, done atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range n {
		d, err := flussmigrate.WithInstance(db, &flussmigrate.Config{LockTimeout: time.Minute})
		require.NoError(t, err)
		defer d.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := d.Lock(); err != nil {
				errs <- err
				return
			}
			now := holders.Add(1)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			time.Sleep(150 * time.Millisecond)
			holders.Add(-1)
			done.Add(1)
			if err := d.Unlock(); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	assert.Equal(t, int32(n), done.Load(), "every driver got the lock once")
	assert.Equal(t, int32(1), most.Load(), "never two holders at once")
}
