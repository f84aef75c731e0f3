package logbatch

import (
	"encoding/binary"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zstdBatch encodes a random 300-row batch of every scalar type with ZSTD.
func zstdBatch(t *testing.T) (Batch, *ArrowDecoder, func()) {
	t.Helper()
	as := arrowSchema(t, scalarSchema(), nil)
	rec := randomRecord(t, memory.DefaultAllocator, as, 300, 42)
	enc, err := NewArrowEncoder(as, CompressionZstd)
	require.NoError(t, err)
	buf, err := enc.AppendBatch(nil, Header{}, rec, nil)
	require.NoError(t, err)
	require.NoError(t, enc.Close())
	b, _, err := ParseBatch(buf)
	require.NoError(t, err)
	dec, err := NewArrowDecoder(as)
	require.NoError(t, err)
	want, err := dec.Decode(b)
	require.NoError(t, err)
	assertSameRecord(t, rec, want.Record)
	want.Release()
	return b, dec, func() { rec.Release(); dec.Close() }
}

// bodyBuffer is a non-empty buffer of a batch's Arrow message: the position of its
// uncompressed-length prefix in the batch's Data, and that prefix.
type bodyBuffer struct {
	at     int
	prefix int64
}

// bodyBuffers returns the non-empty buffers of b's Arrow message.
func bodyBuffers(t *testing.T, b Batch) []bodyBuffer {
	t.Helper()
	meta, rest, err := splitMessage(b.Records())
	require.NoError(t, err)
	root, _ := u32(meta, 0)
	header, ok, err := tableField(meta, int(root), fbMessageHeader)
	require.True(t, ok)
	require.NoError(t, err)
	vec, ok, err := tableField(meta, header, fbBatchBuffers)
	require.True(t, ok)
	require.NoError(t, err)
	n, _ := u32(meta, vec)
	bodyStart := len(b.Data) - len(rest)
	var out []bodyBuffer
	for i := 0; i < int(n); i++ {
		if off, length := bufferAt(meta, vec, i); length > 0 {
			out = append(out, bodyBuffer{bodyStart + int(off), int64(binary.LittleEndian.Uint64(rest[off:]))})
		}
	}
	return out
}

// firstCompressedBuffer returns the position in b.Data of the uncompressed-length prefix of
// the first compressed (not stored raw) buffer of b's Arrow message.
func firstCompressedBuffer(t *testing.T, b Batch) int {
	t.Helper()
	for _, buf := range bodyBuffers(t, b) {
		if buf.prefix != rawBufferMarker {
			return buf.at
		}
	}
	t.Fatal("no compressed buffer")
	return 0
}

// TestInlineZstdBodyStoredRaw decodes a ZSTD batch whose buffers the encoder stored raw (the
// -1 prefix) where compression did not make them smaller (the random values), next to
// compressed ones (the validity bitmaps of a column with every 7th value NULL compress).
func TestInlineZstdBodyStoredRaw(t *testing.T) {
	b, _, done := zstdBatch(t)
	defer done()
	raw, compressed := 0, 0
	for _, buf := range bodyBuffers(t, b) {
		if buf.prefix == rawBufferMarker {
			raw++
		} else {
			compressed++
		}
	}
	assert.Positive(t, raw, "buffers stored raw")
	assert.Positive(t, compressed, "buffers compressed")
}

// TestInlineZstdBodyCorrupt changes a compressed buffer's declared uncompressed length: every
// wrong length is an ErrCorrupt, never a panic or a short column, and the decoder still
// decodes the intact batch afterwards.
func TestInlineZstdBodyCorrupt(t *testing.T) {
	b, dec, done := zstdBatch(t)
	defer done()
	at := firstCompressedBuffer(t, b)
	size := int64(binary.LittleEndian.Uint64(b.Data[at:]))
	for _, bad := range []int64{size + 1, size - 1, 0, -2, 1 << 40} {
		if bad == size {
			continue
		}
		c := b
		c.Data = append([]byte(nil), b.Data...)
		binary.LittleEndian.PutUint64(c.Data[at:], uint64(bad))
		r, err := dec.Decode(c)
		if bad == 0 && err == nil {
			// A zero length is a valid empty buffer; the record then fails validation or
			// holds no values from it. Either way nothing panics.
			r.Release()
			continue
		}
		assert.ErrorIs(t, err, ErrCorrupt, "declared %d instead of %d", bad, size)
	}
	got, err := dec.Decode(b)
	require.NoError(t, err)
	assert.Equal(t, 300, got.NumRows())
	got.Release()
}

// TestInlineZstdBodyLimit: a batch that decompresses to more than WithMaxAllocation fails.
func TestInlineZstdBodyLimit(t *testing.T) {
	b, _, done := zstdBatch(t)
	defer done()
	dec, err := NewArrowDecoder(arrowSchema(t, scalarSchema(), nil), WithMaxAllocation(1024))
	require.NoError(t, err)
	defer dec.Close()
	_, err = dec.Decode(b)
	assert.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "limit")
}
