package fluss

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// offlineClient is a closed client: anything needing the server fails.
func offlineClient() *Client {
	c := &Client{cfg: Config{BootstrapServers: []string{"127.0.0.1:1"}}.withDefaults(), meta: newMetadataCache(), closed: make(chan struct{})}
	close(c.closed)
	return c
}

// partitionedUsers is the seed's partitioned_users table with 16 buckets.
func partitionedUsers() *TableInfo {
	return &TableInfo{
		Path: TablePath{"db", "partitioned_users"}, TableID: 1, SchemaID: 1,
		Descriptor: TableDescriptor{
			Schema: types.Schema{
				Columns: []types.Column{
					{Name: "user_id", Type: types.NewInt().AsNotNull()},
					{Name: "region", Type: types.NewString().AsNotNull()},
					{Name: "score", Type: types.NewBigInt()},
				},
				PrimaryKey: []string{"user_id", "region"},
			},
			PartitionKeys: []string{"region"},
			BucketCount:   16,
		},
	}
}

// The key of a lookup is the physical primary key (partition columns
// left out) and its bucket is Java's: INT 200 encodes as c8 01, whose tail
// bytes are sign-extended by the hash (bucket 6 of 16; a zero-extending
// hash gives 10). Vectors from ../shared/fluss-protocol.md §6.2.
func TestKeyRouterLookupKey(t *testing.T) {
	info := partitionedUsers()
	tb := &Table{c: offlineClient(), info: info}
	l, err := tb.NewLookuper()
	require.NoError(t, err)
	for _, tc := range []struct {
		key       []any
		bytes     []byte
		bucket    int32
		partition string
	}{
		{[]any{int32(200), "US"}, []byte{0xc8, 0x01}, 6, "US"},
		{[]any{int32(1), "EU"}, []byte{0x01}, 12, "EU"},
	} {
		rk, err := l.router.route(tc.key)
		require.NoError(t, err)
		assert.Equal(t, tc.bytes, rk.key)
		assert.Equal(t, tc.bucket, rk.bucket)
		assert.Equal(t, tc.partition, rk.partition)
	}

	_, err = l.router.route([]any{int32(1), nil})
	assert.ErrorContains(t, err, `partition column "region" is NULL`)
	_, err = l.router.route([]any{nil, "US"})
	assert.ErrorContains(t, err, `"user_id"`)
}

// A partitioned table whose partition does not exist: lookups say "not
// found" without an error (as the Java client), and the error a writer
// would get names the statement that creates it.
func TestMissingPartitionMessage(t *testing.T) {
	pt, err := openPKTable(&Table{c: offlineClient(), info: partitionedUsers()})
	require.NoError(t, err)
	err = pt.missingPartition("O'Brien", nil)
	assert.ErrorIs(t, err, ErrPartitionNotExists)
	var pne *PartitionNotExistError
	require.ErrorAs(t, err, &pne)
	assert.Equal(t, PartitionNotExistError{Table: TablePath{"db", "partitioned_users"}, Keys: []string{"region"}, Values: []string{"O'Brien"}}, *pne)
	assert.EqualError(t, err, "fluss: partition region=O'Brien of db.partitioned_users does not exist; create it (Admin.CreatePartition) or turn on WriterOptions.AutoCreatePartitions")
	assert.NotContains(t, err.Error(), "ALTER TABLE", "the wire client speaks no SQL")
}

func TestMatchBuckets(t *testing.T) {
	p1, p2 := int64(1), int64(2)
	reqs := []*kvBucketReq{{bucket: 0}, {bucket: 1, partitionID: &p1}, {bucket: 1, partitionID: &p2}, {bucket: 5}}
	resps := []*protocol.PbLookupRespForBucket{
		{BucketId: proto.Int32(1), PartitionId: proto.Int64(2)},
		{BucketId: proto.Int32(0)},
		{BucketId: proto.Int32(1), PartitionId: proto.Int64(1)},
	}
	got := matchBuckets(reqs, resps, func(r *protocol.PbLookupRespForBucket) (*int64, int32) { return r.PartitionId, r.GetBucketId() })
	assert.Same(t, resps[1], got[0])
	assert.Same(t, resps[2], got[1])
	assert.Same(t, resps[0], got[2])
	assert.Nil(t, got[3], "no answer for bucket 5")
}

// Values of another schema id are decoded with that schema and mapped to
// the current columns by name; a schema that cannot be fetched is an error.
func TestValueReaderSchemas(t *testing.T) {
	info := partitionedUsers()
	v := newValueReader(offlineClient(), info.Path, info, row.Compacted)
	enc, err := row.NewCompactedEncoder(row.FieldTypes(info.Schema().Columns))
	require.NoError(t, err)
	rb, err := enc.Append(nil, []any{int32(7), "US", nil})
	require.NoError(t, err)
	got, err := v.decode(kvbatch.AppendValue(nil, 1, rb))
	require.NoError(t, err)
	assert.Equal(t, []any{int32(7), "US", nil}, got)

	_, err = v.decode(kvbatch.AppendValue(nil, 2, rb))
	assert.ErrorIs(t, err, ErrClosed, "schema 2 must be fetched from the server")

	// pretend schema 0 had (score, user_id) only
	v.mapping[0] = []int{1, -1, 0}
	assert.Equal(t, []any{int32(3), nil, int64(9)}, v.project(0, []any{int64(9), int32(3)}))
}

// FuzzDecodeKVValues feeds arbitrary bytes to the decoders of lookup values
// and limit-scan answers: malformed input is an error, never a panic.
func FuzzDecodeKVValues(f *testing.F) {
	info := partitionedUsers()
	enc, _ := row.NewCompactedEncoder(row.FieldTypes(info.Schema().Columns))
	r1, _ := enc.Append(nil, []any{int32(1), "US", int64(5)})
	r2, _ := enc.Append(nil, []any{int32(2), "EU", nil})
	f.Add(kvbatch.AppendValue(nil, 1, r1))
	f.Add(kvbatch.AppendValueBatch(nil, []kvbatch.ValueRecord{{SchemaID: 1, Row: r1}, {SchemaID: 1, Row: r2}}))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		pt, err := openPKTable(&Table{c: offlineClient(), info: partitionedUsers()})
		require.NoError(t, err)
		if rows, err := pt.decodeValueBatches(b, 10); err == nil {
			assert.LessOrEqual(t, len(rows), 10)
		}
		_, _ = pt.values.decode(b)
	})
}
