package logbatch

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The INDEXED example of fluss-protocol.md 4.7: schema (INT, STRING), one row
// (1, "a"), append-only, no writer.
const example47 = "0000000000000000" + "33000000" + "00" + "0000000000000000" + "907788a7" + "0100" + "01" +
	"00000000" + "ffffffffffffffff" + "ffffffff" + "01000000" +
	"0b000000" + "00" + "00" + "01000000" + "01000000" + "61"

func TestAppendBatchMatchesWorkedExample(t *testing.T) {
	want, err := hex.DecodeString(example47)
	require.NoError(t, err)
	records := want[HeaderSizeV0:]
	h := Header{SchemaID: 1, Attributes: AttrAppendOnly, WriterID: NoWriterID, BatchSequence: NoBatchSequence, RecordCount: 1}
	got, err := AppendBatch(nil, h, records)
	require.NoError(t, err)
	assert.Equal(t, hex.EncodeToString(want), hex.EncodeToString(got))

	b, n, err := ParseBatch(got)
	require.NoError(t, err)
	assert.Equal(t, len(got), n)
	assert.NoError(t, b.VerifyCRC())
	assert.Equal(t, uint32(0xa7887790), b.CRC)
	assert.Equal(t, int32(0), b.LastOffsetDelta)
	assert.True(t, b.AppendOnly())
	assert.Equal(t, int64(1), b.NextOffset())
	assert.Equal(t, records, b.Records())
}

func TestHeaderFieldsEveryMagic(t *testing.T) {
	for _, magic := range []int8{MagicV0, MagicV1, MagicV2} {
		h := Header{BaseOffset: 1 << 40, Magic: magic, CommitTimestamp: 1700000000123, LeaderEpoch: 7,
			SchemaID: 300, WriterID: 123456789, BatchSequence: 55, RecordCount: 4}
		buf, err := AppendBatch([]byte{0xAA}, h, []byte("abcd"))
		require.NoError(t, err)
		assert.Equal(t, byte(0xAA), buf[0], "dst prefix kept")
		b, _, err := ParseBatch(buf[1:])
		require.NoError(t, err)
		size, _ := HeaderSize(magic)
		assert.Len(t, b.Data, size+4)
		assert.Equal(t, int32(len(b.Data)-LogOverhead), int32(binary.LittleEndian.Uint32(b.Data[8:])))
		want := h
		want.LastOffsetDelta = 3
		want.CRC = b.ComputeCRC()
		if magic != MagicV2 {
			want.LeaderEpoch = NoLeaderEpoch // only magic 2 has a leader epoch
		}
		assert.Equal(t, want, b.Header)
		assert.NoError(t, b.VerifyCRC())
		assert.Equal(t, int64(1<<40+3), b.LastOffset())

		// The fields outside the CRC can be rewritten by the server without breaking it.
		binary.LittleEndian.PutUint64(b.Data[0:], 99)
		binary.LittleEndian.PutUint64(b.Data[13:], 42)
		assert.NoError(t, b.VerifyCRC())

		require.NoError(t, SetWriterState(b.Data, 5, 6))
		b2, _, err := ParseBatch(b.Data)
		require.NoError(t, err)
		assert.Equal(t, int64(5), b2.WriterID)
		assert.Equal(t, int32(6), b2.BatchSequence)
		assert.NoError(t, b2.VerifyCRC())
	}
}

func TestIteratorPartialAndCorrupt(t *testing.T) {
	mk := func(base int64, payload string) []byte {
		b, err := AppendBatch(nil, Header{BaseOffset: base, RecordCount: 1, Attributes: AttrAppendOnly}, []byte(payload))
		require.NoError(t, err)
		return b
	}
	one, two := mk(0, "first"), mk(1, "second")
	all := append(append([]byte{}, one...), two...)

	// Every truncation yields the complete batches before the cut, no error.
	for cut := 0; cut <= len(all); cut++ {
		batches, err := DecodeBatches(all[:cut], DecodeOptions{})
		require.NoError(t, err, "cut %d", cut)
		want := 0
		if cut >= len(one) {
			want = 1
		}
		if cut == len(all) {
			want = 2
		}
		assert.Len(t, batches, want, "cut %d", cut)
	}

	// A flipped byte inside the CRC range is reported, unless told to skip.
	bad := append([]byte{}, all...)
	bad[len(one)+HeaderSizeV0] ^= 1
	batches, err := DecodeBatches(bad, DecodeOptions{})
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.Len(t, batches, 1)
	batches, err = DecodeBatches(bad, DecodeOptions{SkipCRC: true})
	assert.NoError(t, err)
	assert.Len(t, batches, 2)

	cases := map[string]func(b []byte){
		"negative length":  func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 0xFFFFFFF0) },
		"length below hdr": func(b []byte) { binary.LittleEndian.PutUint32(b[8:], 20) },
		"unknown magic":    func(b []byte) { b[12] = 3 },
		"negative count":   func(b []byte) { binary.LittleEndian.PutUint32(b[44:], 0xFFFFFFFF) },
	}
	for name, corrupt := range cases {
		b := append([]byte{}, all...)
		corrupt(b)
		_, err := DecodeBatches(b, DecodeOptions{SkipCRC: true})
		assert.Error(t, err, name)
	}
}

func TestParseCompressionAndChangeType(t *testing.T) {
	for s, want := range map[string]Compression{"none": CompressionNone, "LZ4_FRAME": CompressionLZ4Frame, "zstd": CompressionZstd, "": CompressionZstd} {
		got, err := ParseCompression(s)
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := ParseCompression("snappy")
	assert.Error(t, err)
	assert.Equal(t, "LZ4_FRAME", CompressionLZ4Frame.String())

	for i, s := range []string{"+A", "+I", "-U", "+U", "-D"} {
		c, err := ParseChangeType(s)
		require.NoError(t, err)
		assert.Equal(t, ChangeType(i), c)
		assert.Equal(t, s, c.String())
	}
	assert.False(t, ChangeType(5).Valid())
	_, err = ParseChangeType("+X")
	assert.Error(t, err)
}

func TestPeekBatch(t *testing.T) {
	ex, err := hex.DecodeString(example47)
	require.NoError(t, err)
	at := func(base int64, delta int32) []byte {
		b := append([]byte(nil), ex...)
		binary.LittleEndian.PutUint64(b, uint64(base))
		binary.LittleEndian.PutUint32(b[28:], uint32(delta))
		return b
	}
	for _, tc := range []struct {
		name    string
		prefix  []byte
		size    int64
		next    int64
		wantErr string
	}{
		{name: "header of the worked example", prefix: ex[:HeaderSizeV0], size: int64(len(ex)), next: 1},
		{name: "whole batch", prefix: at(40, 4), size: int64(len(ex)), next: 45},
		{name: "magic byte missing", prefix: ex[:12], wantErr: "too short"},
		{name: "header cut", prefix: ex[:30], wantErr: "48-byte batch header"},
		{name: "unknown magic", prefix: append(append([]byte(nil), ex[:12]...), 9), wantErr: "unsupported batch magic"},
		{name: "negative delta", prefix: at(0, -1), wantErr: "last offset delta -1"},
		{name: "offset overflow", prefix: at(math.MaxInt64-5, 10), wantErr: "corrupt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			size, next, err := PeekBatch(tc.prefix)
			if tc.wantErr != "" {
				require.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.size, size)
			assert.Equal(t, tc.next, next)
		})
	}
}
