package flusslake

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

func init() { fluss.RegisterLakeFormat("paimon", paimonFormat{}) }

// paimonFormat reads the Paimon tables Fluss tiers into, with no Paimon library: the
// snapshot and schema files (JSON), the manifest lists and manifests (Avro, through
// github.com/twmb/avro, which iceberg-go already brings) and the data files (Parquet,
// through arrow-go's pqarrow). A table with a primary key is merged on read, bucket by
// bucket (paimon_merge.go).
type paimonFormat struct{}

// paimonFile is a data file of the snapshot: its path and the bucket it belongs to.
type paimonFile struct {
	path      string
	partition string // the partition's values joined by '$' (Fluss's partition name)
	bucket    int32
}

// ScanLake implements fluss.LakeFormat: it reads the snapshot req.SnapshotID (Fluss's lake
// snapshot id of a Paimon table is the Paimon snapshot id), keeps the data files of the
// requested partitions and streams their rows, merged by key for a primary-key table.
func (paimonFormat) ScanLake(ctx context.Context, info *fluss.TableInfo, req fluss.LakeScanRequest) (fluss.LakeScan, error) {
	dir, err := paimonTableDir(info)
	if err != nil {
		return nil, err
	}
	snap, schema, err := loadPaimonSnapshot(dir, req.SnapshotID)
	if err != nil {
		return nil, fmt.Errorf("flusslake: Paimon snapshot %d of %s: %w", req.SnapshotID, info.Path, err)
	}
	if f := schema.Options["file.format"]; f != "" && !strings.EqualFold(f, "parquet") {
		return nil, fmt.Errorf("flusslake: the Paimon table of %s stores its data as %s; flusslake reads Parquet (Paimon's default file.format) only", info.Path, f)
	}
	if len(schema.PrimaryKeys) > 0 {
		if m := schema.Options["merge-engine"]; m != "" && !strings.EqualFold(m, "deduplicate") {
			return nil, fmt.Errorf("flusslake: the Paimon table of %s merges with %s; flusslake merges primary-key tables with the deduplicate engine (Paimon's default) only", info.Path, m)
		}
		if strings.EqualFold(schema.Options["deletion-vectors.enabled"], "true") {
			return nil, fmt.Errorf("flusslake: the Paimon table of %s has deletion vectors, which flusslake does not read", info.Path)
		}
	}
	entries, err := paimonLiveFiles(dir, snap)
	if err != nil {
		return nil, fmt.Errorf("flusslake: the manifests of Paimon snapshot %d of %s: %w", snap.ID, info.Path, err)
	}
	partTypes := make([]string, len(schema.PartitionKeys))
	for i, k := range schema.PartitionKeys {
		for _, f := range schema.Fields {
			if f.Name == k {
				partTypes[i] = f.Type
			}
		}
	}
	var keep map[string]bool
	if req.Partitions != nil {
		keep = map[string]bool{}
		for _, p := range req.Partitions {
			keep[p] = true
		}
	}
	schemas := map[int64]*paimonSchema{snap.SchemaID: schema}
	files := make([]paimonFile, 0, len(entries))
	for _, e := range entries {
		vals, err := paimonPartition(e.Partition, partTypes)
		if err != nil {
			return nil, fmt.Errorf("flusslake: a data file of Paimon snapshot %d of %s: %w", snap.ID, info.Path, err)
		}
		name := strings.Join(vals, "$")
		if keep != nil && !keep[name] {
			continue
		}
		path := filepath.Join(dir, paimonPartitionPath(schema.PartitionKeys, vals), fmt.Sprintf("bucket-%d", e.Bucket), e.File.FileName)
		if e.File.ExternalPath != nil && *e.File.ExternalPath != "" {
			if path, err = localDir(*e.File.ExternalPath); err != nil {
				return nil, fmt.Errorf("flusslake: a data file of %s: %w", info.Path, err)
			}
		}
		if req.Filter != nil && len(schema.PrimaryKeys) == 0 {
			stats, err := statsOf(dir, e.File, schemas)
			if err != nil {
				return nil, fmt.Errorf("flusslake: the statistics of %s: %w", path, err)
			}
			if stats != nil && !stats.mayMatch(info, *req.Filter) {
				continue // no row of the file passes the filter
			}
		}
		files = append(files, paimonFile{path: path, partition: name, bucket: e.Bucket})
	}
	// A bucket's files one after the other (the merge reads a bucket whole).
	slices.SortStableFunc(files, func(a, b paimonFile) int {
		if c := strings.Compare(a.partition, b.partition); c != 0 {
			return c
		}
		return int(a.bucket) - int(b.bucket)
	})

	cols := info.Schema().Columns
	names := make([]string, len(req.Columns))
	fields := make([]arrow.Field, len(req.Columns))
	for i, c := range req.Columns {
		names[i] = cols[c].Name
		if fields[i], err = types.ArrowField(cols[c].Name, cols[c].Type); err != nil {
			return nil, err
		}
	}
	// The files of a partitioned table key their rows by the primary key without the
	// partition keys (Paimon's trimmed primary key): the partition is the files' folder.
	var keys []string
	for _, k := range schema.PrimaryKeys {
		if !slices.Contains(schema.PartitionKeys, k) {
			keys = append(keys, k)
		}
	}
	if len(schema.PrimaryKeys) > 0 && len(keys) == 0 {
		keys = schema.PrimaryKeys
	}
	s := &paimonScan{files: files, names: names, out: arrow.NewSchema(fields, nil), keys: keys}
	return s, nil
}

