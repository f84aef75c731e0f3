package logbatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// addSeeds adds every golden batch file as a fuzz seed.
func addSeeds(f *testing.F) {
	for _, dir := range []string{"golden", "goenc"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.bin"))
		for _, p := range files {
			b, err := os.ReadFile(p)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
}

// FuzzDecodeBatches feeds arbitrary bytes through the batch iterator and the
// ARROW and INDEXED decoders (CRC checks off, so mutations reach the bodies).
// A corrupt input must give an error, never a panic or hang, and whatever
// decodes must be safe to read.
func FuzzDecodeBatches(f *testing.F) {
	addSeeds(f)
	addStatisticsSeeds(f)
	scalars, nested := scalarSchema(), nestedSchema()
	opts := []Option{WithAllocator(memory.NewGoAllocator()), WithMaxAllocation(1 << 20)}
	arrowScalars, err := NewArrowDecoder(arrowSchema(f, scalars, nil), opts...)
	if err != nil {
		f.Fatal(err)
	}
	arrowNested, err := NewArrowDecoder(arrowSchema(f, nested, nil), opts...)
	if err != nil {
		f.Fatal(err)
	}
	arrowProjected, err := NewArrowDecoder(arrowSchema(f, scalars, []int{0, 4, 11, 21}), opts...)
	if err != nil {
		f.Fatal(err)
	}
	indexed, err := NewIndexedDecoder(scalars, nil, opts...)
	if err != nil {
		f.Fatal(err)
	}
	decoders := []interface{ Decode(Batch) (*Records, error) }{arrowScalars, arrowNested, arrowProjected, indexed}
	statsTypes, _ := statsColumns(scalars)
	f.Fuzz(func(t *testing.T, data []byte) {
		if os.Getenv("FUZZ_WATCHDOG") != "" {
			timer := time.AfterFunc(10*time.Second, func() {
				_ = os.WriteFile(filepath.Join(os.TempDir(), "logbatch-hang.bin"), data, 0o644)
				panic("decode took over 10s")
			})
			defer timer.Stop()
		}
		for _, verify := range []bool{false, true} {
			it := NewIterator(data, DecodeOptions{SkipCRC: !verify})
			for it.Next() {
				b := it.Batch()
				if verify {
					continue
				}
				_, _ = ParseStatistics(b.Statistics(), statsTypes)
				for _, d := range decoders {
					recs, err := d.Decode(b)
					if err != nil {
						continue
					}
					for i := 0; i < recs.NumRows(); i++ {
						_ = recs.ChangeType(i)
						for _, col := range recs.Record.Columns() {
							_ = formatValue(col, i)
						}
					}
					recs.Release()
				}
			}
		}
	})
}

// FuzzArrowBody fuzzes the records section of an append-only ARROW batch (the
// Arrow IPC message) behind a valid header, so mutations concentrate on the
// flatbuffer metadata, buffer layout and compressed buffers.
func FuzzArrowBody(f *testing.F) {
	for _, name := range []string{"arrow_scalars_none", "arrow_scalars_lz4", "arrow_scalars_zstd"} {
		b, err := os.ReadFile(filepath.Join("testdata", "golden", name+".bin"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b[HeaderSizeV0:], uint8(6))
	}
	dec, err := NewArrowDecoder(arrowSchema(f, scalarSchema(), nil), WithMaxAllocation(1<<20))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, rows uint8) {
		buf, err := AppendBatch(nil, Header{Attributes: AttrAppendOnly, RecordCount: int32(rows)}, body)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := ParseBatch(buf)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := dec.Decode(b)
		if err != nil {
			return
		}
		defer recs.Release()
		if recs.NumRows() != int(rows) || recs.Record.NumRows() != int64(rows) {
			t.Fatalf("decoded %d rows, header says %d", recs.Record.NumRows(), rows)
		}
		for i := 0; i < recs.NumRows(); i++ {
			for _, col := range recs.Record.Columns() {
				_ = formatValue(col, i)
			}
		}
	})
}
