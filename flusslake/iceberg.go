package flusslake

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/iceberg-go"
	iceio "github.com/apache/iceberg-go/io"
	"github.com/apache/iceberg-go/table"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

func init() { fluss.RegisterLakeFormat("iceberg", icebergFormat{}) }

// batchRows caps the rows of one decoded batch, so that memory stays flat however big the
// lake's files are. Each ReadTasks call decodes its one file batch by batch
// (WithMaxConcurrency(1)): with more workers, iceberg-go keeps the batches of a file decoded
// ahead of its turn, up to the whole file; the files are read concurrently by
// parallelFiles instead.
const batchRows = 8192

// icebergFormat reads the Iceberg tables Fluss tiers into.
type icebergFormat struct{}

// ScanLake implements fluss.LakeFormat: it loads the table's metadata from the catalog,
// plans the read of req.SnapshotID with the requested columns and filter (Iceberg skips the
// manifests and data files they rule out) and streams the kept files.
func (icebergFormat) ScanLake(ctx context.Context, info *fluss.TableInfo, req fluss.LakeScanRequest) (fluss.LakeScan, error) {
	tbl, err := openIcebergTable(ctx, info)
	if err != nil {
		return nil, err
	}
	schema := info.Schema()
	names := make([]string, len(req.Columns))
	outFields := make([]arrow.Field, len(req.Columns))
	for i, c := range req.Columns {
		col := schema.Columns[c]
		names[i] = col.Name
		if outFields[i], err = types.ArrowField(col.Name, col.Type); err != nil {
			return nil, err
		}
	}
	filter, err := rowFilter(info, req)
	if err != nil {
		return nil, err
	}
	scan := tbl.Scan(table.WithSnapshotID(req.SnapshotID), table.WithSelectedFields(names...),
		table.WithRowFilter(filter), table.WithArrowBatchSize(batchRows), table.WithMaxConcurrency(1))
	tasks, err := scan.PlanFiles(ctx)
	if err != nil {
		_ = scan.Close()
		return nil, fmt.Errorf("flusslake: planning the read of Iceberg snapshot %d of %s: %w", req.SnapshotID, info.Path, err)
	}
	files := make([]string, len(tasks))
	for i, t := range tasks {
		files[i] = t.File.FilePath()
	}
	return newIcebergScan(ctx, scan, tasks, files, arrow.NewSchema(outFields, nil), names), nil
}

// icebergScan streams the batches of a planned Iceberg read (icebergread.go).
type icebergScan struct {
	scan  *table.Scan
	files []string
	out   *arrow.Schema
	names []string
	par   *parallelFiles
}

// Files implements fluss.LakeScan.
func (s *icebergScan) Files() []string { return s.files }

// Next implements fluss.LakeScan: the next batch of any of the files being read, its
// columns cast to the Fluss Arrow types of the table's columns (Iceberg stores timestamps in
// microseconds, for one).
func (s *icebergScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	return s.par.next(ctx)
}

// convert returns rec with the requested columns, by name, in their Fluss Arrow types.
func (s *icebergScan) convert(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	return toFluss(ctx, rec, s.names, s.out, "Iceberg")
}

// Close implements fluss.LakeScan.
func (s *icebergScan) Close() error {
	s.par.close()
	return s.scan.Close()
}

