package localcluster

import (
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

func TestTableLeaderless(t *testing.T) {
	bucket := func(id int32, leader *int32, replicas ...int32) *protocol.PbBucketMetadata {
		return &protocol.PbBucketMetadata{BucketId: proto.Int32(id), LeaderId: leader, ReplicaId: replicas}
	}
	plain := []byte(`{"schema":{},"partition_key":[],"bucket_count":2}`)
	partitioned := []byte(`{"schema":{},"partition_key":["region"],"bucket_count":2}`)
	live := map[int32]bool{0: true}
	cases := []struct {
		name string
		json []byte
		b    []*protocol.PbBucketMetadata
		want bool
	}{
		{"every bucket led", plain, []*protocol.PbBucketMetadata{bucket(0, proto.Int32(0), 0), bucket(1, proto.Int32(0), 0)}, false},
		{"a bucket without leader, its replica alive", plain, []*protocol.PbBucketMetadata{bucket(0, proto.Int32(0), 0), bucket(1, nil, 0)}, true},
		{"leader -1", plain, []*protocol.PbBucketMetadata{bucket(0, proto.Int32(-1), 0)}, true},
		{"no bucket at all", plain, nil, true},
		{"replica on a dead server: not a lost creation", plain, []*protocol.PbBucketMetadata{bucket(0, nil, 1)}, false},
		{"partitioned: buckets are per partition", partitioned, nil, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := tableLeaderless(&protocol.PbTableMetadata{TableJson: c.json, BucketMetadata: c.b}, live)
			require.NoError(t, err)
			require.Equal(t, c.want, got)
		})
	}
	_, err := tableLeaderless(&protocol.PbTableMetadata{TableJson: []byte("{")}, live)
	require.Error(t, err)
}
