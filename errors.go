package flussql

import (
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/internal/executor"
)

// ErrNotSupported is wrapped by every error about a statement, clause or type that
// flussql does not support (yet). The message says what is supported instead.
var ErrNotSupported = executor.ErrNotSupported

// The outcome of a failed write statement (INSERT, UPSERT, DELETE, UPDATE, a transaction's
// Commit, AppendArrow), tested with errors.Is. Exactly one of them matches the error of a
// failed write; a nil error means every row was acknowledged by the server.
var (
	// ErrNotWritten: none of the statement's rows was stored — nothing was sent, or the
	// server refused the rows. Running the statement again cannot duplicate them.
	ErrNotWritten = fluss.ErrNotWritten
	// ErrOutcomeUnknown: some rows were sent and not acknowledged before the statement's
	// deadline (or the last retry); they may or may not be stored. flussql does not send
	// them again after returning this. Check (e.g. look the keys up) before writing again
	// to a log table; an upsert of the same rows is safe to repeat.
	ErrOutcomeUnknown = fluss.ErrOutcomeUnknown
	// ErrPartiallyWritten: some rows were acknowledged and the others provably not stored
	// (a write across buckets is not atomic); the error counts both (fluss.WriteError).
	ErrPartiallyWritten = fluss.ErrPartiallyWritten
)
