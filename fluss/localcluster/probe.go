package localcluster

import (
	"context"
	"fmt"
	"time"
)

// MetadataProbe asks the cluster at bootstrap for its tablet servers, authenticating with
// user/password when they are not empty, and returns how many it lists. The wire client
// registers itself here (package fluss imports localcluster's probe hook only in tests and
// tools), which keeps this package free of an import cycle with package fluss.
type MetadataProbe func(ctx context.Context, bootstrap, user, password string) (tabletServers int, err error)

var probe MetadataProbe

// SetMetadataProbe installs the readiness probe used by Start after the log lines appear.
func SetMetadataProbe(p MetadataProbe) { probe = p }

// waitMetadata polls the metadata probe every 250 ms until it lists n tablet servers.
func (c *Cluster) waitMetadata(ctx context.Context, n int, users map[string]string) error {
	var user, password string
	for _, u := range sortedUsers(users) {
		user, password = u, users[u]
		break
	}
	var last error
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		got, err := probe(pctx, c.BootstrapServers, user, password)
		cancel()
		if err == nil && got >= n {
			return nil
		}
		if err == nil {
			err = fmt.Errorf("metadata lists %d of %d tablet servers", got, n)
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("localcluster: the cluster at %s never answered metadata with %d tablet server(s): %v", c.BootstrapServers, n, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}
