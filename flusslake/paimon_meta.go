package flusslake

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/twmb/avro"
	"github.com/twmb/avro/ocf"
)

// The metadata of a Paimon table in a filesystem catalog, as Paimon 1.x lays it out under
// <warehouse>/<database>.db/<table>/ (read from apache/paimon's Snapshot, TableSchema,
// ManifestFileMeta, ManifestEntry and DataFileMeta, and checked against the tables Fluss's
// tiering service writes):
//
//	snapshot/LATEST, snapshot/snapshot-<id>   JSON: schemaId, baseManifestList, deltaManifestList
//	schema/schema-<id>                        JSON: fields, partitionKeys, primaryKeys, options
//	manifest/manifest-list-…                  Avro: one record per manifest file (_FILE_NAME)
//	manifest/manifest-…                       Avro: ManifestEntry (_KIND, _PARTITION, _BUCKET, _FILE)
//	<k>=<v>/…/bucket-<n>/data-….parquet       the data files, one folder per partition and bucket

// paimonSnapshot is the part of a snapshot file flusslake reads.
type paimonSnapshot struct {
	ID                int64  `json:"id"`
	SchemaID          int64  `json:"schemaId"`
	BaseManifestList  string `json:"baseManifestList"`
	DeltaManifestList string `json:"deltaManifestList"`
	CommitKind        string `json:"commitKind"`
}

// paimonSchema is the part of a schema file flusslake reads.
type paimonSchema struct {
	Fields []struct {
		ID   int    `json:"id"`
		Name string `json:"name"`
		Type string `json:"type"`
	} `json:"fields"`
	PartitionKeys []string          `json:"partitionKeys"`
	PrimaryKeys   []string          `json:"primaryKeys"`
	Options       map[string]string `json:"options"`
}

// readJSON decodes the JSON file path into v.
func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decoding %s: %w", path, err)
	}
	return nil
}

// loadPaimonSchema reads schema id of the table in dir.
func loadPaimonSchema(dir string, id int64) (*paimonSchema, error) {
	var schema paimonSchema
	if err := readJSON(filepath.Join(dir, "schema", fmt.Sprintf("schema-%d", id)), &schema); err != nil {
		return nil, err
	}
	return &schema, nil
}

// loadPaimonSnapshot reads snapshot id of the table in dir (id < 0: the one snapshot/LATEST
// names) and the schema it was committed with.
func loadPaimonSnapshot(dir string, id int64) (*paimonSnapshot, *paimonSchema, error) {
	if id < 0 {
		b, err := os.ReadFile(filepath.Join(dir, "snapshot", "LATEST"))
		if err != nil {
			return nil, nil, err
		}
		if id, err = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err != nil {
			return nil, nil, fmt.Errorf("snapshot/LATEST of %s: %w", dir, err)
		}
	}
	var snap paimonSnapshot
	if err := readJSON(filepath.Join(dir, "snapshot", fmt.Sprintf("snapshot-%d", id)), &snap); err != nil {
		return nil, nil, err
	}
	schema, err := loadPaimonSchema(dir, snap.SchemaID)
	if err != nil {
		return nil, nil, err
	}
	return &snap, schema, nil
}

// paimonManifestFile is a record of a manifest list (ManifestFileMeta).
type paimonManifestFile struct {
	FileName string `avro:"_FILE_NAME"`
}

// paimonDataFile is DataFileMeta, the part flusslake reads.
type paimonDataFile struct {
	FileName   string `avro:"_FILE_NAME"`
	FileSize   int64  `avro:"_FILE_SIZE"`
	RowCount   int64  `avro:"_ROW_COUNT"`
	ValueStats struct {
		Min []byte `avro:"_MIN_VALUES"`
		Max []byte `avro:"_MAX_VALUES"`
	} `avro:"_VALUE_STATS"`
	MinSequence  int64     `avro:"_MIN_SEQUENCE_NUMBER"`
	MaxSequence  int64     `avro:"_MAX_SEQUENCE_NUMBER"`
	SchemaID     int64     `avro:"_SCHEMA_ID"`
	Level        int32     `avro:"_LEVEL"`
	StatsCols    *[]string `avro:"_VALUE_STATS_COLS"`
	ExternalPath *string   `avro:"_EXTERNAL_PATH"`
	ExtraFiles   []string  `avro:"_EXTRA_FILES"`
}

