package fluss

import (
	"context"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"google.golang.org/protobuf/proto"
)

// fuzzSegment returns a remote segment of tbl's format: two batches of fuzzRows at
// offsets 0 and 3.
func fuzzSegment(t testing.TB, tbl *Table) []byte {
	b := encodeFuzzBatch(t, tbl, fuzzRows())
	second := append([]byte(nil), b...)
	binary.LittleEndian.PutUint64(second, 3)
	return append(append([]byte(nil), b...), second...)
}

// FuzzReadRemoteSegments feeds arbitrary segment files, start positions, declared sizes,
// fetch offsets and byte budgets to the reading of a fetch answered with remote log
// segments (two segments of the same bytes, the second starting at the first one's end
// offset), for ARROW, INDEXED and COMPACTED tables: an error is fine, a panic, a row
// before the fetch offset or a next offset that goes back is not.
func FuzzReadRemoteSegments(f *testing.F) {
	formats := []string{"ARROW", "INDEXED", "COMPACTED"}
	for i, format := range formats {
		seg := fuzzSegment(f, fuzzTable(f, format))
		f.Add(uint8(i), seg, int32(0), int32(len(seg)), int64(-2), int32(1<<20))
		f.Add(uint8(i), seg, int32(0), int32(len(seg)), int64(4), int32(1))
		f.Add(uint8(i), seg, int32(len(seg)/2), int32(len(seg)), int64(0), int32(100))
		f.Add(uint8(i), seg[:len(seg)-3], int32(0), int32(len(seg)), int64(0), int32(1<<20))
	}
	RegisterRemoteFS("fuzz", &memFS{})
	f.Fuzz(func(t *testing.T, format uint8, file []byte, pos, size int32, offset int64, budget int32) {
		tbl := fuzzTable(t, formats[int(format)%len(formats)])
		s := newFuzzScanner(t, tbl, []int{3, 0, 1})
		s.opts.MaxBucketBytes = int(budget)
		defer s.decs.close()
		defer s.remote.close()
		if offset < -2 {
			offset = -2
		}
		m := &memFS{files: map[string][]byte{
			"fuzz://d/a/00000000000000000000.log": file,
			"fuzz://d/b/00000000000000000006.log": file,
		}}
		RegisterRemoteFS("fuzz", m)
		info := &protocol.PbRemoteLogFetchInfo{
			RemoteLogTabletDir: proto.String("fuzz://d"),
			FirstStartPos:      proto.Int32(pos),
			RemoteLogSegments: []*protocol.PbRemoteLogSegment{
				{RemoteLogSegmentId: proto.String("a"), RemoteLogStartOffset: proto.Int64(0), RemoteLogEndOffset: proto.Int64(6), SegmentSizeInBytes: proto.Int32(size)},
				{RemoteLogSegmentId: proto.String("b"), RemoteLogStartOffset: proto.Int64(6), RemoteLogEndOffset: proto.Int64(12), SegmentSizeInBytes: proto.Int32(size)},
			},
		}
		fetch := &bucketFetch{tb: TableBucket{PartitionID: NoPartition}, offset: offset, end: -1}
		batches, next, err := s.readRemote(context.Background(), fetch, info, 0)
		if err != nil {
			require.Empty(t, batches)
			require.Equal(t, offset, next)
			return
		}
		require.GreaterOrEqual(t, next, offset)
		for _, b := range batches {
			require.Equal(t, 3, int(b.Record.NumCols()))
			if offset >= 0 {
				require.GreaterOrEqual(t, b.BaseOffset, offset)
			}
			require.LessOrEqual(t, b.BaseOffset+int64(b.NumRows()), next)
			for i := 0; i < b.NumRows(); i++ {
				_, err := RowValues(b.Record, s.proj.outTypes, i)
				require.NoError(t, err)
			}
			b.Release()
		}
	})
}