// openIcebergTable loads the Iceberg table of info from its filesystem catalog: the newest
// metadata file under <warehouse>/<database>/<table>/metadata, as Iceberg's HadoopCatalog
// lays it out.
func openIcebergTable(ctx context.Context, info *fluss.TableInfo) (*table.Table, error) {
	props := info.LakeCatalogProperties()
	kind := strings.ToLower(props["type"])
	if kind != "hadoop" {
		return nil, fmt.Errorf("flusslake: table %s is tiered into an Iceberg catalog of type %q; flusslake reads the filesystem catalog (datalake.iceberg.type: hadoop) only",
			info.Path, props["type"])
	}
	warehouse := props["warehouse"]
	if warehouse == "" {
		return nil, fmt.Errorf("flusslake: table %s has no table.datalake.iceberg.warehouse option: the server's datalake.iceberg.warehouse is not set", info.Path)
	}
	dir, err := localDir(warehouse)
	if err != nil {
		return nil, fmt.Errorf("flusslake: table %s: %w", info.Path, err)
	}
	metaDir := filepath.Join(dir, info.Path.Database, info.Path.Table, "metadata")
	loc, err := newestMetadata(metaDir)
	if err != nil {
		return nil, fmt.Errorf("flusslake: the Iceberg table of %s: %w", info.Path, err)
	}
	if c, ok := tables.Load(metaDir); ok && c.(*cachedTable).loc == loc {
		return c.(*cachedTable).t, nil
	}
	t, err := table.NewFromLocation(ctx, table.Identifier{info.Path.Database, info.Path.Table}, loc,
		iceio.LoadFSFunc(props, loc), nil)
	if err != nil {
		return nil, err
	}
	tables.Store(metaDir, &cachedTable{loc: loc, t: t})
	return t, nil
}

// cachedTable is a table loaded from its metadata file loc.
type cachedTable struct {
	loc string
	t   *table.Table
}

// tables caches, per table (its metadata folder), the table loaded from its newest metadata
// file: a metadata file never changes (a commit writes the next one), and the table keeps
// the manifests it read, so a query of a table not tiered again since the last one reads no
// metadata (about 50 ms a query otherwise). A newer metadata file replaces the entry.
var tables sync.Map

// localDir turns a warehouse location on the local file system (a path or a file: URI)
// into a path.
func localDir(warehouse string) (string, error) {
	switch {
	case strings.HasPrefix(warehouse, "file://"):
		return strings.TrimPrefix(warehouse, "file://"), nil
	case strings.HasPrefix(warehouse, "file:"):
		return strings.TrimPrefix(warehouse, "file:"), nil
	case strings.Contains(warehouse, "://"):
		return "", fmt.Errorf("the warehouse %s is not on the local file system; flusslake reads local warehouses only", warehouse)
	}
	return warehouse, nil
}

var metadataName = regexp.MustCompile(`^v(\d+)\.metadata\.json$`)

// newestMetadata returns the path of the table's current metadata file: the version in
// version-hint.text, or else the highest v<N>.metadata.json.
func newestMetadata(dir string) (string, error) {
	if b, err := os.ReadFile(filepath.Join(dir, "version-hint.text")); err == nil {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			p := filepath.Join(dir, fmt.Sprintf("v%d.metadata.json", n))
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	best, bestN := "", -1
	for _, e := range entries {
		m := metadataName.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if n, _ := strconv.Atoi(m[1]); n > bestN {
			best, bestN = filepath.Join(dir, e.Name()), n
		}
	}
	if best == "" {
		return "", errors.New("no v<N>.metadata.json in " + dir)
	}
	return best, nil
}

// rowFilter is the Iceberg row filter of req: the kept partitions and the filter.
func rowFilter(info *fluss.TableInfo, req fluss.LakeScanRequest) (iceberg.BooleanExpression, error) {
	var out iceberg.BooleanExpression = iceberg.AlwaysTrue{}
	if req.Partitions != nil {
		keys := info.PartitionKeys()
		var any iceberg.BooleanExpression = iceberg.AlwaysFalse{}
		for _, name := range req.Partitions {
			vals := strings.Split(name, "$")
			if len(vals) != len(keys) {
				return nil, fmt.Errorf("flusslake: partition name %q does not have the %d values of %v", name, len(keys), keys)
			}
			var one iceberg.BooleanExpression = iceberg.AlwaysTrue{}
			for i, k := range keys {
				one = iceberg.NewAnd(one, iceberg.EqualTo(iceberg.Reference(k), vals[i]))
			}
			any = iceberg.NewOr(any, one)
		}
		out = iceberg.NewAnd(out, any)
	}
	if req.Filter != nil {
		if f, ok := predicate(info, *req.Filter); ok {
			out = iceberg.NewAnd(out, f)
		}
	}
	return out, nil
}
