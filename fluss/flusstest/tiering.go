package flusstest

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// Tiered log storage, as a Fluss tablet server with 'remote.data.dir' keeps it: old log
// segments are moved to remote storage, and a fetch below the local log start offset is
// answered with the remote segments to read instead of records.

// remoteSegment is one tiered segment of a bucket: its batches back to back.
type remoteSegment struct {
	id         string
	start, end int64 // end is exclusive (the next segment's start offset)
	data       []byte
	// index holds the byte position of every other batch, by base offset (a sparse offset
	// index, like the server's log.index.interval-size).
	index []indexEntry
}

type indexEntry struct {
	offset int64
	pos    int32
}

// tiering is a bucket's tiered part: remote segments covering [0, localStart).
type tiering struct {
	dir        string // the remote log tablet directory answered
	segments   []remoteSegment
	localStart int64
}

// TierLog moves the oldest batches of a bucket (partition "" for none) to remote log
// segments of batchesPerSegment batches each, leaving at least keepBatches batches local,
// and returns the segment files it made, by path: {dir}/{segment id}/{start offset, 20
// digits}.log, the layout of a Fluss remote log tablet directory. dir may be any URI; the
// files exist only in the returned map (a test serves them with a fluss.RemoteFS, or writes
// them under a local dir). Fetches below the new local log start offset are then answered
// with a PbRemoteLogFetchInfo naming the segments from the one holding the fetch offset on,
// and the position, in the first, of the last indexed batch at or before the offset. Call it
// once per bucket.
func (c *Cluster) TierLog(db, name, partition string, b int32, dir string, batchesPerSegment, keepBatches int) map[string][]byte {
	c.helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	bk := c.mustBucket(db, name, partition, b)
	if bk.tier != nil {
		c.fatalf("bucket %d of %s.%s is tiered already", b, db, name)
	}
	if batchesPerSegment < 1 {
		batchesPerSegment = 1
	}
	tier := &tiering{dir: dir}
	files := map[string][]byte{}
	n := len(bk.log) - keepBatches
	for i := 0; i+batchesPerSegment <= n; i += batchesPerSegment {
		seg := remoteSegment{id: fmt.Sprintf("00000000-0000-4000-8000-%012d", len(tier.segments)), start: bk.log[i].base}
		for j, e := range bk.log[i : i+batchesPerSegment] {
			if j%2 == 0 {
				seg.index = append(seg.index, indexEntry{offset: e.base, pos: int32(len(seg.data))})
			}
			seg.data = append(seg.data, e.data...)
			seg.end = e.next
		}
		tier.segments = append(tier.segments, seg)
		tier.localStart = seg.end
		files[fmt.Sprintf("%s/%s/%020d.log", dir, seg.id, seg.start)] = seg.data
	}
	if len(tier.segments) > 0 {
		bk.tier = tier
	}
	return files
}

// remoteInfo returns the answer to a fetch at off when off lies in the tiered part of the
// bucket, else nil.
func (bk *bucket) remoteInfo(off int64) *protocol.PbRemoteLogFetchInfo {
	tr := bk.tier
	if tr == nil || off >= tr.localStart {
		return nil
	}
	info := &protocol.PbRemoteLogFetchInfo{RemoteLogTabletDir: proto.String(tr.dir)}
	for _, seg := range tr.segments {
		if seg.end <= off {
			continue
		}
		if len(info.RemoteLogSegments) == 0 {
			pos := int32(0)
			for _, e := range seg.index {
				if e.offset <= off {
					pos = e.pos
				}
			}
			info.FirstStartPos = proto.Int32(pos)
		}
		info.RemoteLogSegments = append(info.RemoteLogSegments, &protocol.PbRemoteLogSegment{
			RemoteLogSegmentId:   proto.String(seg.id),
			RemoteLogStartOffset: proto.Int64(seg.start),
			RemoteLogEndOffset:   proto.Int64(seg.end),
			SegmentSizeInBytes:   proto.Int32(int32(len(seg.data))),
			MaxTimestamp:         proto.Int64(0),
		})
	}
	return info
}
