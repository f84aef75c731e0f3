package flussgorm

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"gorm.io/gorm/schema"
)

// TableOptions are the parts of a Fluss table a model cannot say with GORM's tags.
type TableOptions struct {
	// Buckets is the bucket count ('bucket.num'); 0 takes Config.Buckets, then the server's default.
	Buckets int
	// BucketKey are the columns (database names) rows are bucketed by ('bucket.key'); empty takes
	// the fields tagged `fluss:"bucket"`, then Fluss's default (the primary key without the
	// partition keys; a log table without one spreads rows over its buckets).
	BucketKey []string
	// PartitionedBy are the partition columns (database names); empty takes the fields tagged
	// `fluss:"partition"`. Fluss needs them in a primary-key table's key, and of type STRING.
	PartitionedBy []string
	// Comment is the table's comment.
	Comment string
	// Properties are more table options (WITH), e.g. 'table.merge-engine' = 'versioned',
	// 'table.log.ttl' = '7d', 'table.auto-partition.enabled' = 'true'.
	Properties map[string]string
}

// TableOptioner is implemented by a model that sets its table's options; the migrator creates
// its table with them.
//
//	func (Order) FlussTableOptions() flussgorm.TableOptions {
//		return flussgorm.TableOptions{Buckets: 4, PartitionedBy: []string{"day"}}
//	}
type TableOptioner interface {
	FlussTableOptions() TableOptions
}

// fieldTag reads a field's `fluss:"partition,bucket"` tag.
func fieldTag(f *schema.Field) (partition, bucket bool, err error) {
	tag, ok := f.StructField.Tag.Lookup("fluss")
	if !ok {
		return false, false, nil
	}
	for w := range strings.SplitSeq(tag, ",") {
		switch strings.TrimSpace(w) {
		case "partition":
			partition = true
		case "bucket":
			bucket = true
		case "":
		default:
			return false, false, fmt.Errorf("flussgorm: field %s: unknown fluss tag %q; the tag takes partition and bucket (`fluss:\"partition\"`, `fluss:\"bucket\"`), table options come from a FlussTableOptions method", f.Name, w)
		}
	}
	return partition, bucket, nil
}

// tableOptions merges a model's options over the dialector's defaults and its field tags.
func (d *Dialector) tableOptions(s *schema.Schema, model any) (TableOptions, error) {
	var o TableOptions
	if t, ok := model.(TableOptioner); ok {
		o = t.FlussTableOptions()
	}
	var partition, bucket []string
	for _, f := range s.Fields {
		if f.DBName == "" || f.IgnoreMigration {
			continue
		}
		p, b, err := fieldTag(f)
		if err != nil {
			return o, err
		}
		if p {
			partition = append(partition, f.DBName)
		}
		if b {
			bucket = append(bucket, f.DBName)
		}
	}
	if len(o.PartitionedBy) == 0 {
		o.PartitionedBy = partition
	}
	if len(o.BucketKey) == 0 {
		o.BucketKey = bucket
	}
	for _, c := range slices.Concat(o.PartitionedBy, o.BucketKey) {
		if _, ok := s.FieldsByDBName[c]; !ok {
			return o, fmt.Errorf("flussgorm: %s's table options name column %q, which the model does not have (use database names, e.g. %q)", s.Name, c, s.DBNames)
		}
	}
	props := maps.Clone(d.Properties)
	if props == nil {
		props = map[string]string{}
	}
	maps.Copy(props, o.Properties)
	if o.Buckets == 0 {
		o.Buckets = d.Buckets
	}
	if o.Buckets > 0 {
		props["bucket.num"] = strconv.Itoa(o.Buckets)
	}
	if len(o.BucketKey) > 0 {
		props["bucket.key"] = strings.Join(o.BucketKey, ",")
	}
	o.Properties = props
	return o, nil
}
