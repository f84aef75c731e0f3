package kvbatch_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/internal/row/javavectors"
	"github.com/flussql/flussql/fluss/types"
)

func FuzzDecode(f *testing.F) {
	v, err := javavectors.Load()
	require.NoError(f, err)
	for _, kb := range v.KVBatches {
		f.Add(javavectors.Hex(kb.Batch))
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		batch, n, err := kvbatch.Decode(data)
		if err != nil {
			require.ErrorIs(t, err, kvbatch.ErrCorrupt)
			return
		}
		require.LessOrEqual(t, n, len(data))
		// rebuilding the decoded records gives a batch that decodes to the same thing
		b, err := kvbatch.NewBuilder(int(uint16(batch.SchemaID) & 0x7fff))
		require.NoError(t, err)
		for _, r := range batch.Records {
			require.NoError(t, b.Append(r.Key, r.Value))
		}
		again, _, err := kvbatch.Decode(b.Build(batch.WriterID, batch.BatchSequence))
		require.NoError(t, err)
		require.Equal(t, len(batch.Records), len(again.Records))
		for i := range batch.Records {
			require.True(t, bytes.Equal(batch.Records[i].Key, again.Records[i].Key))
			require.True(t, bytes.Equal(batch.Records[i].Value, again.Records[i].Value))
			require.Equal(t, batch.Records[i].IsDelete(), again.Records[i].IsDelete())
		}
	})
}

func FuzzDecodeValueBatch(f *testing.F) {
	v, err := javavectors.Load()
	require.NoError(f, err)
	for _, vb := range v.ValueBatches {
		f.Add(javavectors.Hex(vb.Batch))
	}
	f.Add(kvbatch.AppendValueBatch(nil, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, n, err := kvbatch.DecodeValueBatch(data)
		if err != nil {
			require.ErrorIs(t, err, kvbatch.ErrCorrupt)
			return
		}
		require.Equal(t, data[:n], kvbatch.AppendValueBatch(nil, recs), "value batches have one encoding")
	})
}

// FuzzValueDecode feeds Lookup/PrefixLookup values (schema id + CompactedRow) through
// a ValueDecoder whose resolver knows schemas 1 and 2 only.
func FuzzValueDecode(f *testing.F) {
	v, err := javavectors.Load()
	require.NoError(f, err)
	for _, vb := range v.ValueBatches {
		for _, r := range vb.Records {
			f.Add(javavectors.Hex(r.LookupValue))
		}
	}
	f.Add([]byte{1, 0})
	schemas := map[int16][]types.DataType{
		1: {types.NewInt().AsNotNull(), types.NewString(), types.NewBigInt()},
		2: {types.NewInt().AsNotNull(), types.NewString(), types.NewBigInt(), types.NewDecimal(20, 2), types.NewTimestampLTZ(6)},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		vd := kvbatch.NewValueDecoder(row.Compacted, func(id int16) ([]types.DataType, error) {
			ts, ok := schemas[id]
			if !ok {
				return nil, errUnknownSchema
			}
			return ts, nil
		})
		id, values, err := vd.Decode(data)
		if err != nil {
			return
		}
		enc, err := row.NewCompactedEncoder(schemas[id])
		require.NoError(t, err)
		again, err := enc.Append(nil, values)
		require.NoError(t, err)
		_, back, err := vd.Decode(kvbatch.AppendValue(nil, id, again))
		require.NoError(t, err)
		require.Equal(t, len(values), len(back))
	})
}

type schemaError string

func (e schemaError) Error() string { return string(e) }

const errUnknownSchema = schemaError("unknown schema id")
