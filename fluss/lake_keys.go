package fluss

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/internal/row"
)

// tableKeying is how the Java client (0.9.1) encodes and hashes the keys of
// a table, which depends on its datalake format so that Fluss buckets line
// up with the lake's buckets:
//
//   - the bucket key is encoded by the lake's key encoder (KeyEncoder.of:
//     CompactedKeyEncoder for none and lance, PaimonKeyEncoder,
//     IcebergKeyEncoder) and hashed by the lake's bucketing function
//     (BucketingFunction.of);
//   - the primary key sent to the server (PutKv, Lookup) and the prefix key
//     of a prefix lookup (KeyEncoder.ofPrimaryKeyEncoder) use the lake's
//     encoder too, except on tables of kv format version 2 (every table a
//     0.9 coordinator creates) whose bucket key is not the physical primary
//     key: those use CompactedKeyEncoder, so that the encoded bucket key is a
//     prefix of the encoded primary key, as prefix lookups need.
//
// The server stores the key bytes as sent; it does not re-encode them.
type tableKeying struct {
	keyFormat    row.KeyFormat // primary keys and prefix keys
	bucketFormat row.KeyFormat // bucket keys
	bucket       bucketing.Function
}

// keyingOf returns the keying of a table from its properties.
func keyingOf(info *TableInfo) (tableKeying, error) {
	lake := info.Property(PropDatalakeFormat, "")
	var k tableKeying
	var err error
	if k.bucketFormat, err = row.LakeKeyFormat(lake); err != nil {
		return k, fmt.Errorf("fluss: %s: %w; this client cannot route its rows", info.Path, err)
	}
	if k.bucket, err = bucketing.ForLake(lake); err != nil {
		return k, fmt.Errorf("fluss: %s: %w", info.Path, err)
	}
	k.keyFormat = k.bucketFormat
	if !info.HasPrimaryKey() || k.bucketFormat == row.KeyCompacted {
		return k, nil
	}
	version, err := strconv.Atoi(info.Property(PropKvFormatVersion, "1"))
	if err != nil || version < 1 || version > 2 {
		return k, fmt.Errorf("fluss: %s has %s=%q; this client knows kv format versions 1 and 2", info.Path, PropKvFormatVersion, info.Property(PropKvFormatVersion, ""))
	}
	if version == 2 && !slices.Equal(info.BucketKeys(), info.PhysicalPrimaryKey()) {
		k.keyFormat = row.KeyCompacted
	}
	return k, nil
}
