package logbatch

import (
	"fmt"
	"math"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// fillRandom appends n values to b (row i NULL when i%nullEvery == 1 and the
// field is nullable), valid for the Fluss type behind b's Arrow type.
func fillRandom(t testing.TB, rng *rand.Rand, b array.Builder, f arrow.Field, n, nullEvery int) {
	for i := 0; i < n; i++ {
		if f.Nullable && nullEvery > 0 && i%nullEvery == 1 {
			b.AppendNull()
			continue
		}
		appendRandom(t, rng, b, f.Type)
	}
}

func appendRandom(t testing.TB, rng *rand.Rand, b array.Builder, dt arrow.DataType) {
	switch b := b.(type) {
	case *array.BooleanBuilder:
		b.Append(rng.IntN(2) == 0)
	case *array.Int8Builder:
		b.Append(int8(rng.Uint32()))
	case *array.Int16Builder:
		b.Append(int16(rng.Uint32()))
	case *array.Int32Builder:
		b.Append(int32(rng.Uint32()))
	case *array.Int64Builder:
		b.Append(int64(rng.Uint64()))
	case *array.Float32Builder:
		b.Append(math.Float32frombits(rng.Uint32()))
	case *array.Float64Builder:
		b.Append(math.Float64frombits(rng.Uint64()))
	case *array.Decimal128Builder:
		p := dt.(*arrow.Decimal128Type).Precision
		// Up to p decimal digits: hi*10^18 + lo with both parts random.
		v := big.NewInt(rng.Int64N(1_000_000_000_000_000_000))
		if p > 18 {
			hi := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p-18)), nil)
			hi.Rand(mrand.New(mrand.NewSource(rng.Int64())), hi)
			v.Add(v, hi.Mul(hi, big.NewInt(1_000_000_000_000_000_000)))
		} else {
			v.Mod(v, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(p)), nil))
		}
		if rng.IntN(2) == 0 {
			v.Neg(v)
		}
		b.Append(decimal128.FromBigInt(v))
	case *array.StringBuilder:
		b.Append(fmt.Sprintf("s%d-é✓", rng.IntN(100000))[:rng.IntN(5)+2])
	case *array.BinaryBuilder:
		v := make([]byte, rng.IntN(20))
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		b.Append(v)
	case *array.FixedSizeBinaryBuilder:
		v := make([]byte, dt.(*arrow.FixedSizeBinaryType).ByteWidth)
		for i := range v {
			v[i] = byte(rng.Uint32())
		}
		b.Append(v)
	case *array.Date32Builder:
		b.Append(arrow.Date32(rng.Int32N(100000) - 50000))
	case *array.Time32Builder:
		b.Append(arrow.Time32(rng.Int32N(86400)))
	case *array.Time64Builder:
		b.Append(arrow.Time64(rng.Int64N(86_400_000_000)))
	case *array.TimestampBuilder:
		b.Append(arrow.Timestamp(rng.Int64N(1<<50) - 1<<49))
	case *array.ListBuilder:
		k := rng.IntN(4)
		b.Append(true)
		for j := 0; j < k; j++ {
			if j == 1 {
				b.ValueBuilder().AppendNull()
				continue
			}
			appendRandom(t, rng, b.ValueBuilder(), dt.(*arrow.ListType).Elem())
		}
	case *array.MapBuilder:
		k := rng.IntN(3)
		b.Append(true)
		for j := 0; j < k; j++ {
			b.KeyBuilder().(*array.StringBuilder).Append(fmt.Sprintf("k%d", j))
			appendRandom(t, rng, b.ItemBuilder(), dt.(*arrow.MapType).ItemType())
		}
	case *array.StructBuilder:
		b.Append(true)
		st := dt.(*arrow.StructType)
		for j := 0; j < st.NumFields(); j++ {
			appendRandom(t, rng, b.FieldBuilder(j), st.Field(j).Type)
		}
	default:
		t.Fatalf("no generator for %T", b)
	}
}

// randomRecord builds n rows of the schema with NULLs in nullable columns.
func randomRecord(t testing.TB, mem memory.Allocator, s *arrow.Schema, n int, seed uint64) arrow.RecordBatch {
	rng := rand.New(rand.NewPCG(seed, 7))
	rb := array.NewRecordBuilder(mem, s)
	defer rb.Release()
	for i, f := range s.Fields() {
		fillRandom(t, rng, rb.Field(i), f, n, 3)
	}
	return rb.NewRecordBatch()
}

