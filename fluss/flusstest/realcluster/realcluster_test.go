package realcluster_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
)

func TestAddrs(t *testing.T) {
	t.Setenv(realcluster.EnvVar, "127.0.0.1:1,127.0.0.1:2")
	assert.True(t, realcluster.Configured())
	assert.Equal(t, "127.0.0.1:1,127.0.0.1:2", realcluster.Addr(t))
	assert.Equal(t, []string{"127.0.0.1:1", "127.0.0.1:2"}, realcluster.Addrs(t))
}

func TestUnsetSkips(t *testing.T) {
	t.Setenv(realcluster.EnvVar, "")
	assert.False(t, realcluster.Configured())
	skipped := false
	t.Run("integration", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		realcluster.Addr(t)
		t.Error("Addr returned with the variable unset")
	})
	assert.True(t, skipped)
}
