package bucketing_test

import (
	"testing"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// BenchmarkKeyAndBucket is the per-row routing cost of an upsert: encode the
// (BIGINT, STRING) primary key and pick its bucket among 16.
func BenchmarkKeyAndBucket(b *testing.B) {
	enc, err := row.NewKeyEncoder([]types.DataType{types.NewBigInt(), types.NewString(), types.NewDouble()}, []int{0, 1})
	if err != nil {
		b.Fatal(err)
	}
	values := []any{int64(1234567890), "customer-000042", 1.5}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = enc.Append(buf[:0], values); err != nil {
			b.Fatal(err)
		}
		if _, err := bucketing.Bucket(buf, 16); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHashBytes(b *testing.B) {
	key := []byte("customer-000042-with-a-longer-key")
	b.SetBytes(int64(len(key)))
	for b.Loop() {
		bucketing.HashBytes(key)
	}
}

func BenchmarkPartitionName(b *testing.B) {
	ts := []types.DataType{types.NewString(), types.NewDate()}
	values := []any{"eu-west", datum.Date(19723)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bucketing.PartitionName(ts, values); err != nil {
			b.Fatal(err)
		}
	}
}
