package fluss

import (
	"fmt"
	"strings"
	"time"
)

// PartitionNotExistError is the error of a write (or a key routed for a write) to a
// partition that does not exist. It names the table and the partition's values and matches
// ErrPartitionNotExists with errors.Is; the cause (the server's answer) is wrapped too.
// What to run to create the partition is the caller's to say (Admin.CreatePartition, or
// WriterOptions.AutoCreatePartitions); the SQL layer renders its ALTER TABLE statement.
type PartitionNotExistError struct {
	// Table is the partitioned table.
	Table TablePath
	// Keys are its partition keys and Values the partition's values as Fluss partition
	// strings (see PartitionValueString), in key order.
	Keys, Values []string
	// Waited is how long the write waited for the partition to appear (0: it did not wait).
	Waited time.Duration
	// Cause is the error that said the partition is missing.
	Cause error
}

// Error names the partition and the ways to create it in wire-client terms.
func (e *PartitionNotExistError) Error() string {
	wait := ""
	if e.Waited > 0 {
		wait = fmt.Sprintf(" (waited %s)", e.Waited)
	}
	return fmt.Sprintf("fluss: partition %s of %s does not exist%s; create it (Admin.CreatePartition) or turn on WriterOptions.AutoCreatePartitions",
		e.Spec(), e.Table, wait)
}

// Spec returns the partition as key=value pairs joined by "/", e.g. "region=US/day=2024-01-01".
func (e *PartitionNotExistError) Spec() string {
	kv := make([]string, len(e.Keys))
	for i, k := range e.Keys {
		v := ""
		if i < len(e.Values) {
			v = e.Values[i]
		}
		kv[i] = k + "=" + v
	}
	return strings.Join(kv, "/")
}

// Unwrap makes the error match ErrPartitionNotExists and its cause.
func (e *PartitionNotExistError) Unwrap() []error {
	if e.Cause == nil {
		return []error{ErrPartitionNotExists}
	}
	return []error{ErrPartitionNotExists, e.Cause}
}
