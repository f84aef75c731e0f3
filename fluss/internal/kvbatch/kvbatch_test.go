package kvbatch_test

import (
	"encoding/hex"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

func TestBuildMatchesJava(t *testing.T) {
	v, err := javavectors.Load()
	require.NoError(t, err)
	require.NotEmpty(t, v.KVBatches)
	for i, kb := range v.KVBatches {
		t.Run(kb.Format+"/"+strconv.Itoa(i), func(t *testing.T) {
			format, err := row.ParseFormat(kb.Format)
			require.NoError(t, err)
			ts := javavectors.DataTypes(kb.Types)
			enc, err := row.NewEncoder(format, ts)
			require.NoError(t, err)
			keyEnc, err := row.NewKeyEncoder(ts, []int{0})
			require.NoError(t, err)

			b, err := kvbatch.NewBuilder(kb.SchemaID)
			require.NoError(t, err)
			for _, rec := range kb.Records {
				if rec.Values == nil {
					require.Nil(t, rec.Value)
					require.NoError(t, b.AppendDelete(javavectors.Hex(rec.Key)))
					continue
				}
				values, err := javavectors.Values(ts, rec.Values)
				require.NoError(t, err)
				key, err := keyEnc.Encode(values)
				require.NoError(t, err)
				require.Equal(t, rec.Key, hex.EncodeToString(key))
				val, err := enc.Append(nil, values)
				require.NoError(t, err)
				require.Equal(t, *rec.Value, hex.EncodeToString(val))
				require.NoError(t, b.Append(key, val))
			}
			writerID, err := strconv.ParseInt(kb.WriterID, 10, 64)
			require.NoError(t, err)
			got := b.Build(writerID, kb.BatchSequence)
			require.Equal(t, kb.Batch, hex.EncodeToString(got))
			require.Equal(t, len(got), b.Size())

			// and back
			batch, n, err := kvbatch.Decode(javavectors.Hex(kb.Batch))
			require.NoError(t, err)
			assert.Equal(t, len(got), n)
			assert.Equal(t, int16(kb.SchemaID), batch.SchemaID)
			assert.Equal(t, writerID, batch.WriterID)
			assert.Equal(t, kb.BatchSequence, batch.BatchSequence)
			require.Len(t, batch.Records, len(kb.Records))
			dec, err := row.NewDecoder(format, ts)
			require.NoError(t, err)
			for j, rec := range kb.Records {
				assert.Equal(t, rec.Key, hex.EncodeToString(batch.Records[j].Key))
				if rec.Value == nil {
					assert.True(t, batch.Records[j].IsDelete())
					continue
				}
				assert.Equal(t, *rec.Value, hex.EncodeToString(batch.Records[j].Value))
				values, err := dec.Decode(batch.Records[j].Value)
				require.NoError(t, err)
				want, err := javavectors.Values(ts, rec.Values)
				require.NoError(t, err)
				assert.Equal(t, want, values)
			}
		})
	}
}

// The hand-made example of fluss-protocol.md section 5.1.
func TestProtocolNoteExample(t *testing.T) {
	const want = "2800000000754d6e47010000ffffffffffffffffffffffff0200000006000000010100010161020000000102"
	b, err := kvbatch.NewBuilder(1)
	require.NoError(t, err)
	require.NoError(t, b.Append([]byte{1}, []byte{0, 1, 1, 'a'}))
	require.NoError(t, b.AppendDelete([]byte{2}))
	assert.Equal(t, want, hex.EncodeToString(b.Build(kvbatch.NoWriterID, kvbatch.NoBatchSequence)))
	assert.Equal(t, 2, b.Count())
}

func TestBuilderRebuildAndReset(t *testing.T) {
	b, err := kvbatch.NewBuilder(5)
	require.NoError(t, err)
	require.NoError(t, b.Append([]byte("k"), []byte{0, 1}))
	first := append([]byte(nil), b.Build(kvbatch.NoWriterID, kvbatch.NoBatchSequence)...)
	second := b.Build(99, 3)
	assert.NotEqual(t, first, second)
	batch, _, err := kvbatch.Decode(second)
	require.NoError(t, err, "CRC must be recomputed on rebuild")
	assert.Equal(t, int64(99), batch.WriterID)
	assert.Equal(t, int32(3), batch.BatchSequence)
	assert.Equal(t, kvbatch.RecordSize([]byte("k"), []byte{0, 1})+kvbatch.HeaderSize, b.Size())

	b.Reset()
	assert.Equal(t, 0, b.Count())
	assert.Equal(t, kvbatch.HeaderSize, b.Size())
	batch, n, err := kvbatch.Decode(b.Build(kvbatch.NoWriterID, kvbatch.NoBatchSequence))
	require.NoError(t, err)
	assert.Equal(t, kvbatch.HeaderSize, n)
	assert.Empty(t, batch.Records)
}

func TestBuilderRejects(t *testing.T) {
	_, err := kvbatch.NewBuilder(-1)
	require.Error(t, err)
	_, err = kvbatch.NewBuilder(32768)
	require.Error(t, err)
	b, err := kvbatch.NewBuilder(1)
	require.NoError(t, err)
	require.Error(t, b.Append(nil, []byte{0}), "empty key")
	require.Error(t, b.Append([]byte{1}, []byte{}), "empty non-nil value")
	assert.Equal(t, 0, b.Count())
}

func TestDecodeRejectsCorruption(t *testing.T) {
	b, err := kvbatch.NewBuilder(1)
	require.NoError(t, err)
	require.NoError(t, b.Append([]byte{1}, []byte{0, 1, 1, 'a'}))
	good := append([]byte(nil), b.Build(7, 0)...)

	flip := append([]byte(nil), good...)
	flip[len(flip)-1] ^= 0xff
	_, _, err = kvbatch.Decode(flip)
	require.ErrorIs(t, err, kvbatch.ErrCorrupt)
	require.ErrorContains(t, err, "CRC")

	for n := 0; n < len(good); n++ {
		_, _, err := kvbatch.Decode(good[:n])
		require.ErrorIs(t, err, kvbatch.ErrCorrupt, "truncated to %d", n)
	}
	badMagic := append([]byte(nil), good...)
	badMagic[4] = 1
	_, _, err = kvbatch.Decode(badMagic)
	require.ErrorContains(t, err, "magic")

	// trailing bytes after the batch are not part of it
	batch, n, err := kvbatch.Decode(append(append([]byte(nil), good...), 0xaa, 0xbb))
	require.NoError(t, err)
	assert.Equal(t, len(good), n)
	assert.Len(t, batch.Records, 1)
}

func TestValueBatchMatchesJava(t *testing.T) {
	v, err := javavectors.Load()
	require.NoError(t, err)
	require.NotEmpty(t, v.ValueBatches)
	for _, vb := range v.ValueBatches {
		format, err := row.ParseFormat(vb.Format)
		require.NoError(t, err)
		ts := javavectors.DataTypes(vb.Types)
		enc, err := row.NewEncoder(format, ts)
		require.NoError(t, err)
		var recs []kvbatch.ValueRecord
		for _, r := range vb.Records {
			values, err := javavectors.Values(ts, r.Values)
			require.NoError(t, err)
			rowBytes, err := enc.Append(nil, values)
			require.NoError(t, err)
			assert.Equal(t, r.LookupValue, hex.EncodeToString(kvbatch.AppendValue(nil, r.SchemaID, rowBytes)))
			recs = append(recs, kvbatch.ValueRecord{SchemaID: r.SchemaID, Row: rowBytes})
		}
		assert.Equal(t, vb.Batch, hex.EncodeToString(kvbatch.AppendValueBatch(nil, recs)))

		got, n, err := kvbatch.DecodeValueBatch(javavectors.Hex(vb.Batch))
		require.NoError(t, err)
		assert.Equal(t, len(vb.Batch)/2, n)
		assert.Equal(t, recs, got)

		// lookup values decode through a ValueDecoder that resolves schema ids
		resolved := map[int16]int{}
		vd := kvbatch.NewValueDecoder(format, func(id int16) ([]types.DataType, error) {
			resolved[id]++
			return ts, nil
		})
		for _, r := range vb.Records {
			for range 2 {
				id, values, err := vd.Decode(javavectors.Hex(r.LookupValue))
				require.NoError(t, err)
				assert.Equal(t, r.SchemaID, id)
				want, err := javavectors.Values(ts, r.Values)
				require.NoError(t, err)
				assert.Equal(t, want, values)
			}
		}
		for id, n := range resolved {
			assert.Equal(t, 1, n, "schema %d resolved once", id)
		}
	}
}

func TestSplitValueRejectsShortValues(t *testing.T) {
	for _, v := range [][]byte{nil, {1}, {1, 0}} {
		_, _, err := kvbatch.SplitValue(v)
		require.ErrorIs(t, err, kvbatch.ErrCorrupt)
	}
	id, rowBytes, err := kvbatch.SplitValue([]byte{0x02, 0x01, 0x00, 0x05})
	require.NoError(t, err)
	assert.Equal(t, int16(258), id)
	assert.Equal(t, []byte{0x00, 0x05}, rowBytes)
}
