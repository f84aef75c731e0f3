package fluss

import (
	"runtime"
	"sync"

	"github.com/flussql/flussql/fluss/internal/logbatch"
)

// arrowEncoderPool keeps a writer's Arrow encoders between batches. Unlike a sync.Pool it
// does not drop them at garbage collections: an encoder holds arrow-go's IPC writer and
// its zstd compressor, which are costly to build again, and an Arrow append of large
// batches collects garbage often. It keeps at most two encoders per CPU; more are made
// when more batches are encoded at once, and closed when they come back.
type arrowEncoderPool struct {
	newEncoder func() (*logbatch.ArrowEncoder, error)

	mu   sync.Mutex
	free []*logbatch.ArrowEncoder
}

func newArrowEncoderPool(newEncoder func() (*logbatch.ArrowEncoder, error)) *arrowEncoderPool {
	return &arrowEncoderPool{newEncoder: newEncoder}
}

// get returns a free encoder, or a new one.
func (p *arrowEncoderPool) get() (*logbatch.ArrowEncoder, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		e := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return e, nil
	}
	p.mu.Unlock()
	return p.newEncoder()
}

// put gives an encoder back for the next batch.
func (p *arrowEncoderPool) put(e *logbatch.ArrowEncoder) {
	p.mu.Lock()
	if len(p.free) < 2*runtime.GOMAXPROCS(0) {
		p.free = append(p.free, e)
		e = nil
	}
	p.mu.Unlock()
	if e != nil {
		_ = e.Close()
	}
}
