package fluss

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// Table option of datalake-enabled tables.
const (
	// PropDatalakeEnabled turns tiering into the cluster's datalake on for a table (whose
	// lake format, PropDatalakeFormat, the server sets from its datalake.format).
	PropDatalakeEnabled = "table.datalake.enabled"
)

// LakeSystemColumns are the columns Fluss's tiering service appends to every lake table
// after the table's own: the bucket, the log offset and the commit time of each row.
var LakeSystemColumns = []string{"__bucket", "__offset", "__timestamp"}

// DatalakeEnabled reports whether the table is tiered into a datalake.
func (t *TableInfo) DatalakeEnabled() bool {
	return strings.EqualFold(t.Property(PropDatalakeEnabled, "false"), "true")
}

// DatalakeFormat returns the table's lake format in lower case ("" when none is set).
func (t *TableInfo) DatalakeFormat() string {
	return strings.ToLower(t.Property(PropDatalakeFormat, ""))
}

// LakeCatalogProperties returns the lake catalog options the server stored with the
// table: its "table.datalake.<format>." options without that prefix (for Iceberg e.g.
// "type" and "warehouse").
func (t *TableInfo) LakeCatalogProperties() map[string]string {
	prefix := "table.datalake." + t.DatalakeFormat() + "."
	out := map[string]string{}
	for k, v := range t.Descriptor.Properties {
		if strings.HasPrefix(k, prefix) {
			out[strings.TrimPrefix(k, prefix)] = v
		}
	}
	return out
}

// LakeFormat reads the lake tables of one datalake format. The wire client reads no lake
// itself: a reader is registered by the module that implements it (for Iceberg,
// github.com/flussql/flussql/flusslake), as database/sql drivers are, so that the
// client's module graph carries no lake library.
type LakeFormat interface {
	// ScanLake plans a read of the lake table of info at req.SnapshotID.
	ScanLake(ctx context.Context, info *TableInfo, req LakeScanRequest) (LakeScan, error)
}

// LakeScanRequest is what a lake read keeps.
type LakeScanRequest struct {
	// SnapshotID is the lake snapshot to read (LakeSnapshot.SnapshotID).
	SnapshotID int64
	// Columns are the table's column positions the batches hold, in that order.
	Columns []int
	// Partitions, for a partitioned table, are the names of the partitions to read
	// (PartitionInfo.Name); nil reads every partition.
	Partitions []string
	// Filter only thins the read (files and rows it rules out may be skipped); the caller
	// still checks every row. Nil: none.
	Filter *Predicate
}

// LakeScan streams the rows of a planned lake read.
type LakeScan interface {
	// Files returns the data files the plan keeps.
	Files() []string
	// Next returns the next batch, with the requested columns in their Fluss Arrow types,
	// or io.EOF after the last one. The caller releases the batch.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	// Close ends the read and releases what it holds.
	Close() error
}

var (
	lakeFormatsMu sync.RWMutex
	lakeFormats   = map[string]LakeFormat{}
)

// RegisterLakeFormat makes f the reader of the lake tables of format name ("iceberg").
// It is meant for an init function; registering a name twice replaces the reader.
func RegisterLakeFormat(name string, f LakeFormat) {
	lakeFormatsMu.Lock()
	defer lakeFormatsMu.Unlock()
	lakeFormats[strings.ToLower(name)] = f
}

// LakeFormatOf returns the registered reader of the table's lake format, or an error that
// names the format and the import that registers it.
func LakeFormatOf(info *TableInfo) (LakeFormat, error) {
	name := info.DatalakeFormat()
	lakeFormatsMu.RLock()
	f := lakeFormats[name]
	lakeFormatsMu.RUnlock()
	if f == nil {
		if name == "" {
			return nil, fmt.Errorf("fluss: table %s has no %s option, so its lake cannot be read", info.Path, PropDatalakeFormat)
		}
		return nil, fmt.Errorf("fluss: no reader of %s lake tables is registered (table %s): import _ \"github.com/flussql/flussql/flusslake\" to read the rows its lake holds", name, info.Path)
	}
	return f, nil
}
