// Package logbatch encodes and decodes Fluss log record batches — the bytes
// carried in ProduceLog and FetchLog `records` fields — without any network
// code.
//
// A batch is a little-endian header followed by the records section. Magic 0
// has a 48-byte header; Fluss 1.0's magic 1 (52 bytes) and magic 2 (56 bytes,
// with a leader epoch) end with a StatisticsLength and put that many bytes
// of column statistics ([ParseStatistics], [EncodeStatistics]) between
// header and records — Fluss 1.0 clients write magic 1 for tables with
// 'table.statistics.columns', and 1.0 servers skip batches by them when a
// fetch carries a filter. (Fluss 0.9's magic 1, never written by its
// clients, had another layout; it is not read.) For the ARROW log format the
// records section is an optional change-type byte vector (absent when the
// append-only attribute bit is set) and one Arrow IPC RecordBatch message
// (continuation marker, flatbuffer metadata, body; no schema message, no
// end-of-stream marker), with NONE, LZ4_FRAME or ZSTD buffer compression. For
// the INDEXED log format it is a sequence of length-prefixed IndexedRow
// records, which [IndexedDecoder] turns into the same Arrow shape.
//
// The layout follows Fluss's Java code (DefaultLogRecordBatch,
// LogRecordBatchFormat, MemoryLogRecordsArrowBuilder, ArrowWriter, IndexedRow;
// LogRecordBatchStatisticsWriter and AlignedRow in 1.0) and is checked
// against batches produced by that code: 0.9.1's (testdata/javagen) and a
// batch with statistics from the Java 1.0.0 client
// (testdata/golden/java10_stats_v1.bin).
//
// Entry points: [Iterator] / [DecodeBatches] split a buffer into [Batch]es,
// [ArrowEncoder] builds ARROW batches from Arrow records, [ArrowDecoder] and
// [IndexedDecoder] turn batches into [Records].
package logbatch
