package engine

import (
	"fmt"
	"sync/atomic"
)

// Budget bounds the memory that the state of one query's operators
// (aggregation groups, sort buffers, DISTINCT sets) may hold. It is safe for
// concurrent use.
type Budget struct {
	// Limit is the bound in bytes; 0 or less means no bound.
	Limit int64
	// Setting names the knob that sets Limit (e.g. the DSN key
	// "query_memory"); errors name it.
	Setting string
	used    atomic.Int64
}

// MemoryError reports that an operator's state outgrew the budget.
type MemoryError struct {
	Limit    int64
	Setting  string
	Operator string
}

// Error names the budget, the operator and the setting to raise.
func (e *MemoryError) Error() string {
	s := fmt.Sprintf("query memory budget of %s exceeded by the %s state", FormatBytes(e.Limit), e.Operator)
	if e.Setting != "" {
		s += fmt.Sprintf("; raise %s (now %s)", e.Setting, FormatBytes(e.Limit))
	}
	return s
}

// Grow accounts n more bytes for operator op.
func (b *Budget) Grow(n int64, op string) error {
	if b == nil {
		return nil
	}
	if u := b.used.Add(n); b.Limit > 0 && u > b.Limit {
		return &MemoryError{Limit: b.Limit, Setting: b.Setting, Operator: op}
	}
	return nil
}

// Shrink gives n bytes back.
func (b *Budget) Shrink(n int64) {
	if b != nil {
		b.used.Add(-n)
	}
}

// Used reports the bytes accounted now.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// FormatBytes renders n as e.g. 256MiB, 1GiB or 1000B.
func FormatBytes(n int64) string {
	for _, u := range []struct {
		s string
		n int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n >= u.n && n%u.n == 0 {
			return fmt.Sprintf("%d%s", n/u.n, u.s)
		}
	}
	return fmt.Sprintf("%dB", n)
}
