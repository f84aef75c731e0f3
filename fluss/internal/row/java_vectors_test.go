package row_test

import (
	"encoding/hex"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

// normalize makes decoded and expected values comparable with require.Equal
// (Decimal holds a *big.Int for large values; floats are compared by their bits).
func normalize(v any) any {
	switch x := v.(type) {
	case row.Decimal:
		return "decimal:" + x.String()
	case float32: // compare bits: NaN != NaN
		return fmt.Sprintf("float32:%08x", math.Float32bits(x))
	case float64:
		return fmt.Sprintf("float64:%016x", math.Float64bits(x))
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normalize(x[i])
		}
		return out
	}
	return v
}

func loadVectors(t *testing.T) *javavectors.Vectors {
	t.Helper()
	v, err := javavectors.Load()
	require.NoError(t, err)
	require.Equal(t, "0.9.1-incubating", v.FlussVersion)
	return v
}

func TestRowsMatchJava(t *testing.T) {
	v := loadVectors(t)
	require.NotEmpty(t, v.Rows)
	for _, rc := range v.Rows {
		t.Run(rc.Name, func(t *testing.T) {
			ts := javavectors.DataTypes(rc.Types)
			values, err := javavectors.Values(ts, rc.Values)
			require.NoError(t, err)
			for _, f := range []struct {
				format row.Format
				want   string
			}{{row.Compacted, rc.Compacted}, {row.Indexed, rc.Indexed}} {
				enc, err := row.NewEncoder(f.format, ts)
				require.NoError(t, err)
				got, err := enc.Append(nil, values)
				require.NoError(t, err, f.format)
				require.Equal(t, f.want, hex.EncodeToString(got), "%s encoding", f.format)

				dec, err := row.NewDecoder(f.format, ts)
				require.NoError(t, err)
				back, err := dec.Decode(javavectors.Hex(f.want))
				require.NoError(t, err, f.format)
				require.Equal(t, normalize(values), normalize(back), "%s decoding", f.format)
			}
		})
	}
}

func TestKeysMatchJava(t *testing.T) {
	v := loadVectors(t)
	require.NotEmpty(t, v.Keys)
	for _, kc := range v.Keys {
		t.Run(kc.Name, func(t *testing.T) {
			ts := javavectors.DataTypes(kc.Types)
			values, err := javavectors.Values(ts, kc.Values)
			require.NoError(t, err)
			idx := make([]int, len(ts))
			for i := range idx {
				idx[i] = i
			}
			enc, err := row.NewKeyEncoder(ts, idx)
			require.NoError(t, err)
			got, err := enc.Encode(values)
			require.NoError(t, err)
			require.Equal(t, kc.Key, hex.EncodeToString(got))
		})
	}
}

func TestTablesPhysicalKeysMatchJava(t *testing.T) {
	v := loadVectors(t)
	require.NotEmpty(t, v.Tables)
	for _, tc := range v.Tables {
		t.Run(tc.Name, func(t *testing.T) {
			cols := make([]types.Column, len(tc.Columns))
			for i, c := range tc.Columns {
				cols[i] = types.Column{Name: c.Name, Type: c.Type.DataType()}
			}
			phys := row.PhysicalPrimaryKey(tc.PrimaryKey, tc.PartitionKeys)
			require.Equal(t, tc.PhysicalPrimaryKey, phys)
			pkEnc, err := row.NewKeyEncoderForColumns(cols, phys)
			require.NoError(t, err)
			bkEnc, err := row.NewKeyEncoderForColumns(cols, tc.BucketKeys)
			require.NoError(t, err)
			valEnc, err := row.NewCompactedEncoder(row.FieldTypes(cols))
			require.NoError(t, err)
			for _, r := range tc.Rows {
				values, err := javavectors.Values(row.FieldTypes(cols), r.Values)
				require.NoError(t, err)
				key, err := pkEnc.Encode(values)
				require.NoError(t, err)
				require.Equal(t, r.Key, hex.EncodeToString(key), "primary key")
				bk, err := bkEnc.Encode(values)
				require.NoError(t, err)
				require.Equal(t, r.BucketKey, hex.EncodeToString(bk), "bucket key")
				val, err := valEnc.Append(nil, values)
				require.NoError(t, err)
				require.Equal(t, r.Value, hex.EncodeToString(val), "value row")
			}
		})
	}
}
