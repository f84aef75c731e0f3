package fluss

import (
	"context"
	"errors"
	"fmt"
	"testing"

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
		{"refused dial", &Error{Code: CodeNetworkException, NotSent: true}, false},
		{"connection lost after the request left", &Error{Code: CodeNetworkException}, true},
		{"the client's deadline", context.DeadlineExceeded, true},
		{"the server's timeout waiting for replicas", &Error{Code: CodeRequestTimeOut}, true},
		{"appended, replicas short", &Error{Code: CodeNotEnoughReplicasAfterAppend}, true},
		// acks=all: appended on the old leader, which lost the leadership while waiting.
		{"not the leader (maybe after the append)", &Error{Code: CodeNotLeaderOrFollower}, true},
		{"not enough replicas (before the append)", &Error{Code: CodeNotEnoughReplicasException}, false},
		{"fenced epoch", &Error{Code: CodeFencedLeaderEpochException}, false},
		{"too large", &Error{Code: CodeRecordTooLargeException}, false},
		{"no leader known", &unsentError{errors.New("no leader")}, false},
		{"client-side refusal", &permanentError{errors.New("bad row")}, false},
		{"wrapped refusal", fmt.Errorf("bucket 1: %w", &Error{Code: CodeOutOfOrderSequenceException}), false},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, maybeStored(tt.err), tt.name)
	}
}
