package row_test

import (
	"testing"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

var benchTypes = []types.DataType{
	types.NewBigInt().AsNotNull(), types.NewString(), types.NewInt(), types.NewDouble(),
	types.NewDecimal(10, 2), types.NewTimestamp(6), types.NewBoolean(), types.NewBytes(),
}

var benchValues = []any{
	int64(1234567890), "customer-000042", int32(-7), 3.14159, datum.NewDecimal(123456, 2),
	datum.TimestampNTZ{Millis: 1700000000123, NanoOfMilli: 456000}, true, []byte("payload-bytes"),
}

func BenchmarkEncodeRow(b *testing.B) {
	for _, f := range []row.Format{row.Compacted, row.Indexed} {
		b.Run(f.String(), func(b *testing.B) {
			enc, err := row.NewEncoder(f, benchTypes)
			if err != nil {
				b.Fatal(err)
			}
			buf := make([]byte, 0, 128)
			b.ReportAllocs()
			for b.Loop() {
				if buf, err = enc.Append(buf[:0], benchValues); err != nil {
					b.Fatal(err)
				}
			}
			b.SetBytes(int64(len(buf)))
		})
	}
}

func BenchmarkDecodeRow(b *testing.B) {
	for _, f := range []row.Format{row.Compacted, row.Indexed} {
		b.Run(f.String(), func(b *testing.B) {
			enc, _ := row.NewEncoder(f, benchTypes)
			data, err := enc.Append(nil, benchValues)
			if err != nil {
				b.Fatal(err)
			}
			dec, _ := row.NewDecoder(f, benchTypes)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := dec.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkEncodeKey(b *testing.B) {
	enc, err := row.NewKeyEncoder(benchTypes, []int{0, 1})
	if err != nil {
		b.Fatal(err)
	}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = enc.Append(buf[:0], benchValues); err != nil {
			b.Fatal(err)
		}
	}
}
