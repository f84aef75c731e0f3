package fluss

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/stretchr/testify/assert"
)

// Which failed sends may have stored a batch: only an answer that provably comes before
// the append, or a failure before a byte left, proves "not written".
func TestMaybeStored(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"refused dial", &Error{Code: flusserr.NetworkException, NotSent: true}, false},
		{"connection lost after the request left", &Error{Code: flusserr.NetworkException}, true},
		{"the client's deadline", context.DeadlineExceeded, true},
		{"the server's timeout waiting for replicas", &Error{Code: flusserr.RequestTimeOut}, true},
		{"appended, replicas short", &Error{Code: flusserr.NotEnoughReplicasAfterAppendException}, true},
		// acks=all: appended on the old leader, which lost the leadership while waiting.
		{"not the leader (maybe after the append)", &Error{Code: flusserr.NotLeaderOrFollower}, true},
		{"not enough replicas (before the append)", &Error{Code: flusserr.NotEnoughReplicasException}, false},
		{"fenced epoch", &Error{Code: flusserr.FencedLeaderEpochException}, false},
		{"too large", &Error{Code: flusserr.RecordTooLargeException}, false},
		{"no leader known", &unsentError{errors.New("no leader")}, false},
		{"client-side refusal", &permanentError{errors.New("bad row")}, false},
		{"wrapped refusal", fmt.Errorf("bucket 1: %w", &Error{Code: flusserr.OutOfOrderSequenceException}), false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, maybeStored(tt.err), tt.name)
	}
}