// TestArrowRoundTrip encodes every Fluss scalar type (and the nested ones)
// with NULLs under every compression and decodes it back unchanged.
func TestArrowRoundTrip(t *testing.T) {
	schemas := map[string]types.Schema{"scalars": scalarSchema(), "nested": nestedSchema()}
	for _, name := range []string{"scalars", "nested"} {
		for _, codec := range []Compression{CompressionNone, CompressionLZ4Frame, CompressionZstd} {
			for _, rows := range []int{1, 7, 1500} {
				for _, changelog := range []bool{false, true} {
					t.Run(fmt.Sprintf("%s/%s/%d/changelog=%v", name, codec, rows, changelog), func(t *testing.T) {
						mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
						defer mem.AssertSize(t, 0)
						as := arrowSchema(t, schemas[name], nil)
						rec := randomRecord(t, mem, as, rows, uint64(rows))
						defer rec.Release()
						var cts []ChangeType
						if changelog {
							for i := 0; i < rows; i++ {
								cts = append(cts, ChangeType(1+i%4))
							}
						}
						enc, err := NewArrowEncoder(as, codec, WithAllocator(mem))
						require.NoError(t, err)
						h := Header{SchemaID: 3, WriterID: 99, BatchSequence: 12}
						buf, err := enc.AppendBatch(nil, h, rec, cts)
						require.NoError(t, err)
						require.NoError(t, enc.Close())

						batches, err := DecodeBatches(buf, DecodeOptions{})
						require.NoError(t, err)
						require.Len(t, batches, 1)
						b := batches[0]
						assert.Equal(t, len(buf), len(b.Data))
						assert.Equal(t, int32(rows), b.RecordCount)
						assert.Equal(t, int32(rows-1), b.LastOffsetDelta)
						assert.Equal(t, int16(3), b.SchemaID)
						assert.Equal(t, int64(99), b.WriterID)
						assert.Equal(t, int32(12), b.BatchSequence)
						assert.Equal(t, !changelog, b.AppendOnly())
						assert.Equal(t, MagicV0, b.Magic)

						dec, err := NewArrowDecoder(as, WithAllocator(mem))
						require.NoError(t, err)
						defer dec.Close()
						got, err := dec.Decode(b)
						require.NoError(t, err)
						defer got.Release()
						assert.Equal(t, cts, got.ChangeTypes)
						require.Equal(t, rec.NumCols(), got.Record.NumCols())
						assertSameRecord(t, rec, got.Record)
					})
				}
			}
		}
	}
}

// TestArrowDecoderReuse decodes many batches with one decoder and encoder,
// including a corrupt one in between, and checks nothing leaks.
func TestArrowDecoderReuse(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	as := arrowSchema(t, scalarSchema(), nil)
	enc, err := NewArrowEncoder(as, CompressionZstd, WithAllocator(mem))
	require.NoError(t, err)
	defer enc.Close()
	dec, err := NewArrowDecoder(as, WithAllocator(mem))
	require.NoError(t, err)
	defer dec.Close()
	var buf []byte
	var recs []arrow.RecordBatch
	for i := 0; i < 5; i++ {
		rec := randomRecord(t, mem, as, 10+i, uint64(i))
		recs = append(recs, rec)
		buf, err = enc.AppendBatch(buf, Header{BaseOffset: int64(i * 100)}, rec, nil)
		require.NoError(t, err)
	}
	batches, err := DecodeBatches(buf, DecodeOptions{})
	require.NoError(t, err)
	require.Len(t, batches, 5)
	for i, b := range batches {
		if i == 2 {
			bad := b
			bad.Data = append([]byte(nil), b.Data...)
			bad.Data[len(bad.Data)-200] ^= 0xff // inside the compressed body
			if r, err := dec.Decode(bad); err == nil {
				r.Release() // a flipped byte may still decode; then it must be consistent
			}
		}
		got, err := dec.Decode(b)
		require.NoError(t, err)
		assert.Equal(t, int64(i*100), got.Offset(0))
		assertSameRecord(t, recs[i], got.Record)
		got.Release()
	}
	for _, r := range recs {
		r.Release()
	}
}

func TestArrowEncoderErrors(t *testing.T) {
	as := arrowSchema(t, scalarSchema(), nil)
	enc, err := NewArrowEncoder(as, CompressionNone)
	require.NoError(t, err)
	rec := randomRecord(t, memory.DefaultAllocator, as, 3, 1)
	defer rec.Release()

	_, err = enc.AppendBatch(nil, Header{}, rec, []ChangeType{Insert})
	assert.ErrorContains(t, err, "1 change types for 3 rows")
	_, err = enc.AppendBatch(nil, Header{}, rec, []ChangeType{Insert, 9, Delete})
	assert.ErrorContains(t, err, "invalid change type")
	other := arrowSchema(t, nestedSchema(), nil)
	rec2 := randomRecord(t, memory.DefaultAllocator, other, 2, 1)
	defer rec2.Release()
	_, err = enc.AppendBatch(nil, Header{}, rec2, nil)
	assert.ErrorContains(t, err, "does not match")
	_, err = enc.AppendBatch(nil, Header{Magic: 3}, rec, nil)
	assert.ErrorIs(t, err, ErrUnsupportedMagic)
	// The encoder still works after errors, and keeps dst's earlier content.
	buf, err := enc.AppendBatch([]byte("prefix"), Header{}, rec, nil)
	require.NoError(t, err)
	assert.Equal(t, "prefix", string(buf[:6]))
	_, err = DecodeBatches(buf[6:], DecodeOptions{})
	assert.NoError(t, err)
}

// assertSameRecord compares two records value by value (floats by their
// bits, so NaNs compare equal), reporting the first difference per column.
func assertSameRecord(t *testing.T, want, got arrow.RecordBatch) {
	t.Helper()
	require.Equal(t, want.NumRows(), got.NumRows())
	require.Equal(t, want.NumCols(), got.NumCols())
	for c := 0; c < int(want.NumCols()); c++ {
		assert.True(t, arrow.TypeEqual(want.Column(c).DataType(), got.Column(c).DataType()))
		for i := 0; i < int(want.NumRows()); i++ {
			w, g := formatValue(want.Column(c), i), formatValue(got.Column(c), i)
			if w != g {
				t.Errorf("column %s row %d: want %s, got %s", want.ColumnName(c), i, w, g)
				break
			}
		}
	}
}
