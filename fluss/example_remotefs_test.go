package fluss_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss"
)

// mountFS reads the remote log storage of a cluster whose 'remote.data.dir' is an object
// store bucket that is also mounted here (e.g. with s3fs): s3://bucket/… is read at
// /mnt/bucket/…. A reader for the store's own API is written the same way: Open returns
// anything with ReadAt and Close.
type mountFS struct{ prefix, mount string }

func (m mountFS) Open(ctx context.Context, path string) (fluss.RemoteFile, error) {
	rest, ok := strings.CutPrefix(path, m.prefix)
	if !ok {
		return nil, fmt.Errorf("%s is not under %s", path, m.prefix)
	}
	return fluss.LocalFS{}.Open(ctx, m.mount+rest)
}

// A scan that reaches log segments the servers moved to remote storage reads them through
// the RemoteFS registered for the scheme of their path. Local paths and file:// need none.
func ExampleRegisterRemoteFS() {
	fluss.RegisterRemoteFS("s3", mountFS{prefix: "s3://bucket/", mount: "/mnt/bucket/"})
	defer fluss.RegisterRemoteFS("s3", nil)
	// … scan as usual: rows of tiered segments come from /mnt/bucket/fluss/log/…
}
