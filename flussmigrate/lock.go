package flussmigrate

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/golang-migrate/migrate/v4/database"
)

// The lock (see the package doc): a first_row table of epochs; the latest epoch's row is the
// lock's state, and every change claims the next epoch, which exactly one writer wins.
// Epochs are dense (a claim of e+1 follows a read of e), so the latest is found with point
// lookups, galloping from the last one seen (Fluss 0.9 cannot scan a primary-key table).

const (
	stateLocked   = "locked"
	stateReleased = "released"
	lockPoll      = 200 * time.Millisecond
)

// lockRow is one epoch of the lock table.
type lockRow struct {
	state, owner string
	expiresMs    int64
}

// heldLock is the lock this driver holds: its epoch (renewals move it) and the renewer.
type heldLock struct {
	owner string
	stop  chan struct{}
	done  chan struct{}

	mu    sync.Mutex
	epoch int64
	lost  error // the renewer found the lock taken over
}

// Lock takes the advisory lock (see the package doc): at once when it is free or its
// holder's expiry has passed, else it polls for up to LockTimeout and then returns an error
// matching database.ErrLocked that names the holder. A second Lock of the same driver
// before Unlock fails at once with database.ErrLocked.
func (f *Fluss) Lock() error {
	if !f.inProcess.TryLock() {
		return fmt.Errorf("%w: this driver holds it already", database.ErrLocked)
	}
	h, err := f.acquire()
	if err != nil {
		f.inProcess.Unlock()
		return err
	}
	f.mu.Lock()
	f.lock = h
	f.mu.Unlock()
	go f.renew(h)
	return nil
}

// acquire claims the next epoch as "locked" once the latest is free.
func (f *Fluss) acquire() (*heldLock, error) {
	ctx, cancel := context.WithTimeout(context.Background(), f.cfg.LockTimeout)
	defer cancel()
	owner := newOwner()
	for {
		epoch, row, err := f.latest(ctx)
		if err != nil {
			return nil, f.lockErr(err)
		}
		now := time.Now()
		switch {
		case epoch < 0 || row.state == stateReleased:
			mine := lockRow{state: stateLocked, owner: owner, expiresMs: now.Add(f.cfg.LockTTL).UnixMilli()}
			won, err := f.claim(ctx, epoch+1, mine)
			if err != nil {
				return nil, f.lockErr(err)
			}
			if won {
				return &heldLock{owner: owner, epoch: epoch + 1, stop: make(chan struct{}), done: make(chan struct{})}, nil
			}
			continue // another process took epoch+1: read it
		case now.UnixMilli() > row.expiresMs:
			// Its holder stopped renewing it: release it in its name. Whoever wins the
			// release, the next round claims the epoch after it.
			breaker := lockRow{state: stateReleased, owner: "expired lock of " + row.owner + ", broken by " + owner, expiresMs: now.UnixMilli()}
			if _, err := f.claim(ctx, epoch+1, breaker); err != nil {
				return nil, f.lockErr(err)
			}
			continue
		}
		held := fmt.Errorf("%w: %s is held by %s (epoch %d) until %s unless renewed; waited %s (x-lock-timeout)",
			database.ErrLocked, f.cfg.LockTable, row.owner, epoch, time.UnixMilli(row.expiresMs).UTC().Format(time.RFC3339), f.cfg.LockTimeout)
		select {
		case <-ctx.Done():
			return nil, held
		case <-time.After(lockPoll):
		}
	}
}

// lockErr names the lock table in a failure to read or write it; running out of
// LockTimeout in a request is reported as ErrLocked.
func (f *Fluss) lockErr(err error) error {
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: the lock table %s did not answer within %s (x-lock-timeout): %v", database.ErrLocked, f.cfg.LockTable, f.cfg.LockTimeout, err)
	}
	return fmt.Errorf("flussmigrate: lock table %s: %w", f.cfg.LockTable, err)
}

