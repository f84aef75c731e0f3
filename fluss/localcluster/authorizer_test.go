package localcluster

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteConfigsAuthorizer(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf"), 0o755))
	require.NoError(t, writeConfigs(dir, configSpec{zkPort: 2181, csPort: 9123, csInternalPort: 9122,
		sasl: map[string]string{"admin": "secret", "alice": "a-pw"}, superUsers: []string{"admin"}}))
	y, err := os.ReadFile(filepath.Join(dir, "conf", "server.yaml"))
	require.NoError(t, err)
	assert.Contains(t, string(y), "authorizer.enabled: true\n")
	assert.Contains(t, string(y), "super.users: User:admin\n")
	assert.Contains(t, string(y), "security.protocol.map: CLIENT:sasl\n")

	require.NoError(t, writeConfigs(dir, configSpec{zkPort: 2181, csPort: 9123, csInternalPort: 9122, sasl: map[string]string{"admin": "secret"}}))
	y, err = os.ReadFile(filepath.Join(dir, "conf", "server.yaml"))
	require.NoError(t, err)
	assert.NotContains(t, string(y), "authorizer")
	assert.NotContains(t, string(y), "super.users")
}

func TestStartRefusesBadSuperUsers(t *testing.T) {
	if _, err := findJava(); err != nil {
		t.Skip("no java:", err)
	}
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"no SASL", Options{SuperUsers: []string{"admin"}}, "needs SASLUsers"},
		{"unknown super user", Options{SASLUsers: map[string]string{"alice": "pw"}, SuperUsers: []string{"admin"}}, `super user "admin" is not one of the SASL users`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Start(context.Background(), tt.opts)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
