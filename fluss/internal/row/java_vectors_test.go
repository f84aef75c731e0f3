package row_test

import (
	"encoding/hex"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

// normalize makes decoded and expected values comparable with require.Equal
// (Decimal holds a *big.Int for large values; floats are compared by their bits, except
// that all NaNs are equal: ARRAY elements store every NaN as Java's canonical NaN).
func normalize(v any) any {
	switch x := v.(type) {
	case datum.Decimal:
		return "decimal:" + x.String()
	case float32: // compare bits: NaN != NaN
		if x != x {
			return "float32:NaN"
		}
		return fmt.Sprintf("float32:%08x", math.Float32bits(x))
	case float64:
		if x != x {
			return "float64:NaN"
		}
		return fmt.Sprintf("float64:%016x", math.Float64bits(x))
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normalize(x[i])
		}
		return out
	case []datum.MapEntry:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = [2]any{normalize(e.Key), normalize(e.Value)}
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
				want := javaWithoutStaleSlots(t, rc.Name, f.format, javavectors.Hex(f.want))
				require.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got), "%s encoding", f.format)

				dec, err := row.NewDecoder(f.format, ts)
				require.NoError(t, err)
				back, err := dec.Decode(javavectors.Hex(f.want))
				require.NoError(t, err, f.format)
				require.Equal(t, normalize(values), normalize(back), "%s decoding", f.format)
			}
		})
	}
}

// javaStaleSlots lists, per vector and format, the 8-byte array slots of NULL elements in
// which Java leaves the bytes of an earlier array: ArraySerializer reuses its
// BinaryArrayWriter for arrays of the same size, and reset() clears the null bits but not
// the slots. Readers ignore a NULL element's slot; we write zeros there.
var javaStaleSlots = map[string]map[row.Format][]int{
	"array_java_stale_null_slots": {row.Compacted: {91, 123}, row.Indexed: {93, 125}},
}

// javaWithoutStaleSlots returns Java's bytes with its stale NULL slots zeroed, after
// checking that they are indeed not zero (so the list stays true).
func javaWithoutStaleSlots(t *testing.T, name string, f row.Format, b []byte) []byte {
	t.Helper()
	out := append([]byte(nil), b...)
	for _, off := range javaStaleSlots[name][f] {
		require.NotEqual(t, make([]byte, 8), out[off:off+8], "stale slot at %d", off)
		clear(out[off : off+8])
	}
	return out
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
