package flussql

import (
	"database/sql/driver"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss"
)

func TestClassifyBadConn(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		badConn bool
	}{
		{"nil", nil, false},
		{"network error before sending", &fluss.Error{Code: fluss.CodeNetworkException, Message: "dial tcp: refused", NotSent: true}, true},
		{"network error after sending", &fluss.Error{Code: fluss.CodeNetworkException, Message: "connection reset"}, false},
		{"server error", fmt.Errorf("wrapped: %w", &fluss.Error{Code: fluss.CodeTableNotExist, NotSent: false}), false},
		{"client-side refusal", &fluss.Error{Code: fluss.CodeInvalidTableException, NotSent: true}, false},
		{"plain error", errors.New("boom"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &conn{}
			got := c.classify(tt.err)
			assert.Equal(t, tt.badConn, errors.Is(got, driver.ErrBadConn))
			assert.Equal(t, tt.badConn, !c.IsValid(), "a bad connection leaves the pool")
			if tt.err != nil {
				assert.Contains(t, got.Error(), tt.err.Error(), "the cause's message is kept")
			}
		})
	}
}
