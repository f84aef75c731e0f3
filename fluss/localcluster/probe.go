package localcluster

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/flussql/flussql/fluss"
)

// tabletServers asks the cluster at bootstrap, with the project's own wire client, for its
// servers and returns the ids of the tablet servers the metadata answer lists. An answer
// that lists none (a coordinator restarted while every tablet server is down) is an answer:
// no ids and no error.
func tabletServers(ctx context.Context, bootstrap, user, password string) ([]int, error) {
	client, err := fluss.Connect(ctx, fluss.Config{
		BootstrapServers: []string{bootstrap},
		Username:         user,
		Password:         password,
		// Connect waits this long for a tablet server to be listed.
		ConnectTimeout: time.Second,
		RequestTimeout: 3 * time.Second,
	})
	if errors.Is(err, fluss.ErrNoTabletServer) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer client.Close()
	nodes, err := client.ServerNodes(ctx)
	if err != nil {
		return nil, err
	}
	var ids []int
	for _, node := range nodes {
		if node.Type == fluss.TabletServer {
			ids = append(ids, int(node.ID))
		}
	}
	return ids, nil
}

// waitMetadata polls the cluster every 250 ms until a metadata answer lists n tablet servers.
func (c *Cluster) waitMetadata(ctx context.Context, n int) error {
	return c.pollMetadata(ctx, fmt.Sprintf("%d tablet server(s)", n), func(ids []int) error {
		if len(ids) >= n {
			return nil
		}
		return fmt.Errorf("metadata lists %d of %d tablet servers", len(ids), n)
	})
}

// waitTabletListed polls the cluster every 250 ms until a metadata answer lists tablet server id.
func (c *Cluster) waitTabletListed(ctx context.Context, id int) error {
	return c.pollMetadata(ctx, fmt.Sprintf("tablet server %d", id), func(ids []int) error {
		for _, got := range ids {
			if got == id {
				return nil
			}
		}
		return fmt.Errorf("metadata lists tablet servers %v, not %d", ids, id)
	})
}

// pollMetadata asks the coordinator for metadata every 250 ms until check accepts the tablet
// server ids of an answer.
func (c *Cluster) pollMetadata(ctx context.Context, what string, check func(ids []int) error) error {
	var last error
	for {
		pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ids, err := tabletServers(pctx, c.BootstrapServers, c.user, c.password)
		cancel()
		if err == nil {
			err = check(ids)
		}
		if err == nil {
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("localcluster: the cluster at %s never answered metadata with %s: %v", c.BootstrapServers, what, last)
		case <-time.After(250 * time.Millisecond):
		}
	}
}
