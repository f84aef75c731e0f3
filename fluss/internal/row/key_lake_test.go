package row_test

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

// TestLakeKeysMatchJava checks the Paimon and Iceberg key encodings and
// buckets against the Java client's PaimonKeyEncoder/IcebergKeyEncoder and
// PaimonBucketingFunction/IcebergBucketingFunction, and that the keys Java
// refuses are refused.
func TestLakeKeysMatchJava(t *testing.T) {
	v := loadVectors(t)
	seen := map[string]int{}
	for _, kc := range v.LakeKeys {
		seen[kc.Format]++
		t.Run(kc.Format+"/"+kc.Name, func(t *testing.T) {
			format, err := row.LakeKeyFormat(kc.Format)
			require.NoError(t, err)
			fn, err := bucketing.ForLake(kc.Format)
			require.NoError(t, err)
			ts := javavectors.DataTypes(kc.Types)
			values, err := javavectors.Values(ts, kc.Values)
			require.NoError(t, err)
			cols := make([]types.Column, len(ts))
			names := make([]string, len(ts))
			for i := range ts {
				names[i] = fmt.Sprintf("c%d", i)
				cols[i] = types.Column{Name: names[i], Type: ts[i]}
			}
			enc, err := row.NewLakeKeyEncoderForColumns(format, cols, names)
			if kc.Refused {
				require.Error(t, err, "Java refuses this key")
				return
			}
			require.NoError(t, err)
			got, err := enc.Encode(values)
			require.NoError(t, err)
			require.Equal(t, kc.Key, hex.EncodeToString(got))
			if kc.BucketRefused {
				_, err := fn(got, 4)
				require.ErrorIs(t, err, bucketing.ErrEmptyKey)
				return
			}
			require.NotEmpty(t, kc.Buckets)
			for n, want := range kc.Buckets {
				nb, err := strconv.Atoi(n)
				require.NoError(t, err)
				b, err := fn(got, nb)
				require.NoError(t, err)
				assert.Equal(t, want, b, "%s buckets", n)
			}
		})
	}
	assert.Greater(t, seen["paimon"], 50)
	assert.Greater(t, seen["iceberg"], 50)
}

// TestLakeKeyEncoderRefusals covers what the Java encoders refuse with a
// message naming the column, and NULL key values.
func TestLakeKeyEncoderRefusals(t *testing.T) {
	cols := []types.Column{
		{Name: "id", Type: types.DataType{Kind: types.Int}},
		{Name: "flag", Type: types.DataType{Kind: types.Boolean}},
		{Name: "tags", Type: types.DataType{Kind: types.Array, Elem: &types.DataType{Kind: types.Int}}},
	}
	_, err := row.NewLakeKeyEncoderForColumns(row.KeyIceberg, cols, []string{"id", "flag"})
	assert.ErrorContains(t, err, "exactly one column")
	_, err = row.NewLakeKeyEncoderForColumns(row.KeyIceberg, cols, []string{"flag"})
	assert.ErrorContains(t, err, `"flag"`)
	_, err = row.NewLakeKeyEncoderForColumns(row.KeyPaimon, cols, []string{"tags"})
	assert.Error(t, err)
	for _, f := range []row.KeyFormat{row.KeyPaimon, row.KeyIceberg} {
		enc, err := row.NewLakeKeyEncoderForColumns(f, cols, []string{"id"})
		require.NoError(t, err)
		_, err = enc.Encode([]any{nil, true, nil})
		assert.ErrorContains(t, err, "NULL", f.String())
	}
	_, err = row.LakeKeyFormat("hudi")
	assert.ErrorContains(t, err, "hudi")
}
