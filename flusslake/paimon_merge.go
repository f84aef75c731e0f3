package flusslake

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The system columns of the data files of a Paimon primary-key table (its KeyValue
// files): the key columns again as _KEY_<name>, then the sequence number Paimon gives each
// change of a bucket and the change's kind (_VALUE_KIND: 0 +I, 1 -U, 2 +U, 3 -D), then the
// table's columns.
const (
	paimonKeyPrefix = "_KEY_"
	paimonSequence  = "_SEQUENCE_NUMBER"
	paimonValueKind = "_VALUE_KIND"
)

// paimonWinner is the newest change of a key read so far: where it is and its sequence
// number and kind.
type paimonWinner struct {
	rec, row int
	seq      int64
	kind     int64
}

// mergeBucket reads every data file of the bucket of s.files[s.next] (Paimon's LSM tree
// of the bucket: its level-0 files and its sorted runs alike) and leaves in s.merged the
// rows of the keys whose newest change (the highest _SEQUENCE_NUMBER, the deduplicate
// merge engine's rule) is an insert or update-after: a key whose newest change is a
// delete is gone. The bucket is held in memory while it is merged.
func (s *paimonScan) mergeBucket(ctx context.Context) error {
	first := s.files[s.next]
	end := s.next
	for end < len(s.files) && s.files[end].partition == first.partition && s.files[end].bucket == first.bucket {
		end++
	}
	group := s.files[s.next:end]
	s.next = end
	read := []string{paimonSequence, paimonValueKind}
	for _, k := range s.keys {
		read = append(read, paimonKeyPrefix+k)
	}
	read = append(read, s.names...)

	var recs []arrow.RecordBatch
	release := func() {
		for _, r := range recs {
			r.Release()
		}
	}
	winners := map[string]paimonWinner{}
	var key strings.Builder
	for _, f := range group {
		pf, err := openParquet(ctx, f.path, read)
		if err != nil {
			release()
			return err
		}
		for pf.rr.Next() {
			rec := pf.rr.RecordBatch()
			rec.Retain()
			recs = append(recs, rec)
			r := len(recs) - 1
			seq, kind := rec.Column(rec.Schema().FieldIndices(paimonSequence)[0]), rec.Column(rec.Schema().FieldIndices(paimonValueKind)[0])
			keys := make([]arrow.Array, len(s.keys))
			for i, k := range s.keys {
				keys[i] = rec.Column(rec.Schema().FieldIndices(paimonKeyPrefix + k)[0])
			}
			for row := 0; row < int(rec.NumRows()); row++ {
				key.Reset()
				for _, k := range keys {
					if k.IsNull(row) {
						key.WriteString("N;")
						continue
					}
					v := k.ValueStr(row)
					key.WriteString(strconv.Itoa(len(v)))
					key.WriteByte(':')
					key.WriteString(v)
				}
				sq, kd := intAt(seq, row), intAt(kind, row)
				if w, ok := winners[key.String()]; !ok || sq >= w.seq {
					winners[key.String()] = paimonWinner{rec: r, row: row, seq: sq, kind: kd}
				}
			}
		}
		err = pf.rr.Err()
		pf.close()
		if err != nil && err != io.EOF {
			release()
			return fmt.Errorf("flusslake: reading Paimon data: %w", err)
		}
	}
	defer release()
	rows := make([][]int64, len(recs))
	for _, w := range winners {
		if w.kind == 0 || w.kind == 2 {
			rows[w.rec] = append(rows[w.rec], int64(w.row))
		}
	}
	for r, rec := range recs {
		if len(rows[r]) == 0 {
			continue
		}
		slices.Sort(rows[r])
		b := array.NewInt64Builder(memory.DefaultAllocator)
		b.AppendValues(rows[r], nil)
		idx := b.NewArray()
		b.Release()
		out, err := compute.Take(ctx, *compute.DefaultTakeOptions(), compute.NewDatumWithoutOwning(rec), compute.NewDatumWithoutOwning(idx))
		idx.Release()
		if err != nil {
			return fmt.Errorf("flusslake: merging a Paimon bucket: %w", err)
		}
		s.merged = append(s.merged, out.(*compute.RecordDatum).Value)
	}
	return nil
}

// intAt returns row of an integer column (Paimon writes _VALUE_KIND as a TINYINT and
// _SEQUENCE_NUMBER as a BIGINT).
func intAt(a arrow.Array, row int) int64 {
	switch a := a.(type) {
	case *array.Int8:
		return int64(a.Value(row))
	case *array.Int16:
		return int64(a.Value(row))
	case *array.Int32:
		return int64(a.Value(row))
	case *array.Int64:
		return a.Value(row)
	}
	n, _ := strconv.ParseInt(a.ValueStr(row), 10, 64)
	return n
}
