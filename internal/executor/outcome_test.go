package executor

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
)

// Every failed write statement matches exactly one outcome, and keeps its message.
func TestWriteOutcome(t *testing.T) {
	refused := &fluss.Error{Code: flusserr.NetworkException, Message: "dial tcp 127.0.0.1:1: connect: connection refused", NotSent: true}
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"planning error", errors.New("flussql: column x does not exist"), ErrNotWritten},
		{"refused dial", refused, ErrNotWritten},
		{"missing partition", fmt.Errorf("flussql: %w", fluss.ErrPartitionNotExists), ErrNotWritten},
		{"receipt: unknown", &fluss.WriteError{Unknown: 1, Cause: context.DeadlineExceeded}, ErrOutcomeUnknown},
		{"receipt: not written", &fluss.WriteError{NotWritten: 2, Cause: flusserr.RecordTooLargeException}, ErrNotWritten},
		{"receipt: partial", &fluss.WriteError{Written: 1, NotWritten: 2, Cause: flusserr.RecordTooLargeException}, ErrPartiallyWritten},
	}
	outcomes := []error{ErrNotWritten, ErrOutcomeUnknown, ErrPartiallyWritten}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := writeOutcome(tt.err)
			for _, o := range outcomes {
				assert.Equal(t, o == tt.want, errors.Is(got, o), "%v", o)
			}
			assert.ErrorIs(t, got, tt.err)
			assert.Contains(t, got.Error(), tt.err.Error(), "the cause's message is kept")
		})
	}
	assert.NoError(t, writeOutcome(nil))
}

// A DDL statement whose request may have reached the coordinator without an answer has an
// unknown outcome; one refused by the coordinator, or never sent, does not.
func TestDDLOutcome(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		unknown bool
	}{
		{"nil", nil, false},
		{"never sent", &fluss.Error{Code: flusserr.NetworkException, NotSent: true}, false},
		{"connection lost after sending", &fluss.Error{Code: flusserr.NetworkException, Message: "connection reset"}, true},
		{"timeout", &fluss.Error{Code: flusserr.RequestTimeOut}, true},
		{"caller's deadline", fmt.Errorf("waiting: %w", context.DeadlineExceeded), true},
		{"the coordinator's answer", &fluss.Error{Code: flusserr.TableAlreadyExist}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ddlOutcome(tt.err)
			assert.Equal(t, tt.unknown, errors.Is(got, ErrOutcomeUnknown))
			if tt.err != nil {
				assert.ErrorIs(t, got, tt.err)
			}
		})
	}
}
