package bucketing_test

import (
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

// The vectors of fluss-protocol.md section 6.2 (Java BucketingFunctionTest plus
// extra rows produced with the real MurmurHashUtils/MathUtils).
func TestBucketProtocolNoteVectors(t *testing.T) {
	tests := []struct {
		key     []byte
		n       int
		bucket  int
		hash    int32
		hasHash bool
	}{
		{key: mustHex("000a"), n: 7, bucket: 1, hash: 1530214680, hasHash: true},
		{key: mustHex("000a0a0a"), n: 12, bucket: 0},
		{key: []byte("2bb87d68-baf9-4e64-90f9-f80910419fa6"), n: 16, bucket: 6},
		{key: []byte("The quick brown fox jumps over the lazy dog"), n: 8, bucket: 6},
		{key: mustHex("01"), n: 3, bucket: 0, hash: -386724586, hasHash: true},
		{key: mustHex("01"), n: 16, bucket: 12},
		{key: mustHex("0568656c6c6f"), n: 16, bucket: 15, hash: 636232302, hasHash: true},
		{key: mustHex("80"), n: 1000, bucket: 766, hash: 775851899, hasHash: true},
		{key: mustHex("fffe"), n: 10, bucket: 6, hash: -552689488, hasHash: true},
		{key: mustHex("02c3a9"), n: 10, bucket: 8, hash: 620298039, hasHash: true},
		{key: mustHex("c801"), n: 16, bucket: 6, hash: 1454026796, hasHash: true},
	}
	for _, tt := range tests {
		t.Run(hex.EncodeToString(tt.key)+"/"+strconv.Itoa(tt.n), func(t *testing.T) {
			if tt.hasHash {
				assert.Equal(t, tt.hash, bucketing.HashBytes(tt.key))
			}
			b, err := bucketing.Bucket(tt.key, tt.n)
			require.NoError(t, err)
			assert.Equal(t, tt.bucket, b)
		})
	}
}

func TestBucketMatchesJavaVectors(t *testing.T) {
	v, err := javavectors.Load()
	require.NoError(t, err)
	require.NotEmpty(t, v.Hashes)
	require.NotEmpty(t, v.Keys)
	check := func(t *testing.T, key []byte, hash int32, buckets map[string]int) {
		assert.Equal(t, hash, bucketing.HashBytes(key), "hash of %x", key)
		require.Len(t, buckets, 5)
		for ns, want := range buckets {
			n, err := strconv.Atoi(ns)
			require.NoError(t, err)
			got, err := bucketing.Bucket(key, n)
			require.NoError(t, err)
			assert.Equal(t, want, got, "bucket of %x among %d", key, n)
		}
	}
	for _, h := range v.Hashes {
		check(t, mustHex(h.Bytes), h.Hash, h.Buckets)
	}
	for _, k := range v.Keys {
		check(t, mustHex(k.Key), k.Hash, k.Buckets)
	}
	for _, tc := range v.Tables {
		for _, r := range tc.Rows {
			got, err := bucketing.Bucket(mustHex(r.BucketKey), tc.NumBuckets)
			require.NoError(t, err)
			assert.Equal(t, r.Bucket, got, "%s bucket of %s", tc.Name, r.BucketKey)
		}
	}
}

func TestBucketRejectsBadInput(t *testing.T) {
	_, err := bucketing.Bucket(nil, 4)
	require.ErrorIs(t, err, bucketing.ErrEmptyKey)
	_, err = bucketing.Bucket([]byte{1}, 0)
	require.Error(t, err)
	_, err = bucketing.Bucket([]byte{1}, -3)
	require.Error(t, err)
}

func TestPartitionValuesMatchJava(t *testing.T) {
	v, err := javavectors.Load()
	require.NoError(t, err)
	require.NotEmpty(t, v.PartitionValues)
	for _, pv := range v.PartitionValues {
		dt := pv.Type.DataType()
		val, err := javavectors.Value(dt, pv.Value)
		require.NoError(t, err)
		got, err := bucketing.PartitionValueString(dt, val)
		require.NoError(t, err)
		assert.Equal(t, pv.Name, got, "%s %s", dt, pv.Value)
	}
}

func TestPartitionNamesOfTablesMatchJava(t *testing.T) {
	v, err := javavectors.Load()
	require.NoError(t, err)
	seen := 0
	for _, tc := range v.Tables {
		if len(tc.PartitionKeys) == 0 {
			continue
		}
		all := make([]types.DataType, len(tc.Columns))
		pos := map[string]int{}
		for i, c := range tc.Columns {
			all[i] = c.Type.DataType()
			pos[c.Name] = i
		}
		for _, r := range tc.Rows {
			values, err := javavectors.Values(all, r.Values)
			require.NoError(t, err)
			var pt []types.DataType
			var pv []any
			for _, k := range tc.PartitionKeys {
				pt = append(pt, all[pos[k]])
				pv = append(pv, values[pos[k]])
			}
			name, err := bucketing.PartitionName(pt, pv)
			require.NoError(t, err)
			require.NotNil(t, r.Partition)
			assert.Equal(t, *r.Partition, name)
			seen++
		}
	}
	require.Positive(t, seen)
}

func TestPartitionNameErrors(t *testing.T) {
	_, err := bucketing.PartitionName([]types.DataType{types.NewString()}, []any{nil})
	require.ErrorContains(t, err, "NULL")
	_, err = bucketing.PartitionName([]types.DataType{types.NewInt()}, []any{int64(3)})
	require.ErrorContains(t, err, "int32")
	_, err = bucketing.PartitionName([]types.DataType{types.NewDecimal(5, 2)}, []any{datum.NewDecimal(1, 2)})
	require.ErrorContains(t, err, "cannot be a partition key")
	_, err = bucketing.PartitionName(nil, nil)
	require.Error(t, err)
	name, err := bucketing.PartitionName(
		[]types.DataType{types.NewString(), types.NewInt(), types.NewDate()},
		[]any{"eu", int32(7), datum.Date(0)})
	require.NoError(t, err)
	assert.Equal(t, "eu$7$1970-01-01", name)
}

func TestCheckPartitionValue(t *testing.T) {
	tests := []struct {
		value     string
		forCreate bool
		ok        bool
	}{
		{"2024-01-01", true, true},
		{"a_B-9", true, true},
		{"", false, false},
		{".", false, false},
		{"..", false, false},
		{"a.b", false, false},
		{"é", false, false},
		{"x$y", false, false},
		{"__sys", false, true},
		{"__sys", true, false},
		{string(make([]byte, 201)), false, false},
	}
	for _, tt := range tests {
		err := bucketing.CheckPartitionValue(tt.value, tt.forCreate)
		if tt.ok {
			assert.NoError(t, err, "%q", tt.value)
		} else {
			assert.Error(t, err, "%q", tt.value)
		}
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}
