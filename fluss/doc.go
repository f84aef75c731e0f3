// Package fluss is a Go client for Apache Fluss: connection and metadata
// management and the admin API (databases, tables, partitions, offsets,
// servers), speaking Fluss's RPC protocol directly over TCP.
//
// Connect with a Config naming one or more bootstrap servers; the client
// learns the coordinator and the tablet servers from them and keeps one
// connection per server, safe for concurrent use. DDL goes to the
// coordinator, reads to any server, bucket operations to the bucket's
// leader. Every request has a deadline: the context's, or
// Config.RequestTimeout.
//
// Errors reported by the server are *Error values; test them with
// errors.Is against the sentinels (ErrTableNotExist, ErrDatabaseNotExist,
// ErrPartitionAlreadyExists, ErrAuthentication, …). The server's message is
// kept in the error text.
//
// The client targets Fluss 0.9.1 and negotiates API versions with each
// server; a server that does not serve an API the client needs is refused
// with ErrUnsupportedVersion rather than sent a request it would ignore.
package fluss
