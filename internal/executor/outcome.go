package executor

import (
	"context"
	"errors"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/parser"
)

// ErrNotSupported is wrapped by every error about a statement, clause or type that
// flussql does not support (yet); flussql.ErrNotSupported is this value.
var ErrNotSupported = parser.ErrNotSupported

// The outcome sentinels of a failed write (flussql's are these values).
var (
	ErrNotWritten       = fluss.ErrNotWritten
	ErrOutcomeUnknown   = fluss.ErrOutcomeUnknown
	ErrPartiallyWritten = fluss.ErrPartiallyWritten
)

// notWrittenError marks an error of a write statement that stored nothing, keeping its
// message.
type notWrittenError struct{ err error }

func (e *notWrittenError) Error() string   { return e.err.Error() }
func (e *notWrittenError) Unwrap() []error { return []error{e.err, ErrNotWritten} }

// writeOutcome makes the error of a write statement match exactly one outcome sentinel:
// errors that are not already an outcome (planning, a missing partition, a refused dial
// before anything was sent) stored nothing.
func writeOutcome(err error) error {
	if err == nil || errors.Is(err, ErrNotWritten) || errors.Is(err, ErrOutcomeUnknown) || errors.Is(err, ErrPartiallyWritten) {
		return err
	}
	return &notWrittenError{err}
}

// ddlOutcome marks the error of an administrative statement (CREATE, DROP, ALTER) whose
// request may have reached the coordinator without an answer coming back — a lost
// connection or a timeout after sending — as ErrOutcomeUnknown: the change may or may not
// have been made.
func ddlOutcome(err error) error {
	if err == nil {
		return nil
	}
	var fe *fluss.Error
	if errors.As(err, &fe) {
		if fe.NotSent || (fe.Code != flusserr.NetworkException && fe.Code != flusserr.RequestTimeOut) {
			return err // not sent, or the coordinator's own answer
		}
		return &outcomeUnknownError{err}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &outcomeUnknownError{err}
	}
	return err
}

// outcomeUnknownError marks an error after which the statement may or may not have taken
// effect.
type outcomeUnknownError struct{ err error }

func (e *outcomeUnknownError) Error() string {
	return e.err.Error() + " (the statement may or may not have taken effect)"
}
func (e *outcomeUnknownError) Unwrap() []error { return []error{e.err, ErrOutcomeUnknown} }
