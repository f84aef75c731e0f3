package logbatch

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// DefaultMaxAllocation is the default limit on one buffer allocated while
// decoding (a decompressed Arrow buffer, a column being built). It protects
// against corrupt or hostile size fields; Fluss batches are a few MiB.
const DefaultMaxAllocation = 256 << 20

// Option configures an encoder or decoder.
type Option func(*config)

type config struct {
	mem       memory.Allocator
	maxAlloc  int
	zstdLevel int
}

func newConfig(opts []Option) config {
	c := config{mem: memory.DefaultAllocator, maxAlloc: DefaultMaxAllocation, zstdLevel: DefaultZstdLevel}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// WithAllocator sets the Arrow allocator for decoded and encoded buffers.
func WithAllocator(mem memory.Allocator) Option {
	return func(c *config) {
		if mem != nil {
			c.mem = mem
		}
	}
}

// WithMaxAllocation limits the size of any single buffer a decoder allocates;
// larger requests fail the batch with ErrCorrupt. n <= 0 keeps the default.
func WithMaxAllocation(n int) Option {
	return func(c *config) {
		if n > 0 {
			c.maxAlloc = n
		}
	}
}

// WithZstdLevel sets an encoder's ZSTD level, the table's
// 'table.log.arrow.compression.zstd.level' (1–22; NewArrowEncoder refuses
// others). Levels map to klauspost/compress's four speeds as zstd's own
// levels do (zstd.EncoderLevelFromZstd): 1–2 fastest, 3–5 default, 6–9
// better, 10–22 best.
func WithZstdLevel(level int) Option {
	return func(c *config) { c.zstdLevel = level }
}

func errCorruptf(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// limitedAllocator refuses single allocations above a limit by panicking;
// arrow-go's IPC reader turns the panic into an error.
type limitedAllocator struct {
	memory.Allocator
	limit int
}

type allocationTooLarge struct{ size, limit int }

func (e allocationTooLarge) Error() string {
	return fmt.Sprintf("allocation of %d bytes exceeds the decoder limit of %d", e.size, e.limit)
}

func (a *limitedAllocator) Allocate(size int) []byte {
	if size < 0 || size > a.limit {
		panic(allocationTooLarge{size, a.limit})
	}
	return a.Allocator.Allocate(size)
}

func (a *limitedAllocator) Reallocate(size int, b []byte) []byte {
	if size < 0 || size > a.limit {
		panic(allocationTooLarge{size, a.limit})
	}
	return a.Allocator.Reallocate(size, b)
}
