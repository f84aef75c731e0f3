// Package flusserr holds the error codes of the Fluss protocol: one Code constant per
// code of Fluss's Errors enum, with the code's name, the server's default message and
// whether sending the request again can help.
//
// A Code is also an error, the sentinel of its code for errors.Is: every *fluss.Error
// carrying code c matches c, so
//
//	if errors.Is(err, flusserr.InvalidTableException) { … }
//
// holds for any error (wrapped or not) that a Fluss server answered with
// INVALID_TABLE_EXCEPTION. The names are those of Fluss's Errors enum in Go case
// (INVALID_TABLE_EXCEPTION is InvalidTableException), so the name in an error message
// finds its constant. Package fluss keeps the few sentinels most callers test
// (fluss.ErrTableNotExist, …); each is the Code of this package, not a copy.
package flusserr

import "fmt"

// Code is a Fluss protocol error code. Codes are permanent: a server of any release
// means the same by the same number. A code this package does not know (one a newer
// server added) keeps its number and prints as UNKNOWN_ERROR_CODE(n).
type Code int32

// String returns the Fluss name of the code, e.g. "TABLE_NOT_EXIST", or
// "UNKNOWN_ERROR_CODE(99)" for a code this package does not know. (fmt prints a
// Code, an error, with its Error text; call String for the name alone.)
func (c Code) String() string {
	if info, ok := codes[c]; ok {
		return info.name
	}
	return fmt.Sprintf("UNKNOWN_ERROR_CODE(%d)", int32(c))
}

// Error returns "fluss: NAME: description", e.g. "fluss: TABLE_NOT_EXIST: The table
// does not exist.", which makes a Code an error of its own: the sentinel that
// errors.Is compares a *fluss.Error's code with.
func (c Code) Error() string {
	if d := c.Description(); d != "" {
		return "fluss: " + c.String() + ": " + d
	}
	return "fluss: " + c.String()
}

// Description returns the message a Fluss server sends with the code when it has
// nothing more specific to say, e.g. "The table does not exist."; "" for None and for
// codes this package does not know.
func (c Code) Description() string { return codes[c].text }

// Retriable reports whether a request that failed with the code may succeed if sent
// again (after a metadata refresh when InvalidMetadata also holds). Unknown codes are
// not retriable.
func (c Code) Retriable() bool { return codes[c].retriable }

// InvalidMetadata reports whether the code means the client's metadata (bucket
// leaders, servers) is stale and must be refreshed before a retry.
func (c Code) InvalidMetadata() bool { return codes[c].metadata }

// Known reports whether the code is one this package names (Fluss 0.9.1's -1..63 and
// the 1.0 line's 64..73).
func (c Code) Known() bool {
	_, ok := codes[c]
	return ok
}

// codeInfo is what the package knows of a code.
type codeInfo struct {
	name      string // the Fluss enum name
	text      string // the server's default message
	retriable bool
	metadata  bool // stale metadata: refresh, then retry
}