// statsOf returns the value statistics of the data file f (nil when it has none), with
// schemas caching the table's schemas by id.
func statsOf(dir string, f paimonDataFile, schemas map[int64]*paimonSchema) (*paimonStats, error) {
	schema, ok := schemas[f.SchemaID]
	if !ok {
		var err error
		if schema, err = loadPaimonSchema(dir, f.SchemaID); err != nil {
			return nil, err
		}
		schemas[f.SchemaID] = schema
	}
	s := &paimonStats{}
	if f.StatsCols != nil {
		s.cols = *f.StatsCols
	} else {
		for _, fd := range schema.Fields {
			s.cols = append(s.cols, fd.Name)
		}
	}
	if len(s.cols) == 0 {
		return nil, nil
	}
	for _, c := range s.cols {
		t := ""
		for _, fd := range schema.Fields {
			if fd.Name == c {
				t = fd.Type
			}
		}
		s.types = append(s.types, t)
	}
	var err error
	if s.min, err = paimonBinaryRow(f.ValueStats.Min, len(s.cols)); err != nil {
		return nil, nil // statistics of another shape: the file is read
	}
	if s.max, err = paimonBinaryRow(f.ValueStats.Max, len(s.cols)); err != nil {
		return nil, nil
	}
	return s, nil
}

// paimonTableDir is the folder of the Paimon table of info in its filesystem catalog:
// <warehouse>/<database>.db/<table>.
func paimonTableDir(info *fluss.TableInfo) (string, error) {
	props := info.LakeCatalogProperties()
	if m := strings.ToLower(props["metastore"]); m != "" && m != "filesystem" {
		return "", fmt.Errorf("flusslake: table %s is tiered into a Paimon catalog of metastore %q; flusslake reads the filesystem catalog (datalake.paimon.metastore: filesystem) only", info.Path, m)
	}
	warehouse := props["warehouse"]
	if warehouse == "" {
		return "", fmt.Errorf("flusslake: table %s has no table.datalake.paimon.warehouse option: the server's datalake.paimon.warehouse is not set", info.Path)
	}
	dir, err := localDir(warehouse)
	if err != nil {
		return "", fmt.Errorf("flusslake: table %s: %w", info.Path, err)
	}
	return filepath.Join(dir, info.Path.Database+".db", info.Path.Table), nil
}

// paimonScan streams the rows of the kept data files: file by file for a table without a
// primary key, merged bucket by bucket for one with (keys: its primary key).
type paimonScan struct {
	files []paimonFile
	names []string
	out   *arrow.Schema
	keys  []string

	next   int                 // the next file to open
	cur    *parquetFile        // the file being read (append tables)
	merged []arrow.RecordBatch // the merged rows of the bucket being read (primary-key tables)
}

// Files implements fluss.LakeScan.
func (s *paimonScan) Files() []string {
	out := make([]string, len(s.files))
	for i, f := range s.files {
		out[i] = f.path
	}
	return out
}

// Next implements fluss.LakeScan.
func (s *paimonScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(s.keys) > 0 {
			if len(s.merged) > 0 {
				rec := s.merged[0]
				s.merged = s.merged[1:]
				defer rec.Release()
				return s.convert(ctx, rec)
			}
			if s.next >= len(s.files) {
				return nil, io.EOF
			}
			if err := s.mergeBucket(ctx); err != nil {
				return nil, err
			}
			continue
		}
		if s.cur == nil {
			if s.next >= len(s.files) {
				return nil, io.EOF
			}
			f, err := openParquet(ctx, s.files[s.next].path, s.names)
			if err != nil {
				return nil, err
			}
			s.next++
			s.cur = f
		}
		if s.cur.rr.Next() {
			return s.convert(ctx, s.cur.rr.RecordBatch())
		}
		err := s.cur.rr.Err()
		s.cur.close()
		s.cur = nil
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("flusslake: reading Paimon data: %w", err)
		}
	}
}

// convert returns rec with the requested columns, by name, in their Fluss Arrow types.
func (s *paimonScan) convert(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	return toFluss(ctx, rec, s.names, s.out, "Paimon")
}

// Close implements fluss.LakeScan.
func (s *paimonScan) Close() error {
	if s.cur != nil {
		s.cur.close()
		s.cur = nil
	}
	for _, r := range s.merged {
		r.Release()
	}
	s.merged = nil
	s.next = len(s.files)
	return nil
}

// parquetFile is an open Parquet data file and the reader of the columns asked for.
type parquetFile struct {
	f  *file.Reader
	rr pqarrow.RecordReader
}

// openParquet opens the Parquet file path to read the columns names (by name), batchRows
// rows at a time.
func openParquet(ctx context.Context, path string, names []string) (*parquetFile, error) {
	f, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("flusslake: opening the Paimon data file %s: %w", path, err)
	}
	fr, err := pqarrow.NewFileReader(f, pqarrow.ArrowReadProperties{BatchSize: batchRows}, memory.DefaultAllocator)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("flusslake: reading the Paimon data file %s: %w", path, err)
	}
	idx := make([]int, 0, len(names))
	for _, n := range names {
		i := f.MetaData().Schema.ColumnIndexByName(n)
		if i < 0 {
			_ = f.Close()
			return nil, fmt.Errorf("flusslake: the Paimon data file %s has no column %q (written before the column was added?)", path, n)
		}
		if !slices.Contains(idx, i) {
			idx = append(idx, i)
		}
	}
	rr, err := fr.GetRecordReader(ctx, idx, nil)
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("flusslake: reading the Paimon data file %s: %w", path, err)
	}
	return &parquetFile{f: f, rr: rr}, nil
}

// close releases the reader and closes the file.
func (p *parquetFile) close() {
	p.rr.Release()
	_ = p.f.Close()
}
