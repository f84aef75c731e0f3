package fluss

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"sort"
	"strings"
	"sync"
)

// RemoteFS reads files of the remote log storage of a Fluss cluster (the
// server option 'remote.data.dir'), where tablet servers move old log
// segments ("tiered" segments). A scan that reaches an offset no longer in a
// tablet server's local log reads the segment files itself through the
// RemoteFS registered for the scheme of the path the server names.
//
// Local paths and file:// URIs are read with the local filesystem (a
// cluster whose remote.data.dir is a local or shared folder). For object
// stores (s3://, oss://, hdfs://, …) register a RemoteFS for the scheme
// with RegisterRemoteFS before scanning.
type RemoteFS interface {
	// Open opens the file at path (the whole URI, scheme included, as the
	// server names it) for reading. ctx bounds the open and, for readers
	// that keep it, the reads.
	Open(ctx context.Context, path string) (RemoteFile, error)
}

// RemoteFile is an open file of a RemoteFS: read at offsets, then closed.
// ReadAt follows io.ReaderAt: at the end of the file it returns the bytes
// there are with io.EOF.
type RemoteFile interface {
	io.ReaderAt
	io.Closer
}

var remoteFSs = struct {
	sync.RWMutex
	byScheme map[string]RemoteFS
}{byScheme: map[string]RemoteFS{"": LocalFS{}, "file": LocalFS{}}}

// RegisterRemoteFS makes fs the reader of remote log files whose path has
// the URI scheme (e.g. "s3", "oss", "hdfs"; case-insensitive), replacing
// any earlier one. "file" and paths without a scheme are read with LocalFS
// unless replaced. A nil fs removes the scheme's reader.
func RegisterRemoteFS(scheme string, fs RemoteFS) {
	scheme = strings.ToLower(scheme)
	remoteFSs.Lock()
	defer remoteFSs.Unlock()
	if fs == nil {
		delete(remoteFSs.byScheme, scheme)
		return
	}
	remoteFSs.byScheme[scheme] = fs
}

// remoteScheme returns the URI scheme of path, lower case; "" for a plain
// path (a Windows drive letter is not a scheme).
func remoteScheme(path string) string {
	i := strings.Index(path, ":")
	if i <= 1 {
		return ""
	}
	u, err := url.Parse(path)
	if err != nil {
		return strings.ToLower(path[:i])
	}
	return strings.ToLower(u.Scheme)
}

// openRemote opens path with the RemoteFS of its scheme. Errors name the
// path, and for a scheme without a reader, how to add one.
func openRemote(ctx context.Context, path string) (RemoteFile, error) {
	scheme := remoteScheme(path)
	remoteFSs.RLock()
	fs := remoteFSs.byScheme[scheme]
	known := make([]string, 0, len(remoteFSs.byScheme))
	for s := range remoteFSs.byScheme {
		if s != "" {
			known = append(known, s)
		}
	}
	remoteFSs.RUnlock()
	if fs == nil {
		sort.Strings(known)
		return nil, &noReaderError{fmt.Sprintf("fluss: remote log file %s: no reader for scheme %q (readers: local paths, %s): "+
			"register one with fluss.RegisterRemoteFS(%q, fs) before scanning", path, scheme, strings.Join(known, ", "), scheme)}
	}
	f, err := fs.Open(ctx, path)
	if err != nil {
		return nil, fmt.Errorf("fluss: opening remote log file %s: %w", path, err)
	}
	return f, nil
}

// noReaderError is openRemote's error for a scheme without a RemoteFS.
type noReaderError struct{ msg string }

func (e *noReaderError) Error() string { return e.msg }

// LocalFS is the RemoteFS of the local filesystem: plain paths and file://
// URIs (file:/dir and file:///dir alike).
type LocalFS struct{}

// Open implements RemoteFS.
func (LocalFS) Open(ctx context.Context, path string) (RemoteFile, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := path
	if remoteScheme(path) == "file" {
		u, err := url.Parse(path)
		if err != nil {
			return nil, err
		}
		if u.Host != "" && u.Host != "localhost" {
			return nil, fmt.Errorf("file URI %s names host %q: only local files can be read", path, u.Host)
		}
		p = u.Path
	}
	return os.Open(p)
}
