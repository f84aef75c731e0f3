package flinkgw

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Error is a request the gateway refused or failed: a statement Flink could not parse,
// validate or run, an unknown session or operation. Messages are Flink's own, as the gateway
// sent them (the last one usually holds the Java stack trace with its "Caused by:" chain).
type Error struct {
	// Op names the request ("POST /v2/sessions/…/statements").
	Op string
	// Status is the HTTP status (0 when the gateway answered 200 with a malformed body).
	Status int
	// Messages are the entries of the gateway's {"errors": […]} answer, or its body.
	Messages []string
}

// Error gives Flink's root cause: the last "Caused by:" line of the messages, else their
// first line that is not the generic "Internal server error.".
func (e *Error) Error() string {
	return fmt.Sprintf("flinkgw: %s: HTTP %d: %s", e.Op, e.Status, e.Cause())
}

// Cause returns the most specific line of Flink's messages: the exception message deepest
// in the "Caused by:" chain, without its class name when it has a message of its own.
func (e *Error) Cause() string {
	var first, cause string
	for _, m := range e.Messages {
		for _, line := range strings.Split(m, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line == "Internal server error." {
				continue
			}
			if first == "" {
				first = line
			}
			if rest, ok := strings.CutPrefix(line, "Caused by: "); ok {
				cause = rest
			}
		}
	}
	if cause == "" {
		cause = first
	}
	if cause == "" {
		return "(no message)"
	}
	return cause
}

// newError builds the Error of a non-200 answer.
func newError(op string, status int, body []byte) *Error {
	var e struct {
		Errors []string `json:"errors"`
	}
	if json.Unmarshal(body, &e) == nil && len(e.Errors) > 0 {
		return &Error{Op: op, Status: status, Messages: e.Errors}
	}
	return &Error{Op: op, Status: status, Messages: []string{strings.TrimSpace(string(body))}}
}
