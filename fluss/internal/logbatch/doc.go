// Package logbatch encodes and decodes Fluss log record batches — the bytes
// carried in ProduceLog and FetchLog `records` fields — without any network
// code.
//
// A batch is a little-endian header (magic 0, 48 bytes, what every client
// writes; magic 1 in its Fluss 0.7–0.9 layout with a leader epoch, 52 bytes,
// read only) followed by the records section. For the ARROW log format the
// records section is an optional change-type byte vector (absent when the
// append-only attribute bit is set) and one Arrow IPC RecordBatch message
// (continuation marker, flatbuffer metadata, body; no schema message, no
// end-of-stream marker), with NONE, LZ4_FRAME or ZSTD buffer compression. For
// the INDEXED log format it is a sequence of length-prefixed IndexedRow
// records, which [IndexedDecoder] turns into the same Arrow shape.
//
// The layout follows Fluss 0.9.1's Java code (DefaultLogRecordBatch,
// LogRecordBatchFormat, MemoryLogRecordsArrowBuilder, ArrowWriter, IndexedRow)
// and is checked against batches produced by that code (testdata/javagen).
//
// Entry points: [Iterator] / [DecodeBatches] split a buffer into [Batch]es,
// [ArrowEncoder] builds ARROW batches from Arrow records, [ArrowDecoder] and
// [IndexedDecoder] turn batches into [Records].
package logbatch
