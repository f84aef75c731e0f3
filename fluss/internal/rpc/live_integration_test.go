package rpc

import (
	"context"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// TestLiveHandshake checks the handshake against the real coordinator
// named first in FLUSS_BOOTSTRAP_SERVERS and the servers it reports.
func TestLiveHandshake(t *testing.T) {
	v := realcluster.Addr(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := NewPool(Options{})
	defer p.Close()
	c, err := p.Get(ctx, strings.Split(v, ",")[0])
	require.NoError(t, err)

	var md protocol.MetadataResponse
	require.NoError(t, c.Call(ctx, protocol.GetMetadata, &protocol.MetadataRequest{}, &md))
	require.NotEmpty(t, md.GetTabletServers())
	ts := md.GetTabletServers()[0]
	tc, err := p.Get(ctx, net.JoinHostPort(ts.GetHost(), strconv.Itoa(int(ts.GetPort()))))
	require.NoError(t, err)

	byType := map[protocol.ServerType]*Conn{c.ServerType(): c, tc.ServerType(): tc}
	coord, tablet := byType[protocol.ServerTypeCoordinator], byType[protocol.ServerTypeTabletServer]
	require.NotNil(t, coord, "one of the two is the coordinator")
	require.NotNil(t, tablet, "one of the two is a tablet server")

	// DDL only on the coordinator, data APIs only on tablet servers.
	assert.True(t, coord.Supports(protocol.CreateTable))
	assert.False(t, coord.Supports(protocol.ProduceLog))
	assert.False(t, tablet.Supports(protocol.CreateTable))
	for _, api := range []protocol.APIKey{protocol.ProduceLog, protocol.FetchLog, protocol.ListOffsets, protocol.InitWriter, protocol.LimitScan} {
		assert.True(t, tablet.Supports(api), api.String())
	}
	// The Fluss key encoder (v1) for lookups; PUT_KV v2 where the server speaks it (1.0:
	// the client understands STORAGE_BACKPRESSURE), v1 on 0.9.
	for _, api := range []protocol.APIKey{protocol.Lookup, protocol.PrefixLookup} {
		v, err := tablet.Version(api)
		require.NoError(t, err)
		assert.Equal(t, int16(1), v, api.String())
	}
	putKv, err := tablet.Version(protocol.PutKv)
	require.NoError(t, err)
	if tablet.Supports(protocol.ScanKv) { // a 1.0 server
		assert.Equal(t, int16(2), putKv, "PUT_KV v2 with a 1.0 server")
	} else {
		assert.Equal(t, int16(1), putKv, "PUT_KV v1 with a 0.9 server")
	}
	// Read-only admin APIs are served by both.
	for _, conn := range []*Conn{coord, tablet} {
		var resp protocol.DatabaseExistsResponse
		require.NoError(t, conn.Call(ctx, protocol.DatabaseExists, &protocol.DatabaseExistsRequest{DatabaseName: proto.String("fluss")}, &resp))
		assert.True(t, resp.GetExists())
	}
	// A whole-request error comes back as a ResponseError with the server's text.
	err = tablet.Call(ctx, protocol.GetTableInfo, &protocol.GetTableInfoRequest{
		TablePath: &protocol.PbTablePath{DatabaseName: proto.String("fluss"), TableName: proto.String("no_such_table_x")},
	}, &protocol.GetTableInfoResponse{})
	var re *ResponseError
	require.ErrorAs(t, err, &re)
	assert.Equal(t, int32(7), re.Code)
	assert.Contains(t, re.Message, "no_such_table_x")
}
