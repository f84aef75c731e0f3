// Package flusslake reads the lake tables Fluss's tiering service writes, so that flussql's
// bounded reads of a datalake-enabled table return the whole table: the lake snapshot the
// cluster reports as tiered, then the Fluss log from the snapshot's per-bucket offsets (a
// union read, as Fluss's Flink connector does it), and t$lake reads the lake alone.
//
// Import it for its side effect, next to the driver:
//
//	import (
//		_ "github.com/flussql/flussql"
//		_ "github.com/flussql/flussql/flusslake"
//	)
//
// It registers the Iceberg reader (github.com/apache/iceberg-go) and the Paimon reader (its
// own: no Go library reads Paimon) with fluss.RegisterLakeFormat. It is a module of its own because of iceberg-go's weight: a
// fresh module that imports the driver has 80 modules in its graph, compiles 327 packages and
// links a 35 MB binary; importing flusslake too makes that 304 modules (AWS, Azure and
// Google Cloud SDKs among them), 523 packages and 78 MB. An application that reads no lake
// does not carry them (internal/consumergraph checks it).
//
// Supported: Iceberg tables in a filesystem ("hadoop") catalog on the local file system
// (table options table.datalake.iceberg.type and table.datalake.iceberg.warehouse, which the
// server copies from its datalake.iceberg.* options); the columns read, the partitions kept
// and the scan's filter are pushed into Iceberg's planning, which skips manifests and data
// files, and the rows are streamed batch by batch.
//
// Paimon: tables in a filesystem catalog on the local file system (table options
// table.datalake.paimon.metastore: filesystem and table.datalake.paimon.warehouse), their
// data files in Parquet (Paimon's default file.format, which Fluss's tiering keeps). The
// reader reads the snapshot Fluss reports (snapshot/snapshot-<id>, JSON), its schema
// (schema/schema-<id>), the base and delta manifest lists and their manifests (Avro,
// through github.com/twmb/avro, which iceberg-go already brings), and the data files through
// arrow-go's pqarrow. The kept partitions prune manifest entries (their _PARTITION BinaryRow
// is decoded) and, for tables without a primary key, the filter skips the files whose
// min/max value statistics rule it out. A primary-key table is merged on read bucket by
// bucket: the newest change of each key by _SEQUENCE_NUMBER wins and a key whose newest
// change is a delete (_VALUE_KIND -U or -D) is gone (the deduplicate merge engine; tables
// with deletion vectors or another merge engine are refused).
package flusslake
