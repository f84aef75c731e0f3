package fluss

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/rpc"
)

// ServerVersion is the Fluss release line a cluster speaks. Fluss servers send no version
// string, so it is detected from the APIs their ApiVersions answers list (see
// Client.ServerVersion); {0, 8} stands for 0.8 or older.
type ServerVersion struct {
	// Major and Minor are the release line's numbers, e.g. 1 and 0 for Fluss 1.0.
	Major, Minor int
}

// String returns the release line, e.g. "1.0", or "0.8 or older".
func (v ServerVersion) String() string {
	if v.Major == 0 && v.Minor <= 8 {
		return "0.8 or older"
	}
	return fmt.Sprintf("%d.%d", v.Major, v.Minor)
}

// AtLeast reports whether v is major.minor or newer.
func (v ServerVersion) AtLeast(major, minor int) bool {
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

// Fluss 1.0 APIs this client does not speak yet; it only asks whether a server lists them
// (values from ApiKeys in apache/fluss 1.0).
const (
	apiAlterDatabase    protocol.APIKey = 1060
	apiScanKv                           = protocol.ScanKv // spoken since this client's KvScanner
	apiGetClusterHealth protocol.APIKey = 1062
	// Fluss 0.9 APIs, markers of that release line.
	apiRebalance     protocol.APIKey = 1049
	apiGetTableStats protocol.APIKey = 1059
)

// apiNames names the APIs above, which protocol.APIKey.String does not know.
var apiNames = map[protocol.APIKey]string{
	apiAlterDatabase:    "ALTER_DATABASE",
	apiScanKv:           "SCAN_KV",
	apiGetClusterHealth: "GET_CLUSTER_HEALTH",
	apiRebalance:        "REBALANCE",
	apiGetTableStats:    "GET_TABLE_STATS",
}

// apiName returns the Fluss name of api with its key, e.g. "SCAN_KV(1061)".
func apiName(api protocol.APIKey) string {
	if n, ok := apiNames[api]; ok {
		return fmt.Sprintf("%s(%d)", n, int16(api))
	}
	return api.String()
}

// versionMarker is an API that a release line added, on the server type that serves it.
type versionMarker struct {
	version ServerVersion
	server  ServerType
	api     protocol.APIKey
}

// versionMarkers are checked newest first; the first one a server lists decides. They come
// from the API lists of apache/fluss (ApiKeys, and the @RPC methods of AdminGateway,
// AdminReadOnlyGateway and TabletServerGateway) at v0.8.0, v0.9.1 and 1.0.
var versionMarkers = []versionMarker{
	{ServerVersion{1, 0}, CoordinatorServer, apiAlterDatabase},
	{ServerVersion{1, 0}, CoordinatorServer, apiGetClusterHealth},
	{ServerVersion{1, 0}, TabletServer, apiScanKv},
	{ServerVersion{0, 9}, CoordinatorServer, apiRebalance},
	{ServerVersion{0, 9}, TabletServer, apiGetTableStats},
}

// listedAPIs is what one server's ApiVersions answer lists, as far as the markers ask.
type listedAPIs interface {
	Supports(api protocol.APIKey) bool
	Version(api protocol.APIKey) (int16, error)
}

// lists reports whether a server lists api in its ApiVersions answer, whether or not this
// client speaks any of its versions.
func lists(conn listedAPIs, api protocol.APIKey) bool {
	if conn.Supports(api) {
		return true
	}
	_, err := conn.Version(api)
	var ue *rpc.UnsupportedAPIError
	return errors.As(err, &ue) && ue.Listed
}

// detectVersion returns the release line whose markers the servers list; a server type
// without a connection (nil) is not asked.
func detectVersion(conns map[ServerType]listedAPIs) ServerVersion {
	for _, m := range versionMarkers {
		if conn := conns[m.server]; conn != nil && lists(conn, m.api) {
			return m.version
		}
	}
	return ServerVersion{0, 8}
}

// ServerVersion detects the Fluss release line of the cluster from the ApiVersions answers of
// its coordinator and one tablet server (the handshake of pooled connections; nothing else is
// sent): 1.0 when they list an API that 1.0 added (ALTER_DATABASE, GET_CLUSTER_HEALTH,
// SCAN_KV), else 0.9 for 0.9's (REBALANCE, GET_TABLE_STATS), else 0.8 or older.
func (c *Client) ServerVersion(ctx context.Context) (ServerVersion, error) {
	if c.isClosed() {
		return ServerVersion{}, ErrClosed
	}
	cl, err := c.cluster(ctx)
	if err != nil {
		return ServerVersion{}, err
	}
	conns := map[ServerType]listedAPIs{}
	var errs []error
	targets := cl.tabletList()
	if len(targets) > 1 {
		targets = targets[:1]
	}
	if cl.coordinator != nil {
		targets = append(targets, *cl.coordinator)
	}
	for _, n := range targets {
		conn, err := c.pool.Get(ctx, n.Addr())
		if err != nil {
			errs = append(errs, convertErr(err))
			continue
		}
		conns[n.Type] = conn
	}
	if len(conns) == 0 {
		if len(errs) == 0 {
			return ServerVersion{}, ErrNoTabletServer
		}
		return ServerVersion{}, errors.Join(errs...)
	}
	return detectVersion(conns), nil
}

// unsupportedByServer is the error of an operation that needs an API the server at addr does
// not list: it wraps ErrUnsupportedByServer and names the operation, the API, the release
// that added it, the server's release line and what to do instead.
func unsupportedByServer(op string, api protocol.APIKey, since ServerVersion, server ServerType, addr string, detected ServerVersion, instead string) error {
	msg := fmt.Sprintf("fluss: %s: %s: it needs the %s API, which Fluss %s added; the %s at %s does not offer it (it speaks Fluss %s, older than %s)",
		op, strings.TrimPrefix(ErrUnsupportedByServer.Error(), "fluss: "), apiName(api), since, server, addr, detected, since)
	if instead != "" {
		msg += "; " + instead
	}
	return &unsupportedError{msg: msg}
}

// unsupportedError carries the message of unsupportedByServer and wraps ErrUnsupportedByServer.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }

func (e *unsupportedError) Unwrap() error { return ErrUnsupportedByServer }

// ParseServerVersion returns the release line of a Fluss version string such as
// "0.9.1-incubating", "1.0.0" or "1.0-SNAPSHOT" (what a launcher ran, e.g. the
// FLUSS_SERVER_VERSION that fluss-local-cluster exports).
func ParseServerVersion(s string) (ServerVersion, error) {
	core, _, _ := strings.Cut(strings.TrimSpace(s), "-")
	parts := strings.Split(core, ".")
	if len(parts) < 2 {
		return ServerVersion{}, fmt.Errorf("fluss: %q is not a Fluss version (major.minor[.patch][-suffix])", s)
	}
	var v ServerVersion
	for i, p := range []*int{&v.Major, &v.Minor} {
		n, err := strconv.Atoi(parts[i])
		if err != nil || n < 0 {
			return ServerVersion{}, fmt.Errorf("fluss: %q is not a Fluss version (major.minor[.patch][-suffix])", s)
		}
		*p = n
	}
	return v, nil
}

// tabletOffers reports whether a tablet server lists api in its
// ApiVersions answer, whatever this client speaks of it.
func (c *Client) tabletOffers(ctx context.Context, api protocol.APIKey) (bool, string, error) {
	cl, err := c.cluster(ctx)
	if err != nil {
		return false, "", err
	}
	nodes := cl.tabletList()
	if len(nodes) == 0 {
		return false, "", ErrNoTabletServer
	}
	addr := nodes[0].Addr()
	conn, err := c.pool.Get(ctx, addr)
	if err != nil {
		return false, addr, convertErr(err)
	}
	return lists(conn, api), addr, nil
}
