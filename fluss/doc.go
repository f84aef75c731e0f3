// Package fluss is a Go client for Apache Fluss, speaking Fluss's RPC protocol directly over
// TCP: connection and metadata management, the admin API (databases, tables, partitions,
// offsets, servers), writers, log scanners and lookups. It knows nothing of SQL.
//
// Connect with a Config naming one or more bootstrap servers; the client learns the
// coordinator and the tablet servers from them and keeps one connection per server, safe for
// concurrent use, plus, for writers, a few more per tablet server (WriterOptions.Connections):
// a Fluss server runs the requests of one connection one after another, so a writer spreads
// the buckets of a server over several connections to have them stored in parallel. DDL goes to the coordinator, reads to any server, bucket operations to the
// bucket's leader. Every request has a deadline: the context's, or Config.RequestTimeout.
//
// Data goes through a *Table (Client.Table or Client.TableOf):
//
//   - NewAppendWriter appends rows ([]any in the value model, see package datum) or Arrow
//     record batches to a log table in the table's log format and compression, batched per
//     bucket, idempotent by default; Flush waits for every acknowledgement.
//   - NewLogScanner reads buckets (of partitions) from earliest, latest, a timestamp or an
//     offset, with the projection pushed to the server, as Arrow record batches with change
//     types; bounded (to the end offsets seen at subscribe time) or unbounded.
//   - NewUpsertWriter upserts, deletes and partially updates rows of a primary-key table.
//   - NewLookuper and NewPrefixLookuper look keys up, batched per bucket leader; LimitScan
//     reads the first rows of a bucket. Keys and buckets are computed exactly as the Java
//     client computes them.
//   - NewKvScanner reads the current row of every key of a primary-key table from a
//     snapshot of each bucket, streamed in batches (SCAN_KV, Fluss 1.0+).
//
// Rows may hold ARRAY ([]any), MAP ([]datum.MapEntry) and ROW ([]any) values, nested at will.
// Admin.AlterTable adds columns and sets or resets properties; scanners and lookups decode
// data written under any earlier schema (fetched by id and cached) into the handle's
// columns, matched by column id, NULL where the older schema lacks a column.
//
// Writing to a partition that does not exist fails after WriterOptions.MissingPartitionTimeout
// with a *PartitionNotExistError (matching ErrPartitionNotExists) that names the table and
// the partition's values, or creates the partition with WriterOptions.AutoCreatePartitions.
//
// Errors reported by the server are *Error values carrying the server's code and message;
// test them with errors.Is against the code, a flusserr.Code: the few sentinels kept here
// (ErrTableNotExist, ErrDatabaseNotExist, ErrPartitionAlreadyExists, ErrAuthentication, …)
// or any code of package flusserr (flusserr.InvalidTableException, …).
//
// The client targets Fluss 0.9.1 and negotiates API versions with each server; a server that
// does not serve an API the client needs is refused with flusserr.UnsupportedVersion rather
// than sent a request it would ignore.
package fluss
