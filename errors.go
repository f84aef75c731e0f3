package flussql

import "errors"

// ErrNotSupported is wrapped by every error about a statement, clause or type that
// flussql does not support (yet). The message says what is supported instead.
var ErrNotSupported = errors.New("not supported")
