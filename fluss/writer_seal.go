package fluss

import "runtime"

// Sealing — encoding and compressing a closed batch — starts as soon as the
// batch is closed, not when it is sent: a bucket has one batch in flight at a
// time (the server's idempotence needs its sequences in order), and without
// this its next batch would only start compressing once the previous one was
// acknowledged, so every round trip would also wait for a compression. At most
// GOMAXPROCS batches of a writer are sealed at once.

// sealState is a batch's encoding in the background.
type sealState struct {
	done   chan struct{} // closed when the encoding is finished (or skipped)
	err    error         // why the encoding failed, read after done
	sealed bool          // set under the writer's lock when the goroutine is finished
}

func newSealSlots() chan struct{} { return make(chan struct{}, max(runtime.GOMAXPROCS(0), 1)) }

// startSealLocked starts encoding b, which was just closed, in the background.
func (w *writerCore) startSealLocked(b *writeBatch) {
	if b.seal != nil || b.data != nil {
		return
	}
	s := &sealState{done: make(chan struct{})}
	b.seal = s
	w.sealing.Add(1)
	go func() {
		defer w.sealing.Done()
		defer close(s.done)
		w.sealSlots <- struct{}{}
		w.mu.Lock()
		ended := b.ended
		w.mu.Unlock()
		var data []byte
		var err error
		if !ended { // a batch given up on before its turn is not encoded
			data, err = b.content.seal()
		}
		<-w.sealSlots
		w.mu.Lock()
		defer w.mu.Unlock()
		s.sealed = true
		if b.ended {
			// finishLocked left the content to us (it was being encoded).
			b.content.release()
			return
		}
		b.data, s.err = data, err
	}()
}

// releaseContentLocked frees b's content, unless it is being encoded: the
// encoding goroutine frees it when it is done.
func (w *writerCore) releaseContentLocked(b *writeBatch) {
	if b.seal == nil || b.seal.sealed {
		b.content.release()
	}
}

// awaitSeal waits until b's background encoding (if one was started) is
// finished and returns its error.
func (b *writeBatch) awaitSeal() error {
	if b.seal == nil {
		return nil
	}
	<-b.seal.done
	return b.seal.err
}
