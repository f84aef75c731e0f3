package flusstest

import (
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// FuzzHandleRequest feeds arbitrary request bodies to every handler of a cluster with a log
// table and a primary-key table: a request that does not decode, or names what does not
// exist, is answered with an error, never a panic.
func FuzzHandleRequest(f *testing.F) {
	seeds := []proto.Message{
		&protocol.MetadataRequest{TablePath: []*protocol.PbTablePath{{DatabaseName: proto.String("fluss"), TableName: proto.String("logs")}}},
		&protocol.ProduceLogRequest{TableId: proto.Int64(101), BucketsReq: []*protocol.PbProduceLogReqForBucket{{BucketId: proto.Int32(0), Records: []byte{1, 2, 3}}}},
		&protocol.PutKvRequest{TableId: proto.Int64(102), BucketsReq: []*protocol.PbPutKvReqForBucket{{BucketId: proto.Int32(0), Records: []byte{0, 0, 0, 9}}}},
		&protocol.FetchLogRequest{TablesReq: []*protocol.PbFetchLogReqForTable{{TableId: proto.Int64(101), ProjectionPushdownEnabled: proto.Bool(true),
			ProjectedFields: []int32{1, 7}, BucketsReq: []*protocol.PbFetchLogReqForBucket{{BucketId: proto.Int32(0), FetchOffset: proto.Int64(0)}}}}},
		&protocol.LookupRequest{TableId: proto.Int64(102), BucketsReq: []*protocol.PbLookupReqForBucket{{BucketId: proto.Int32(3), Keys: [][]byte{{1}}}}},
		&protocol.CreateTableRequest{TablePath: &protocol.PbTablePath{DatabaseName: proto.String("fluss"), TableName: proto.String("x")}, TableJson: []byte(`{"version":1}`)},
		&protocol.ListOffsetsRequest{TableId: proto.Int64(101), OffsetType: proto.Int32(2), BucketId: []int32{0, 5}},
		&protocol.LimitScanRequest{TableId: proto.Int64(102), BucketId: proto.Int32(0), Limit: proto.Int32(-1)},
	}
	for _, m := range seeds {
		b, err := proto.MarshalOptions{AllowPartial: true}.Marshal(m)
		if err != nil {
			f.Fatal(err)
		}
		for api := range handlers {
			f.Add(int16(api), b)
		}
	}
	c, err := Start()
	if err != nil {
		f.Fatal(err)
	}
	defer c.Close()
	cols := []types.Column{{Name: "id", Type: types.NewInt().AsNotNull()}, {Name: "v", Type: types.NewString()}}
	c.CreateTable("fluss", "logs", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{Columns: cols}}, BucketCount: 2})
	c.CreateTable("fluss", "kv", types.TableJSON{Schema: types.SchemaJSON{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"id"}}}, BucketCount: 2})
	f.Fuzz(func(t *testing.T, api int16, body []byte) {
		for _, n := range append([]*node{c.coord}, c.tablets...) {
			_, _ = c.handle(&request{node: n, api: APIKey(api), body: body})
		}
	})
}