// paimonEntry is a ManifestEntry: a data file added to or deleted from a bucket of a
// partition (_PARTITION: the partition's values as a serialized BinaryRow).
type paimonEntry struct {
	Kind      int32          `avro:"_KIND"` // 0 ADD, 1 DELETE
	Partition []byte         `avro:"_PARTITION"`
	Bucket    int32          `avro:"_BUCKET"`
	File      paimonDataFile `avro:"_FILE"`
}

// The reader schemas of the two Avro files: the fields flusslake reads, under the names
// Paimon gives its records (Avro resolution skips the writer's other fields, and those a
// newer Paimon adds).
var (
	paimonManifestListSchema = avro.MustParse(`{"type": "record", "name": "record", "namespace": "org.apache.paimon.avro.generated",
		"fields": [{"name": "_FILE_NAME", "type": "string"}]}`)
	paimonManifestSchema = avro.MustParse(`{"type": "record", "name": "record", "namespace": "org.apache.paimon.avro.generated",
		"fields": [{"name": "_KIND", "type": "int"}, {"name": "_PARTITION", "type": "bytes"}, {"name": "_BUCKET", "type": "int"},
		{"name": "_FILE", "type": {"type": "record", "name": "record__FILE", "fields": [
			{"name": "_FILE_NAME", "type": "string"}, {"name": "_FILE_SIZE", "type": "long"}, {"name": "_ROW_COUNT", "type": "long"},
			{"name": "_VALUE_STATS", "type": {"type": "record", "name": "record__FILE__VALUE_STATS", "fields": [
				{"name": "_MIN_VALUES", "type": "bytes"}, {"name": "_MAX_VALUES", "type": "bytes"}]}},
			{"name": "_MIN_SEQUENCE_NUMBER", "type": "long"}, {"name": "_MAX_SEQUENCE_NUMBER", "type": "long"},
			{"name": "_SCHEMA_ID", "type": "long"},
			{"name": "_LEVEL", "type": "int"}, {"name": "_EXTRA_FILES", "type": {"type": "array", "items": "string"}},
			{"name": "_VALUE_STATS_COLS", "type": ["null", {"type": "array", "items": "string"}], "default": null},
			{"name": "_EXTERNAL_PATH", "type": ["null", "string"], "default": null}]}}]}`)
)

// readAvro decodes every record of the Avro object container file path with decode, read
// with the reader schema schema.
func readAvro(path string, schema *avro.Schema, decode func(r *ocf.Reader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := ocf.NewReader(f, ocf.WithReaderSchema(schema))
	if err != nil {
		return fmt.Errorf("reading the Avro file %s: %w", path, err)
	}
	defer r.Close()
	for {
		if err := decode(r); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("reading the Avro file %s: %w", path, err)
		}
	}
}

// paimonLiveFiles returns the data files of snap: the entries of the manifests of its base
// and then its delta manifest list, in order, a DELETE entry removing the file an earlier
// ADD entry added (compaction rewrites files so).
func paimonLiveFiles(dir string, snap *paimonSnapshot) ([]paimonEntry, error) {
	type key struct {
		partition string
		bucket    int32
		name      string
	}
	live := map[key]int{}
	var entries []paimonEntry
	for _, list := range []string{snap.BaseManifestList, snap.DeltaManifestList} {
		if list == "" {
			continue
		}
		var manifests []string
		err := readAvro(filepath.Join(dir, "manifest", list), paimonManifestListSchema, func(r *ocf.Reader) error {
			var m paimonManifestFile
			if err := r.Decode(&m); err != nil {
				return err
			}
			manifests = append(manifests, m.FileName)
			return nil
		})
		if err != nil {
			return nil, err
		}
		for _, m := range manifests {
			err := readAvro(filepath.Join(dir, "manifest", m), paimonManifestSchema, func(r *ocf.Reader) error {
				var e paimonEntry
				if err := r.Decode(&e); err != nil {
					return err
				}
				k := key{string(e.Partition), e.Bucket, e.File.FileName}
				switch e.Kind {
				case 0:
					live[k] = len(entries)
					entries = append(entries, e)
				case 1:
					if i, ok := live[k]; ok {
						entries[i].Kind = -1
						delete(live, k)
					}
				default:
					return fmt.Errorf("manifest entry of kind %d (Paimon knows 0 ADD and 1 DELETE)", e.Kind)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
	}
	out := entries[:0]
	for _, e := range entries {
		if e.Kind == 0 {
			out = append(out, e)
		}
	}
	return out, nil
}
