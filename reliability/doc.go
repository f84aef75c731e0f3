// Package reliability holds flussql's fault tests: they start their own real Fluss cluster
// (ZooKeeper, a coordinator, three tablet servers, tables with replication factor 3), kill,
// freeze and restart its servers by PID and cut their connections through loopback relays
// while goroutines run statements through database/sql, record the outcome of every row
// (acknowledged, not written, unknown) and every call's duration, and then check the table
// against that record: no acknowledged row lost, none stored twice, no "not written" row
// stored, every call back within its deadline plus a second. TestLinearizableUnderFaults checks
// a primary-key table's upserts and lookups for linearizability per key (porcupine) and against
// the table's changelog.
//
// The tests run when FLUSS_BOOTSTRAP_SERVERS is set (the signal that a real cluster can be
// started here; `make test` sets it) in a short profile; `make reliability` runs the long
// profile (FLUSS_RELIABILITY=long: longer fault windows, a soak, six linearizability runs).
// The reproductions of server anomalies (TestRepro…, issue 30: a deposed leader answering
// lookups, a frozen leader's session expiring while writes are in flight) run only with
// FLUSS_RELIABILITY_REPRO=1 (`make reliability-repro`). FLUSS_RELIABILITY_KEEP_DIR=<dir> keeps
// the cluster's run folder with every server's log; FLUSSQL_EXPERIMENT_NO_EPOCH_GUARD=1 switches
// the client's leader-epoch guard off, to measure what it prevents.
//
// The package has no non-test code; it is a module of its own (its go.mod points the driver's
// module at ../) so that porcupine, a test-only dependency, is not in the module graph of the
// driver's consumers.
package reliability
