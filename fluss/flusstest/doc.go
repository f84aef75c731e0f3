// Package flusstest is a fake Fluss cluster for tests: a coordinator and tablet servers on
// loopback listeners that speak the real Fluss frames, so that the wire client and the SQL
// driver run unchanged against it, with no JVM and no network beyond 127.0.0.1.
//
// It serves the handshake (API_VERSIONS), metadata (tables, buckets, partitions, leaders), the
// admin calls (databases, tables, schemas, partitions), PRODUCE_LOG, FETCH_LOG, PUT_KV,
// LOOKUP, PREFIX_LOOKUP, LIMIT_SCAN and LIST_OFFSETS, with state kept in memory: a row written
// by PRODUCE_LOG or PUT_KV is read back by a later FETCH_LOG or LOOKUP, and a primary-key
// table keeps a changelog that FETCH_LOG serves as the real server does. Log batches are
// encoded with the driver's own encoders (fluss/internal/logbatch, kvbatch, row).
//
// Faults are scripted per API and per call number with [Cluster.Inject]: no answer, a delay,
// an error code (for the whole request or for each bucket) or a cut connection; servers can be
// killed, frozen and their bucket leaders moved.
//
// The package is imported by tests only; no binary of the driver links it. A test that needs a
// real cluster gets its address from the realcluster subpackage instead.
//
// What it does not do: replication, retention, SASL, ALTER TABLE, KV snapshots, lake tables,
// aggregation merge engines and partial updates (a PUT_KV with target columns stores the whole
// row it is sent); changelogs of primary-key tables with nested columns are not kept.
package flusstest
