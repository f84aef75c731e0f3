package fluss_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/localcluster"
)

// saslCluster is a SASL/PLAIN cluster and a user it knows.
type saslCluster struct {
	servers        []string
	user, password string
	// alice is true when the cluster also knows alice/alice-secret.
	alice bool
}

// saslBootstrap returns a SASL/PLAIN cluster: FLUSS_SASL_BOOTSTRAP_SERVERS
// with FLUSS_SASL_USERNAME/FLUSS_SASL_PASSWORD when set (as `make test`
// exports them), else a local cluster started for the test (needs Java and
// Maven; skipped with -short).
func saslBootstrap(t *testing.T) saslCluster {
	t.Helper()
	bootstrap(t) // integration tests run only against a configured cluster
	if v := os.Getenv("FLUSS_SASL_BOOTSTRAP_SERVERS"); v != "" {
		sc := saslCluster{servers: strings.Split(v, ","), user: os.Getenv("FLUSS_SASL_USERNAME"), password: os.Getenv("FLUSS_SASL_PASSWORD")}
		if sc.user == "" {
			sc.user, sc.password = "admin", "admin-secret"
		}
		return sc
	}
	if testing.Short() {
		t.Skip("-short: not starting a SASL cluster (set FLUSS_SASL_BOOTSTRAP_SERVERS to use one)")
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("java is not installed: cannot start a SASL cluster (set FLUSS_SASL_BOOTSTRAP_SERVERS)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cl, err := localcluster.Start(ctx, localcluster.Options{
		SASLUsers: map[string]string{"admin": "admin-secret", "alice": "alice-secret"},
		Logf:      t.Logf,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cl.Stop() })
	require.True(t, cl.SASL)
	return saslCluster{servers: []string{cl.BootstrapServers}, user: "admin", password: "admin-secret", alice: true}
}

func TestSASL(t *testing.T) {
	sc := saslBootstrap(t)
	servers := sc.servers
	ctx := testCtx(t)

	t.Run("right credentials", func(t *testing.T) {
		c, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: servers, Username: sc.user, Password: sc.password})
		require.NoError(t, err)
		defer c.Close()
		admin := c.Admin()
		nodes, err := admin.ServerNodes(ctx)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, len(nodes), 2)

		// DDL on the coordinator and reads on a tablet server, both authenticated.
		db := tempDatabase(t, admin)
		path := fluss.TablePath{Database: db, Table: "t"}
		require.NoError(t, admin.CreateTable(ctx, path, logTable(), false))
		ok, err := admin.TableExists(ctx, path)
		require.NoError(t, err)
		assert.True(t, ok)
		offs, err := admin.ListOffsets(ctx, path, "", nil, fluss.OffsetLatest())
		require.NoError(t, err)

		// The coordinator sends its whole configuration, the JAAS config with every
		// user's password included: ClusterConfigs masks it.
		configs, err := admin.ClusterConfigs(ctx)
		require.NoError(t, err)
		masked := 0
		for _, cc := range configs {
			assert.NotContains(t, cc.Value, sc.password, cc.Key)
			if cc.Value == fluss.MaskedConfigValue {
				masked++
			}
		}
		assert.NotZero(t, masked, "a SASL cluster's configuration has a secret to mask")
		assert.Equal(t, map[int32]int64{0: 0}, offs)
	})

	t.Run("second user", func(t *testing.T) {
		if !sc.alice {
			t.Skip("the external SASL cluster has one known user")
		}
		c, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: servers, Username: "alice", Password: "alice-secret"})
		require.NoError(t, err)
		defer c.Close()
		_, err = c.Admin().ListDatabases(ctx)
		require.NoError(t, err)
	})

	t.Run("wrong password", func(t *testing.T) {
		start := time.Now()
		_, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: servers, Username: sc.user, Password: "wrong"})
		require.Error(t, err)
		assert.ErrorIs(t, err, fluss.ErrAuthentication)
		assert.NotContains(t, err.Error(), "wrong", "the password is not echoed")
		assert.Less(t, time.Since(start), 10*time.Second, "a bad password fails at once, without waiting")
	})

	t.Run("unknown user", func(t *testing.T) {
		_, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: servers, Username: "mallory", Password: "x"})
		assert.ErrorIs(t, err, fluss.ErrAuthentication)
	})

	t.Run("no credentials", func(t *testing.T) {
		// Without SASL the server accepts only ApiVersions and Authenticate.
		_, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: servers})
		require.Error(t, err)
		assert.ErrorIs(t, err, fluss.ErrAuthentication)
	})
}

// Credentials sent to a PLAINTEXT listener are refused by the server.
func TestSASLAgainstPlaintextListener(t *testing.T) {
	_, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: bootstrap(t), Username: "admin", Password: "admin-secret"})
	require.Error(t, err)
	assert.ErrorIs(t, err, fluss.ErrAuthentication)
}
