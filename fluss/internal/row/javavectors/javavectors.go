// Package javavectors loads testdata/javavectors/vectors.json, the test vectors made
// by running the real Fluss 0.9.1 Java classes (see testdata/javavectors/README.md),
// and converts its type and value notation into the flussql row model. It is used
// by tests only.
package javavectors

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

// Type is a type as the generator writes it.
type Type struct {
	Root      string  `json:"root"`
	Length    int     `json:"length"`
	Precision int     `json:"precision"`
	Scale     int     `json:"scale"`
	Nullable  bool    `json:"nullable"`
	Fields    []Field `json:"fields"`
	Element   *Type   `json:"element"` // ARRAY
	Key       *Type   `json:"key"`     // MAP
	Value     *Type   `json:"value"`   // MAP
}

// Field is a ROW field as the generator writes it.
type Field struct {
	Name string `json:"name"`
	Type Type   `json:"type"`
}

// Vectors is the whole file.
type Vectors struct {
	FlussVersion string `json:"fluss_version"`
	JavaVersion  string `json:"java_version"`
	Hashes       []struct {
		Bytes   string         `json:"bytes"`
		Hash    int32          `json:"hash"`
		Buckets map[string]int `json:"buckets"`
	} `json:"hashes"`
	Keys []struct {
		Name    string            `json:"name"`
		Types   []Type            `json:"types"`
		Values  []json.RawMessage `json:"values"`
		Key     string            `json:"key"`
		Hash    int32             `json:"hash"`
		Buckets map[string]int    `json:"buckets"`
	} `json:"keys"`
	// LakeKeys are the keys and buckets of Paimon and Iceberg tables
	// (KeyEncoder.of and BucketingFunction.of of the format); Refused marks a
	// key the format's encoder refuses, BucketRefused one its bucketing
	// function refuses (an empty Iceberg key).
	LakeKeys []struct {
		Format        string            `json:"format"`
		Name          string            `json:"name"`
		Types         []Type            `json:"types"`
		Values        []json.RawMessage `json:"values"`
		Refused       bool              `json:"refused"`
		Key           string            `json:"key"`
		BucketRefused bool              `json:"bucket_refused"`
		Buckets       map[string]int    `json:"buckets"`
	} `json:"lake_keys"`
	// LakeTables are the keys fluss-client sends for the row (7, "seven", 49) of
	// primary-key tables (id INT, name STRING, score BIGINT) of each lake format
	// and kv format version, with the default bucket key or bucket key (id)
	// under primary key (id, name); Refused marks a table whose primary key
	// the Java client cannot encode.
	LakeTables []struct {
		Format          string   `json:"format"`
		KvFormatVersion string   `json:"kv_format_version"`
		PrimaryKey      []string `json:"primary_key"`
		BucketKeys      []string `json:"bucket_keys"`
		Refused         bool     `json:"refused"`
		Key             string   `json:"key"`
		BucketKey       string   `json:"bucket_key"`
		Bucket          int32    `json:"bucket"`
		PrefixKey       string   `json:"prefix_key"`
	} `json:"lake_tables"`
	Rows []struct {
		Name      string            `json:"name"`
		Types     []Type            `json:"types"`
		Values    []json.RawMessage `json:"values"`
		Compacted string            `json:"compacted"`
		Indexed   string            `json:"indexed"`
	} `json:"rows"`
	Tables []struct {
		Name    string `json:"name"`
		Columns []struct {
			Name string `json:"name"`
			Type Type   `json:"type"`
		} `json:"columns"`
		PrimaryKey         []string `json:"primary_key"`
		PartitionKeys      []string `json:"partition_keys"`
		BucketKeys         []string `json:"bucket_keys"`
		PhysicalPrimaryKey []string `json:"physical_primary_key"`
		NumBuckets         int      `json:"num_buckets"`
		Rows               []struct {
			Values    []json.RawMessage `json:"values"`
			Key       string            `json:"key"`
			BucketKey string            `json:"bucket_key"`
			Bucket    int               `json:"bucket"`
			Partition *string           `json:"partition"`
			Value     string            `json:"value"`
		} `json:"rows"`
	} `json:"tables"`
	KVBatches []struct {
		Format        string `json:"format"`
		SchemaID      int    `json:"schema_id"`
		WriterID      string `json:"writer_id"`
		BatchSequence int32  `json:"batch_sequence"`
		Types         []Type `json:"types"`
		Records       []struct {
			Key    string            `json:"key"`
			Values []json.RawMessage `json:"values"`
			Value  *string           `json:"value"`
		} `json:"records"`
		Batch string `json:"batch"`
	} `json:"kv_batches"`
	ValueBatches []struct {
		Format  string `json:"format"`
		Types   []Type `json:"types"`
		Records []struct {
			SchemaID    int16             `json:"schema_id"`
			Values      []json.RawMessage `json:"values"`
			LookupValue string            `json:"lookup_value"`
		} `json:"records"`
		Batch string `json:"batch"`
	} `json:"value_batches"`
	PartitionValues []struct {
		Type  Type            `json:"type"`
		Value json.RawMessage `json:"value"`
		Name  string          `json:"name"`
	} `json:"partition_values"`
}

// Load reads vectors.json from the module's testdata directory.
func Load() (*Vectors, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, fmt.Errorf("javavectors: go.mod not found above the working directory")
		}
		dir = parent
	}
	data, err := os.ReadFile(filepath.Join(dir, "testdata", "javavectors", "vectors.json"))
	if err != nil {
		return nil, err
	}
	var v Vectors
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("javavectors: %w", err)
	}
	return &v, nil
}

