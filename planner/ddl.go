package planner

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/internal/sqlkind"
	"github.com/flussql/flussql/parser"
)

// CreateDatabase is CREATE DATABASE: call Admin.CreateDatabase(Name,
// Descriptor, IgnoreIfExists).
type CreateDatabase struct {
	Name           string
	Descriptor     fluss.DatabaseDescriptor
	IgnoreIfExists bool
}

// DropDatabase is DROP DATABASE: call Admin.DropDatabase(Name,
// IgnoreIfNotExists, Cascade).
type DropDatabase struct {
	Name              string
	IgnoreIfNotExists bool
	Cascade           bool
}

// Use is USE db: check that the database exists (Admin.DatabaseExists),
// then make it the session's database.
type Use struct {
	Database string
}

// CreateTable is CREATE TABLE: call Admin.CreateTable(Path, Descriptor,
// IgnoreIfExists). The descriptor is validated; primary-key columns are
// NOT NULL, as the server makes them.
type CreateTable struct {
	Path           fluss.TablePath
	Descriptor     fluss.TableDescriptor
	IgnoreIfExists bool
}

// DropTable is DROP TABLE: call Admin.DropTable(Path, IgnoreIfNotExists)
// and invalidate the table in the catalog.
type DropTable struct {
	Path              fluss.TablePath
	IgnoreIfNotExists bool
}

func planCreateDatabase(s *parser.CreateDatabase) *CreateDatabase {
	return &CreateDatabase{
		Name:           s.Name,
		Descriptor:     fluss.DatabaseDescriptor{Comment: s.Comment, CustomProperties: maps.Clone(s.Properties)},
		IgnoreIfExists: s.IfNotExists,
	}
}

// WITH keys that become descriptor fields rather than properties.
const (
	propBucketNum = "bucket.num"
	propBucketKey = "bucket.key"
)

func (b *builder) createTable(s *parser.CreateTable) (Plan, error) {
	path, err := b.path(s.Table)
	if err != nil {
		return nil, err
	}
	fail := func(format string, args ...any) error {
		return fmt.Errorf("invalid table %s: %s", path, fmt.Sprintf(format, args...))
	}
	d := fluss.TableDescriptor{
		Schema:        types.Schema{Columns: slices.Clone(s.Columns), PrimaryKey: slices.Clone(s.PrimaryKey)},
		PartitionKeys: slices.Clone(s.PartitionKeys),
		Comment:       s.Comment,
	}
	seen := map[string]bool{}
	for i, c := range d.Schema.Columns {
		if seen[c.Name] {
			return nil, fail("column %q is defined twice", c.Name)
		}
		seen[c.Name] = true
		if slices.Contains(d.Schema.PrimaryKey, c.Name) {
			d.Schema.Columns[i].Type = c.Type.AsNotNull()
		}
	}
	for _, k := range d.PartitionKeys {
		if i := d.Schema.Index(k); i >= 0 && !sqlkind.PartitionKey(d.Schema.Columns[i].Type.Kind) {
			return nil, fail("partition key %q has type %s, which cannot be a partition key", k, typeName(d.Schema.Columns[i].Type))
		}
	}
	props := maps.Clone(s.Properties)
	aggs, err := extractAggFunctions(d.Schema, props)
	if err != nil {
		return nil, fail("%v", err)
	}
	d.AggFunctions = aggs
	for k, v := range props {
		switch {
		case k == propBucketNum:
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n <= 0 {
				return nil, fail("'bucket.num' must be a positive integer, not %s", parser.QuoteString(v))
			}
			d.BucketCount = n
		case k == propBucketKey:
			for _, col := range strings.Split(v, ",") {
				if col = strings.TrimSpace(col); col == "" {
					return nil, fail("'bucket.key' must be a comma-separated list of columns, not %s", parser.QuoteString(v))
				}
				d.BucketKeys = append(d.BucketKeys, strings.TrimSpace(col))
			}
		case strings.HasPrefix(k, "table.") || strings.HasPrefix(k, "client."):
			if d.Properties == nil {
				d.Properties = map[string]string{}
			}
			d.Properties[k] = v
		default:
			if d.CustomProperties == nil {
				d.CustomProperties = map[string]string{}
			}
			d.CustomProperties[k] = v
		}
	}
	if err := d.Validate(); err != nil {
		var fe *fluss.Error
		if errors.As(err, &fe) && fe.Message != "" {
			return nil, fail("%s", fe.Message)
		}
		return nil, fail("%v", err)
	}
	return &CreateTable{Path: path, Descriptor: d, IgnoreIfExists: s.IfNotExists}, nil
}

