package localcluster

import (
	"context"
	"fmt"
	"time"

	"github.com/flussql/flussql/fluss"
)

// tabletServers asks the cluster at bootstrap, with the project's own wire client, for its
// servers and returns how many tablet servers the metadata answer lists.
func tabletServers(ctx context.Context, bootstrap, user, password string) (int, error) {
	client, err := fluss.Connect(ctx, fluss.Config{
		BootstrapServers: []string{bootstrap},
		Username:         user,
		Password:         password,
		ConnectTimeout:   3 * time.Second,
		RequestTimeout:   3 * time.Second,
	})
	if err != nil {
		return 0, err
	}
	defer client.Close()
	nodes, err := client.ServerNodes(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, node := range nodes {
		if node.Type == fluss.TabletServer {
			n++
		}
	}
	return n, nil
}

// waitMetadata polls the cluster every 250 ms until a metadata answer lists n tablet servers.
func (c *Cluster) waitMetadata(ctx context.Context, n int, users map[string]string) error {
	var user, password string
	for _, u := range sortedUsers(users) {
		user, password = u, users[u]
		break
	}
	var last error
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		got, err := tabletServers(pctx, c.BootstrapServers, user, password)
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
