package fluss_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestServerVersion detects the test cluster's release line from its ApiVersions answers;
// serverVersion also checks it against the version the launcher ran (FLUSS_SERVER_VERSION).
func TestServerVersion(t *testing.T) {
	c := connect(t)
	v := serverVersion(t, c)
	t.Logf("the test cluster speaks Fluss %s", v)
	assert.True(t, v.AtLeast(0, 9), "this client needs Fluss 0.9+ (PUT_KV and LOOKUP v1), the cluster speaks %s", v)
}
