package flusserr_test

import (
	"errors"
	"fmt"

	"github.com/flussql/flussql/fluss/flusserr"
)

// A Code is the errors.Is sentinel of its errors and says whether a retry can help.
func ExampleCode() {
	// An error wrapping a code, as a *fluss.Error that a server answered with it would match.
	err := fmt.Errorf("create table: %w", flusserr.InvalidTableException)

	fmt.Println(errors.Is(err, flusserr.InvalidTableException))
	fmt.Println(flusserr.InvalidTableException.String(), flusserr.InvalidTableException.Retriable())
	nl := flusserr.NotLeaderOrFollower
	fmt.Println(nl.String(), nl.Retriable(), nl.InvalidMetadata())
	fmt.Println(flusserr.Code(99).Known(), flusserr.Code(99).String())
	fmt.Println(err)
	// Output:
	// true
	// INVALID_TABLE_EXCEPTION false
	// NOT_LEADER_OR_FOLLOWER true true
	// false UNKNOWN_ERROR_CODE(99)
	// create table: fluss: INVALID_TABLE_EXCEPTION: The client has attempted to perform an operation on an invalid table.
}
