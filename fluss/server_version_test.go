package fluss

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// fakeAPIs is a server's ApiVersions answer: listed APIs, and those of them the client speaks.
type fakeAPIs struct {
	listed map[protocol.APIKey]bool
	spoken map[protocol.APIKey]bool
}

func (f fakeAPIs) Supports(api protocol.APIKey) bool { return f.spoken[api] }

func (f fakeAPIs) Version(api protocol.APIKey) (int16, error) {
	if f.spoken[api] {
		return 0, nil
	}
	return 0, &rpc.UnsupportedAPIError{API: api, Listed: f.listed[api]}
}

func apis(keys ...protocol.APIKey) fakeAPIs {
	f := fakeAPIs{listed: map[protocol.APIKey]bool{}, spoken: map[protocol.APIKey]bool{}}
	for _, k := range keys {
		f.listed[k] = true
		if _, ok := protocol.ClientVersions(k); ok {
			f.spoken[k] = true
		}
	}
	return f
}

func TestDetectVersion(t *testing.T) {
	base := []protocol.APIKey{protocol.CreateTable, protocol.GetMetadata, protocol.AlterTable}
	tablet := []protocol.APIKey{protocol.ProduceLog, protocol.PutKv, protocol.LimitScan}
	tests := []struct {
		name  string
		conns map[ServerType]listedAPIs
		want  ServerVersion
	}{
		{name: "1.0 coordinator and tablet server", conns: map[ServerType]listedAPIs{
			CoordinatorServer: apis(append(base, apiRebalance, apiAlterDatabase, apiGetClusterHealth)...),
			TabletServer:      apis(append(tablet, apiGetTableStats, apiScanKv)...)}, want: ServerVersion{1, 0}},
		{name: "1.0 tablet server alone", conns: map[ServerType]listedAPIs{
			TabletServer: apis(append(tablet, apiScanKv)...)}, want: ServerVersion{1, 0}},
		{name: "1.0 coordinator alone", conns: map[ServerType]listedAPIs{
			CoordinatorServer: apis(append(base, apiGetClusterHealth)...)}, want: ServerVersion{1, 0}},
		{name: "0.9", conns: map[ServerType]listedAPIs{
			CoordinatorServer: apis(append(base, apiRebalance)...),
			TabletServer:      apis(append(tablet, apiGetTableStats)...)}, want: ServerVersion{0, 9}},
		{name: "0.9 tablet server alone", conns: map[ServerType]listedAPIs{
			TabletServer: apis(append(tablet, apiGetTableStats)...)}, want: ServerVersion{0, 9}},
		{name: "a marker on the wrong server type does not count", conns: map[ServerType]listedAPIs{
			CoordinatorServer: apis(append(base, apiScanKv)...),
			TabletServer:      apis(append(tablet, apiAlterDatabase)...)}, want: ServerVersion{0, 8}},
		{name: "older", conns: map[ServerType]listedAPIs{
			CoordinatorServer: apis(base...), TabletServer: apis(tablet...)}, want: ServerVersion{0, 8}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, detectVersion(tt.conns))
		})
	}
}

func TestServerVersionString(t *testing.T) {
	tests := []struct {
		v            ServerVersion
		want         string
		atLeast10    bool
		atLeast09    bool
		atLeast0_10  bool
		atLeastMajor bool
	}{
		{v: ServerVersion{1, 0}, want: "1.0", atLeast10: true, atLeast09: true, atLeast0_10: true},
		{v: ServerVersion{0, 9}, want: "0.9", atLeast09: true},
		{v: ServerVersion{0, 8}, want: "0.8 or older"},
		{v: ServerVersion{2, 1}, want: "2.1", atLeast10: true, atLeast09: true, atLeast0_10: true, atLeastMajor: true},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.v.String())
			assert.Equal(t, tt.atLeast10, tt.v.AtLeast(1, 0))
			assert.Equal(t, tt.atLeast09, tt.v.AtLeast(0, 9))
			assert.Equal(t, tt.atLeast0_10, tt.v.AtLeast(0, 10))
			assert.Equal(t, tt.atLeastMajor, tt.v.AtLeast(2, 0))
		})
	}
}

func TestUnsupportedByServer(t *testing.T) {
	err := unsupportedByServer("full scan of db.t", apiScanKv, ServerVersion{1, 0}, TabletServer, "127.0.0.1:9124", ServerVersion{0, 9}, "use LimitScan")
	require.ErrorIs(t, err, ErrUnsupportedByServer)
	assert.False(t, errors.Is(err, errors.ErrUnsupported))
	assert.Equal(t, "fluss: full scan of db.t: not supported by this server: it needs the SCAN_KV(1061) API, which Fluss 1.0 added; "+
		"the tablet server at 127.0.0.1:9124 does not offer it (it speaks Fluss 0.9, older than 1.0); use LimitScan", err.Error())
}

func TestParseServerVersion(t *testing.T) {
	tests := []struct {
		in      string
		want    ServerVersion
		wantErr bool
	}{
		{in: "0.9.1-incubating", want: ServerVersion{0, 9}},
		{in: "1.0-SNAPSHOT", want: ServerVersion{1, 0}},
		{in: "1.0.0", want: ServerVersion{1, 0}},
		{in: " 2.1.3 ", want: ServerVersion{2, 1}},
		{in: "1", wantErr: true},
		{in: "", wantErr: true},
		{in: "x.y", wantErr: true},
		{in: "1.-1", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseServerVersion(tt.in)
			if tt.wantErr {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