var roots = map[string]types.Kind{
	"BOOLEAN": types.Boolean, "TINYINT": types.TinyInt, "SMALLINT": types.SmallInt,
	"INTEGER": types.Int, "BIGINT": types.BigInt, "FLOAT": types.Float, "DOUBLE": types.Double,
	"DECIMAL": types.Decimal, "CHAR": types.Char, "STRING": types.String, "BINARY": types.Binary,
	"BYTES": types.Bytes, "DATE": types.Date, "TIME_WITHOUT_TIME_ZONE": types.Time,
	"TIMESTAMP_WITHOUT_TIME_ZONE": types.Timestamp, "TIMESTAMP_WITH_LOCAL_TIME_ZONE": types.TimestampLTZ,
	"ROW": types.Row, "ARRAY": types.Array, "MAP": types.Map,
}

// DataType converts a generator type into a types.DataType.
func (t Type) DataType() types.DataType {
	k, ok := roots[t.Root]
	if !ok {
		panic("javavectors: unknown type root " + t.Root)
	}
	dt := types.DataType{Kind: k, NotNull: !t.Nullable, Length: t.Length, Precision: t.Precision, Scale: t.Scale}
	for _, f := range t.Fields {
		dt.Fields = append(dt.Fields, types.Field{Name: f.Name, Type: f.Type.DataType()})
	}
	for _, p := range []struct {
		from *Type
		to   **types.DataType
	}{{t.Element, &dt.Elem}, {t.Key, &dt.Key}, {t.Value, &dt.Value}} {
		if p.from != nil {
			sub := p.from.DataType()
			*p.to = &sub
		}
	}
	return dt
}

// DataTypes converts a list of generator types.
func DataTypes(ts []Type) []types.DataType {
	out := make([]types.DataType, len(ts))
	for i, t := range ts {
		out[i] = t.DataType()
	}
	return out
}

// Values converts generator values of the given types into the row model.
func Values(ts []types.DataType, raw []json.RawMessage) ([]any, error) {
	if len(ts) != len(raw) {
		return nil, fmt.Errorf("javavectors: %d values for %d types", len(raw), len(ts))
	}
	out := make([]any, len(raw))
	for i := range raw {
		v, err := Value(ts[i], raw[i])
		if err != nil {
			return nil, fmt.Errorf("value %d: %w", i, err)
		}
		out[i] = v
	}
	return out, nil
}

// Value converts one generator value (see GenerateVectors.valueJson) into the row model.
func Value(t types.DataType, raw json.RawMessage) (any, error) {
	if string(raw) == "null" {
		return nil, nil
	}
	switch t.Kind {
	case types.Row:
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return nil, err
		}
		ft := make([]types.DataType, len(t.Fields))
		for i, f := range t.Fields {
			ft[i] = f.Type
		}
		return Values(ft, parts)
	case types.Array:
		var parts []json.RawMessage
		if err := json.Unmarshal(raw, &parts); err != nil {
			return nil, err
		}
		out := make([]any, len(parts))
		for i, p := range parts {
			v, err := Value(*t.Elem, p)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i, err)
			}
			out[i] = v
		}
		return out, nil
	case types.Map:
		var pairs [][2]json.RawMessage
		if err := json.Unmarshal(raw, &pairs); err != nil {
			return nil, err
		}
		out := make([]datum.MapEntry, len(pairs))
		for i, p := range pairs {
			k, err := Value(*t.Key, p[0])
			if err != nil {
				return nil, fmt.Errorf("key %d: %w", i, err)
			}
			v, err := Value(*t.Value, p[1])
			if err != nil {
				return nil, fmt.Errorf("value %d: %w", i, err)
			}
			out[i] = datum.MapEntry{Key: k, Value: v}
		}
		return out, nil
	}
	var s string
	if raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, err
		}
	} else {
		s = string(raw)
	}
	switch t.Kind {
	case types.Boolean:
		return strconv.ParseBool(s)
	case types.TinyInt:
		x, err := strconv.ParseInt(s, 10, 8)
		return int8(x), err
	case types.SmallInt:
		x, err := strconv.ParseInt(s, 10, 16)
		return int16(x), err
	case types.Int:
		x, err := strconv.ParseInt(s, 10, 32)
		return int32(x), err
	case types.Date:
		x, err := strconv.ParseInt(s, 10, 32)
		return datum.Date(x), err
	case types.Time:
		x, err := strconv.ParseInt(s, 10, 32)
		return datum.Time(x), err
	case types.BigInt:
		return strconv.ParseInt(s, 10, 64)
	case types.Float:
		x, err := strconv.ParseUint(s, 16, 32)
		return math.Float32frombits(uint32(x)), err
	case types.Double:
		x, err := strconv.ParseUint(s, 16, 64)
		return math.Float64frombits(x), err
	case types.Decimal:
		u, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return nil, fmt.Errorf("bad unscaled decimal %q", s)
		}
		return datum.NewDecimalFromBig(u, t.Scale), nil
	case types.Char, types.String:
		return s, nil
	case types.Binary, types.Bytes:
		return hex.DecodeString(s)
	case types.Timestamp, types.TimestampLTZ:
		ms, ns, ok := strings.Cut(s, ":")
		if !ok {
			return nil, fmt.Errorf("bad timestamp %q", s)
		}
		m, err := strconv.ParseInt(ms, 10, 64)
		if err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(ns, 10, 32)
		if err != nil {
			return nil, err
		}
		if t.Kind == types.Timestamp {
			return datum.TimestampNTZ{Millis: m, NanoOfMilli: int32(n)}, nil
		}
		return datum.TimestampLTZ{EpochMillis: m, NanoOfMilli: int32(n)}, nil
	}
	return nil, fmt.Errorf("no value form for %s", t)
}

// Hex decodes a hex string, panicking on malformed test data.
func Hex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