// AddPartition is ALTER TABLE … ADD PARTITION: once bound, call
// Admin.CreatePartition(Path, Spec, IgnoreIfExists) and invalidate the
// table's partitions in the catalog.
type AddPartition struct {
	Path fluss.TablePath
	// Values holds one value per partition key, in key order.
	Values []Value
	// Spec is the partition spec with values rendered as Fluss partition
	// strings; set by Bind.
	Spec           fluss.PartitionSpec
	IgnoreIfExists bool
	Placeholders
}

// DropPartition is ALTER TABLE … DROP PARTITION: once bound, call
// Admin.DropPartition(Path, Spec, IgnoreIfNotExists) and invalidate the
// table's partitions in the catalog.
type DropPartition struct {
	Path              fluss.TablePath
	Values            []Value
	Spec              fluss.PartitionSpec
	IgnoreIfNotExists bool
	Placeholders
}

func (b *builder) addPartition(s *parser.AlterTableAddPartition) (Plan, error) {
	info, vals, err := b.partitionSpec(s.Table, s.Partition, false)
	if err != nil {
		return nil, err
	}
	return &AddPartition{Path: info.Path, Values: vals, IgnoreIfExists: s.IfNotExists, Placeholders: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}, nil
}

func (b *builder) dropPartition(s *parser.AlterTableDropPartition) (Plan, error) {
	info, vals, err := b.partitionSpec(s.Table, s.Partition, false)
	if err != nil {
		return nil, err
	}
	return &DropPartition{Path: info.Path, Values: vals, IgnoreIfNotExists: s.IfExists, Placeholders: Placeholders{Params: parser.Placeholders(s), Location: b.sess.Location}}, nil
}

// partitionSpec resolves a PARTITION (k = v, …) clause: values converted
// to the partition columns' types, in partition-key order. With partial,
// keys may be left out (their Values entries have an empty Column).
func (b *builder) partitionSpec(t parser.TableName, spec []parser.PartitionValue, partial bool) (*fluss.TableInfo, []Value, error) {
	info, err := b.table(t)
	if err != nil {
		return nil, nil, err
	}
	keys := info.PartitionKeys()
	if len(keys) == 0 {
		return nil, nil, errNotPartitioned(info)
	}
	keyText := strings.Join(keys, ", ")
	vals := make([]Value, len(keys))
	for _, pv := range spec {
		k := slices.Index(keys, pv.Column)
		if k < 0 {
			return nil, nil, fmt.Errorf("%q is not a partition key of %s; partition keys: %s", pv.Column, info.Path, keyText)
		}
		if vals[k].Column != "" {
			return nil, nil, fmt.Errorf("partition key %q is given twice", pv.Column)
		}
		col := info.Schema().Columns[info.Schema().Index(pv.Column)]
		v, err := newValue(col.Name, col.Type, pv.Value, b.sess.Location)
		if err != nil {
			return nil, nil, err
		}
		vals[k] = v
	}
	if !partial {
		for k, v := range vals {
			if v.Column == "" {
				return nil, nil, fmt.Errorf("partition key %q has no value; a partition of %s names every partition key: %s", keys[k], info.Path, keyText)
			}
		}
	}
	return info, vals, nil
}

// renderSpec renders bound partition values as a spec (entries without a
// column are skipped). create applies the stricter checks for new
// partitions.
func renderSpec(vals []Value, create bool) (fluss.PartitionSpec, error) {
	spec := fluss.PartitionSpec{}
	for _, v := range vals {
		if v.Column == "" {
			continue
		}
		s, err := partitionString(v.Type, v.Const)
		if err != nil {
			return nil, fmt.Errorf("partition key %q: %w", v.Column, err)
		}
		if err := checkPartitionValue(v.Column, s, create); err != nil {
			return nil, err
		}
		spec[v.Column] = s
	}
	return spec, nil
}
