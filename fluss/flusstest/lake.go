package flusstest

import (
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// LakeSnapshot is a lake snapshot the fake reports for a table (GET_LAKE_SNAPSHOT): the
// lake's snapshot id and, per bucket of a non-partitioned table, the end of the log it
// holds (exclusive).
type LakeSnapshot struct {
	SnapshotID int64
	Offsets    map[int32]int64
}

// ServeLakeSnapshots makes the fake answer GET_LAKE_SNAPSHOT with what snapshot returns for
// the table (ok false: the server's "no lake snapshot" error). Call it before the client
// connects.
func (c *Cluster) ServeLakeSnapshots(snapshot func(db, table string) (LakeSnapshot, bool)) {
	c.Serve(protocol.GetLakeSnapshot, func(body []byte) (proto.Message, error) {
		var req protocol.GetLakeSnapshotRequest
		if err := proto.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		db, name := req.GetTablePath().GetDatabaseName(), req.GetTablePath().GetTableName()
		s, ok := snapshot(db, name)
		if !ok {
			return nil, errorf(int32(flusserr.LakeSnapshotNotExist), "Lake table snapshot not exist for table: "+db+"."+name)
		}
		resp := &protocol.GetLakeSnapshotResponse{TableId: proto.Int64(c.TableID(db, name)), SnapshotId: proto.Int64(s.SnapshotID)}
		for b, off := range s.Offsets {
			resp.BucketSnapshots = append(resp.BucketSnapshots, &protocol.PbLakeSnapshotForBucket{BucketId: proto.Int32(b), LogOffset: proto.Int64(off)})
		}
		return resp, nil
	})
}
