package fluss

import "fmt"

// LogGapError is the error of subscribing a scanner with ScannerOptions.Contiguous at an
// offset the bucket's log no longer holds: the log starts at LogStart, after Want, so the
// rows from Want up to LogStart expired from Fluss (table.log.ttl) and the read would miss
// them.
type LogGapError struct {
	// Table is the table, Partition the partition's name ("" when not partitioned).
	Table     TablePath
	Partition string
	// Bucket is the bucket (its PartitionID is NoPartition when not partitioned).
	Bucket TableBucket
	// Want is the offset the read had to start at (0 for EarliestOffset).
	Want int64
	// LogStart is the bucket's earliest offset (ListOffsets earliest).
	LogStart int64
}

// Error implements error.
func (e *LogGapError) Error() string {
	where := fmt.Sprintf("bucket %d", e.Bucket.Bucket)
	if e.Partition != "" {
		where = fmt.Sprintf("partition %s bucket %d", e.Partition, e.Bucket.Bucket)
	}
	return fmt.Sprintf("fluss: %s of %s starts at offset %d, after offset %d where the read must start: rows %d to %d expired from the log",
		where, e.Table, e.LogStart, e.Want, e.Want, e.LogStart-1)
}

// checkContiguous returns a *LogGapError for the first bucket of tbs whose earliest offset
// is past its subscribed offset (EarliestOffset counts as 0; LatestOffset is never a gap).
func checkContiguous(path TablePath, partition string, tbs []TableBucket, offsets map[TableBucket]int64, earliest map[int32]int64) error {
	for _, tb := range tbs {
		want := offsets[tb]
		switch want {
		case LatestOffset:
			continue
		case EarliestOffset:
			want = 0
		}
		if start, ok := earliest[tb.Bucket]; ok && start > want {
			return &LogGapError{Table: path, Partition: partition, Bucket: tb, Want: want, LogStart: start}
		}
	}
	return nil
}
