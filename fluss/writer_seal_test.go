package fluss

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blockingContent is a batch content whose seal waits until it is let go, and which
// records what was done to it.
type blockingContent struct {
	started  chan struct{}
	proceed  chan struct{}
	sealErr  error
	seals    atomic.Int32
	releases atomic.Int32
	// releasedDuringSeal is set when release ran while seal was still running.
	sealing            atomic.Bool
	releasedDuringSeal atomic.Bool
}

func newBlockingContent() *blockingContent {
	return &blockingContent{started: make(chan struct{}), proceed: make(chan struct{})}
}

func (c *blockingContent) seal() ([]byte, error) {
	c.sealing.Store(true)
	defer c.sealing.Store(false)
	c.seals.Add(1)
	close(c.started)
	<-c.proceed
	return []byte("sealed"), c.sealErr
}

func (c *blockingContent) setWriterState([]byte, int64, int32) error { return nil }

func (c *blockingContent) release() {
	if c.sealing.Load() {
		c.releasedDuringSeal.Store(true)
	}
	c.releases.Add(1)
}

func sealTestWriter() *writerCore {
	return &writerCore{sealSlots: newSealSlots(), idle: make(chan struct{}), memFreed: make(chan struct{}), pending: 1}
}

func TestSealInBackground(t *testing.T) {
	t.Run("the encoding is ready for the sender", func(t *testing.T) {
		w := sealTestWriter()
		c := newBlockingContent()
		b := &writeBatch{content: c}
		w.mu.Lock()
		w.startSealLocked(b)
		w.startSealLocked(b) // a second close of the same batch starts nothing
		w.mu.Unlock()
		<-c.started
		close(c.proceed)
		require.NoError(t, b.awaitSeal())
		assert.Equal(t, []byte("sealed"), b.data)
		assert.EqualValues(t, 1, c.seals.Load())
		assert.EqualValues(t, 0, c.releases.Load(), "the batch is not finished: its content stays")
	})
	t.Run("an encoding error reaches the sender", func(t *testing.T) {
		w := sealTestWriter()
		c := newBlockingContent()
		c.sealErr = errors.New("bad row")
		b := &writeBatch{content: c}
		w.mu.Lock()
		w.startSealLocked(b)
		w.mu.Unlock()
		close(c.proceed)
		assert.EqualError(t, b.awaitSeal(), "bad row")
	})
	t.Run("a batch finished while it is encoded is freed once, after the encoding", func(t *testing.T) {
		w := sealTestWriter()
		c := newBlockingContent()
		b := &writeBatch{content: c}
		w.mu.Lock()
		w.startSealLocked(b)
		w.mu.Unlock()
		<-c.started
		w.mu.Lock()
		w.finishLocked(b) // e.g. given up on by its statement's deadline
		w.mu.Unlock()
		assert.EqualValues(t, 0, c.releases.Load(), "freed under the running encoding")
		close(c.proceed)
		w.sealing.Wait()
		assert.EqualValues(t, 1, c.releases.Load())
		assert.False(t, c.releasedDuringSeal.Load())
		assert.Nil(t, b.data, "a finished batch keeps no encoding")
	})
	t.Run("a batch finished before its turn is never encoded", func(t *testing.T) {
		w := sealTestWriter()
		w.sealSlots = make(chan struct{}, 1)
		w.sealSlots <- struct{}{} // every slot taken
		c := newBlockingContent()
		b := &writeBatch{content: c}
		w.mu.Lock()
		w.startSealLocked(b)
		w.finishLocked(b)
		w.mu.Unlock()
		<-w.sealSlots // its turn comes
		w.sealing.Wait()
		assert.EqualValues(t, 0, c.seals.Load())
		assert.EqualValues(t, 1, c.releases.Load())
	})
	t.Run("no more encodings at once than slots", func(t *testing.T) {
		w := sealTestWriter()
		w.sealSlots = make(chan struct{}, 2)
		w.pending = 6
		var contents []*blockingContent
		for range 6 {
			c := newBlockingContent()
			contents = append(contents, c)
			w.mu.Lock()
			w.startSealLocked(&writeBatch{content: c})
			w.mu.Unlock()
		}
		// Wait for the two that can run; the others wait for a slot.
		seals := func() int {
			n := 0
			for _, c := range contents {
				n += int(c.seals.Load())
			}
			return n
		}
		for seals() < 2 {
			runtime.Gosched()
		}
		for range 100 {
			runtime.Gosched() // give a wrongly started third one its chance to show
		}
		assert.Equal(t, 2, seals(), "encodings at once")
		for _, c := range contents {
			close(c.proceed)
		}
		w.sealing.Wait()
		for _, c := range contents {
			assert.EqualValues(t, 1, c.seals.Load())
		}
	})
}
