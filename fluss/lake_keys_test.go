package fluss

import (
	"encoding/hex"
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

// TestLakeTableKeysMatchJava routes the row (7, "seven", 49) of primary-key tables of
// each datalake format and kv format version as upserts, lookups and prefix lookups do,
// and compares the key, the bucket and the prefix key with what fluss-client 0.9.1 sends
// (UpsertWriterImpl, PrimaryKeyLookuper, PrefixKeyLookuper; testdata/javavectors).
func TestLakeTableKeysMatchJava(t *testing.T) {
	v, err := javavectors.Load()
	require.NoError(t, err)
	require.NotEmpty(t, v.LakeTables)
	schemaCols := []types.Column{
		{Name: "id", Type: types.DataType{Kind: types.Int}},
		{Name: "name", Type: types.DataType{Kind: types.String}},
		{Name: "score", Type: types.DataType{Kind: types.BigInt}},
	}
	vals := []any{int32(7), "seven", int64(49)}
	for _, tc := range v.LakeTables {
		name := fmt.Sprintf("%s/v%s/pk%v/bk%v", tc.Format, tc.KvFormatVersion, tc.PrimaryKey, tc.BucketKeys)
		t.Run(name, func(t *testing.T) {
			d := TableDescriptor{
				Schema:      types.Schema{Columns: schemaCols, PrimaryKey: tc.PrimaryKey},
				BucketCount: 4,
				Properties:  map[string]string{PropDatalakeFormat: tc.Format, PropKvFormatVersion: tc.KvFormatVersion},
			}
			if !slices.Equal(tc.BucketKeys, tc.PrimaryKey) {
				d.BucketKeys = tc.BucketKeys
			}
			info := &TableInfo{Path: TablePath{Database: "fluss", Table: "t"}, Descriptor: d}
			r, err := newKeyRouter(info, schemaCols, info.PhysicalPrimaryKey(), info.BucketKeys(), false)
			if tc.Refused {
				require.Error(t, err, "the Java client cannot encode this table's primary key")
				return
			}
			require.NoError(t, err)
			rk, err := r.route(vals)
			require.NoError(t, err)
			assert.Equal(t, tc.Key, hex.EncodeToString(rk.key), "primary key")
			assert.Equal(t, tc.Bucket, rk.bucket, "bucket")
			if tc.PrefixKey == "" {
				return
			}
			prefixCols := schemaCols[:1]
			pr, err := newKeyRouter(info, prefixCols, info.BucketKeys(), info.BucketKeys(), false)
			require.NoError(t, err)
			pk, err := pr.route(vals[:1])
			require.NoError(t, err)
			assert.Equal(t, tc.PrefixKey, hex.EncodeToString(pk.key), "prefix key")
			assert.Equal(t, tc.Bucket, pk.bucket, "prefix lookup bucket")
		})
	}
}

func TestKeyingOfRefusals(t *testing.T) {
	info := &TableInfo{Path: TablePath{Database: "db", Table: "t"}, Descriptor: TableDescriptor{
		Schema:      types.Schema{Columns: []types.Column{{Name: "id", Type: types.DataType{Kind: types.Int}}}, PrimaryKey: []string{"id"}},
		BucketCount: 2,
		Properties:  map[string]string{PropDatalakeFormat: "hudi"},
	}}
	_, err := keyingOf(info)
	assert.ErrorContains(t, err, "hudi")
	info.Descriptor.Properties = map[string]string{PropDatalakeFormat: "paimon", PropKvFormatVersion: "3"}
	_, err = keyingOf(info)
	assert.ErrorContains(t, err, "kv format versions 1 and 2")
}
