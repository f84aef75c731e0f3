package bucketing_test

import (
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/bucketing"
)

// TestMurmur3x86IcebergSpec checks the hash against the examples of the
// Iceberg table spec (appendix B, "32-bit hash requirements"), which are
// murmur3_x86_32 with seed 0 over the single-value serialization.
func TestMurmur3x86IcebergSpec(t *testing.T) {
	long34 := binary.LittleEndian.AppendUint64(nil, 34)
	for _, c := range []struct {
		name string
		in   []byte
		want int32
	}{
		{"long 34", long34, 2017239379},
		{"string iceberg", []byte("iceberg"), 1210000089},
		{"bytes 00010203", []byte{0, 1, 2, 3}, -188683207},
		{"empty", nil, 0},
	} {
		assert.Equal(t, c.want, int32(bucketing.Murmur3x86(c.in, 0)), c.name)
	}
}

func TestForLake(t *testing.T) {
	for _, f := range []string{"", "lance", "LANCE", "paimon", "Iceberg"} {
		fn, err := bucketing.ForLake(f)
		require.NoError(t, err, f)
		b, err := fn([]byte("abcdefgh"), 16)
		require.NoError(t, err)
		assert.True(t, b >= 0 && b < 16)
	}
	_, err := bucketing.ForLake("hudi")
	assert.ErrorContains(t, err, "hudi")
	for _, fn := range []bucketing.Function{bucketing.PaimonBucket, bucketing.IcebergBucket} {
		_, err := fn(nil, 4)
		assert.ErrorIs(t, err, bucketing.ErrEmptyKey)
		_, err = fn([]byte{1}, 0)
		assert.Error(t, err)
	}
}
