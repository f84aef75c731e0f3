package flussmigrate_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/flussmigrate"
)

// TestOpenRefusesBadURLs: mistakes in the URL fail before anything is dialled, naming the key.
func TestOpenRefusesBadURLs(t *testing.T) {
	tests := []struct{ url, want string }{
		{"fluss://127.0.0.1:1/db?x-lock-timout=5s", "unknown URL key x-lock-timout"},
		{"fluss://127.0.0.1:1/db?x-lock-timeout=soon", `x-lock-timeout="soon": want a positive duration`},
		{"fluss://127.0.0.1:1/db?x-lock-ttl=-1s", `x-lock-ttl="-1s": want a positive duration`},
		{"fluss://127.0.0.1:1/db?x-migrations-table=v&x-lock-table=v", "both v; name two tables"},
		{"fluss://127.0.0.1:1/db?lock_timeout=5s", "lock_timeout"}, // flussql's own check of its keys
		{"postgres://127.0.0.1:1/db", "fluss://"},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			_, err := (&flussmigrate.Fluss{}).Open(tt.url)
			assert.ErrorContains(t, err, tt.want)
		})
	}
}
