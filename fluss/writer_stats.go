package fluss

import (
	"context"
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/internal/logbatch"
)

// PropStatisticsColumns is the Fluss 1.0 table option that turns on column
// statistics in log batches: "*" for every supported column, or a
// comma-separated list of column names. Fluss 1.0 servers use the statistics
// to skip whole batches a scan filter rules out (see ScanOptions.Filter).
const PropStatisticsColumns = "table.statistics.columns"

// statisticsColumns returns the indexes of the columns whose statistics
// this client writes for info ('table.statistics.columns'; nil when unset),
// in the option's order. For "*" they are the columns of a type the client
// keeps statistics for; a listed column of another type is left out (the
// server then cannot skip batches on it, which is safe).
func statisticsColumns(info *TableInfo) ([]int, error) {
	v, ok := info.Descriptor.Properties[PropStatisticsColumns]
	if !ok || strings.TrimSpace(v) == "" {
		return nil, nil
	}
	cols := info.Schema().Columns
	var out []int
	if strings.TrimSpace(v) == "*" {
		for i, c := range cols {
			if logbatch.StatisticsSupported(c.Type) {
				out = append(out, i)
			}
		}
		return out, nil
	}
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		i := info.Schema().Index(name)
		if i < 0 {
			return nil, fmt.Errorf("fluss: table %s: %s names column %q, which the table does not have", info.Path, PropStatisticsColumns, name)
		}
		if logbatch.StatisticsSupported(cols[i].Type) {
			out = append(out, i)
		}
	}
	return out, nil
}

// writeStatistics decides whether an append writer for info writes its
// ARROW batches as magic V1 with statistics: only when the table asks for
// them and the cluster speaks Fluss 1.0 (older servers read magic 1 as
// another layout).
func (t *Table) writeStatistics(ctx context.Context, info *TableInfo) ([]int, error) {
	cols, err := statisticsColumns(info)
	if err != nil || len(cols) == 0 {
		return nil, err
	}
	v, err := t.c.ServerVersion(ctx)
	if err != nil {
		return nil, err
	}
	if !v.AtLeast(1, 0) {
		return nil, nil
	}
	return cols, nil
}
