package fluss

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A metadata answer naming a leader with an older epoch than one already seen for the bucket
// (a deposed leader's cache) leaves the bucket leaderless; newer and equal epochs are taken,
// answers without an epoch are left alone, and a re-created table starts afresh.
func TestFenceStaleLeaders(t *testing.T) {
	loc := func(bucket, leader, epoch int32) bucketLocation {
		return bucketLocation{Bucket: bucket, Leader: leader, LeaderEpoch: epoch, epochKnown: true}
	}
	m := newMetadataCache()
	for _, step := range []struct {
		name        string
		table, part int64
		in          []bucketLocation
		wantLeaders []int32
		wantFenced  [][4]int32
	}{
		{"first answer", 1, -1, []bucketLocation{loc(0, 1, 0), loc(1, 2, 3)}, []int32{1, 2}, nil},
		{"bucket 0 moved to a newer epoch", 1, -1, []bucketLocation{loc(0, 2, 1), loc(1, 2, 3)}, []int32{2, 2}, nil},
		{"a deposed leader's cache: bucket 0 back at epoch 0", 1, -1, []bucketLocation{loc(0, 1, 0), loc(1, 2, 3)}, []int32{-1, 2}, [][4]int32{{0, 1, 0, 1}}},
		{"the same epoch again", 1, -1, []bucketLocation{loc(0, 2, 1), loc(1, 2, 3)}, []int32{2, 2}, nil},
		{"no epoch in the answer", 1, -1, []bucketLocation{{Bucket: 0, Leader: 1}, loc(1, 2, 3)}, []int32{1, 2}, nil},
		{"a leaderless bucket", 1, -1, []bucketLocation{loc(0, -1, 0), loc(1, 2, 3)}, []int32{-1, 2}, nil},
		{"another partition of the table", 1, 7, []bucketLocation{loc(0, 1, 0)}, []int32{1}, nil},
		{"the table created again", 2, -1, []bucketLocation{loc(0, 1, 0), loc(1, 1, 0)}, []int32{1, 1}, nil},
	} {
		got := m.fenceStaleLeaders(step.table, step.part, step.in)
		var leaders []int32
		for _, b := range step.in {
			leaders = append(leaders, b.Leader)
		}
		assert.Equal(t, step.wantLeaders, leaders, step.name)
		assert.Equal(t, step.wantFenced, got, step.name)
	}
}

// With the experiment switch on, a stale leader is reported but kept.
func TestFenceStaleLeadersGuardOff(t *testing.T) {
	m := newMetadataCache()
	m.guardOff = true
	in := []bucketLocation{{Bucket: 0, Leader: 2, LeaderEpoch: 5, epochKnown: true}}
	assert.Empty(t, m.fenceStaleLeaders(1, -1, in))
	in = []bucketLocation{{Bucket: 0, Leader: 1, LeaderEpoch: 4, epochKnown: true}}
	assert.Equal(t, [][4]int32{{0, 1, 4, 5}}, m.fenceStaleLeaders(1, -1, in))
	assert.Equal(t, int32(1), in[0].Leader, "the stale leader is kept")
}