// renew claims the next epoch for h's owner every LockTTL/3 until Unlock stops it, or
// until another process has broken the lock (then Unlock reports it).
func (f *Fluss) renew(h *heldLock) {
	defer close(h.done)
	tick := time.NewTicker(f.cfg.LockTTL / 3)
	defer tick.Stop()
	for {
		select {
		case <-h.stop:
			return
		case <-tick.C:
		}
		h.mu.Lock()
		ctx, cancel := context.WithTimeout(context.Background(), f.cfg.LockTTL/3)
		mine := lockRow{state: stateLocked, owner: h.owner, expiresMs: time.Now().Add(f.cfg.LockTTL).UnixMilli()}
		won, got, err := f.claimRow(ctx, h.epoch+1, mine)
		cancel()
		switch {
		case err != nil: // try again at the next tick; the lock lives until its expiry
		case won:
			h.epoch++
		default:
			h.lost = fmt.Errorf("the lock expired and was taken over at epoch %d (%s by %s)", h.epoch+1, got.state, got.owner)
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
	}
}

// Unlock releases the lock: the renewer stops and the next epoch becomes "released". It
// fails with database.ErrNotLocked when this driver holds no lock, and with an error saying
// so when the lock had expired and another process took it over meanwhile.
func (f *Fluss) Unlock() error {
	f.mu.Lock()
	h := f.lock
	f.lock = nil
	f.mu.Unlock()
	if h == nil {
		return database.ErrNotLocked
	}
	defer f.inProcess.Unlock()
	close(h.stop)
	<-h.done
	if h.lost != nil {
		return fmt.Errorf("flussmigrate: unlock: %w; another migration may have run meanwhile", h.lost)
	}
	ctx, cancel := context.WithTimeout(context.Background(), f.cfg.LockTimeout)
	defer cancel()
	won, got, err := f.claimRow(ctx, h.epoch+1, lockRow{state: stateReleased, owner: h.owner, expiresMs: time.Now().UnixMilli()})
	switch {
	case err != nil:
		return fmt.Errorf("flussmigrate: unlock: %w (the lock is freed when it expires, within %s)", err, f.cfg.LockTTL)
	case !won:
		return fmt.Errorf("flussmigrate: unlock: the lock expired and was taken over at epoch %d (%s by %s); another migration may have run meanwhile", h.epoch+1, got.state, got.owner)
	}
	return nil
}

// claim writes row as epoch unless the epoch exists, and reports whether row is now the
// epoch's (first_row keeps the first write of a key; the lookup after the acknowledged
// write reads what the leader kept).
func (f *Fluss) claim(ctx context.Context, epoch int64, row lockRow) (bool, error) {
	won, _, err := f.claimRow(ctx, epoch, row)
	return won, err
}

func (f *Fluss) claimRow(ctx context.Context, epoch int64, row lockRow) (bool, lockRow, error) {
	_, writeErr := f.db.ExecContext(ctx, "INSERT INTO "+f.lockTable+" (epoch, state, owner, expires_ms) VALUES (?, ?, ?, ?)",
		epoch, row.state, row.owner, row.expiresMs)
	// After a failed write the lookup still tells whether the row was written (an
	// acknowledgement lost on the way back) and kept: then the claim is won all the same.
	got, ok, err := f.epochRow(ctx, epoch)
	switch {
	case writeErr != nil && (err != nil || !ok || got.owner != row.owner || got.state != row.state):
		return false, lockRow{}, writeErr
	case err != nil:
		return false, lockRow{}, err
	case !ok:
		return false, lockRow{}, fmt.Errorf("epoch %d is missing right after it was written", epoch)
	}
	if epoch > f.hint.Load() {
		f.hint.Store(epoch)
	}
	return got.owner == row.owner && got.state == row.state, got, nil
}

// epochRow looks one epoch up.
func (f *Fluss) epochRow(ctx context.Context, epoch int64) (lockRow, bool, error) {
	var r lockRow
	err := f.db.QueryRowContext(ctx, "SELECT state, owner, expires_ms FROM "+f.lockTable+" WHERE epoch = ?", epoch).
		Scan(&r.state, &r.owner, &r.expiresMs)
	if errors.Is(err, sql.ErrNoRows) {
		return lockRow{}, false, nil
	}
	return r, err == nil, err
}

// latest finds the highest epoch and its row (-1 when the table is empty): from the last
// epoch seen, doubling the step while epochs exist, then halving the gap.
func (f *Fluss) latest(ctx context.Context) (int64, lockRow, error) {
	lo := max(f.hint.Load(), 0)
	row, ok, err := f.epochRow(ctx, lo)
	if err != nil {
		return 0, lockRow{}, err
	}
	if !ok && lo > 0 { // the table was made again: start over
		lo = 0
		if row, ok, err = f.epochRow(ctx, 0); err != nil {
			return 0, lockRow{}, err
		}
	}
	if !ok {
		return -1, lockRow{}, nil
	}
	hi := lo
	for step := int64(1); ; step *= 2 {
		hi = lo + step
		r, ok, err := f.epochRow(ctx, hi)
		if err != nil {
			return 0, lockRow{}, err
		}
		if !ok {
			break
		}
		lo, row = hi, r
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		r, ok, err := f.epochRow(ctx, mid)
		if err != nil {
			return 0, lockRow{}, err
		}
		if ok {
			lo, row = mid, r
		} else {
			hi = mid
		}
	}
	f.hint.Store(lo)
	return lo, row, nil
}

// newOwner names a lock holder: host, process and a random part (one per Lock).
func newOwner() string {
	host, _ := os.Hostname()
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return fmt.Sprintf("%s/pid %d/%s", host, os.Getpid(), hex.EncodeToString(b))
}
