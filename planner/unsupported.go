package planner

import (
	"fmt"

	"github.com/flussql/flussql/parser"
)

// ErrNotSupported is matched (errors.Is) by every planner error refusing a
// construct flussql does not support; it is parser.ErrNotSupported, and
// flussql.ErrNotSupported is the same value.
var ErrNotSupported = parser.ErrNotSupported

// unsupportedError is a refusal whose message names the construct (and
// what to write instead); it matches ErrNotSupported without changing the
// message.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }

// Is makes the error match ErrNotSupported.
func (e *unsupportedError) Is(target error) bool { return target == ErrNotSupported }

// notSupported formats a refusal of an unsupported construct; the message
// should say "… is not supported" and what to do instead.
func notSupported(format string, args ...any) error {
	return &unsupportedError{msg: fmt.Sprintf(format, args...)}
}
