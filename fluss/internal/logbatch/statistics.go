package logbatch

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/types"
)

// Column statistics of MagicV1/V2 batches (Fluss 1.0's
// LogRecordBatchStatisticsWriter format, little-endian):
//
//	Version(1) ColumnCount(2) ColumnIndex(2)×N NullCount(4)×N
//	MinRowSize(4) MinRow  MaxRowSize(4) MaxRow
//
// The min and max rows are AlignedRows (Flink's BinaryRow layout) with one
// field per statistics column: a null-bit header of
// ((N+63+8)/64)*8 bytes (the first 8 bits are a row-kind header), 8 bytes
// per field, then the variable-length part (strings longer than 7 bytes,
// 8-byte aligned). A field is null when its column has only nulls.

// StatisticsVersion is the statistics format version this package reads and writes.
const StatisticsVersion = 1

// ColumnStats is the statistics of one column of a batch.
type ColumnStats struct {
	// Column is the column's index in the batch's schema.
	Column int
	// NullCount is the number of null values.
	NullCount int32
	// Min and Max are the smallest and largest non-null values (bool, int8,
	// int16, int32 (also DATE days), int64, float32, float64 or string), or
	// nil when the column holds only nulls.
	Min, Max any
}

// StatisticsSupported reports whether this package computes statistics for
// columns of type t: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE,
// STRING and DATE (a subset of what Fluss 1.0 supports).
func StatisticsSupported(t types.DataType) bool {
	c := codec.For(t.Kind)
	return c != nil && c.StatsCompute != nil
}

// ComputeStatistics returns the statistics of the columns cols of rec
// (indexes into rec's columns, whose types are ts), as Fluss 1.0's
// collector computes them: floats compare like Java's Float.compare (NaN
// largest, -0 below +0), strings by their UTF-8 bytes.
func ComputeStatistics(rec arrow.RecordBatch, ts []types.DataType, cols []int) ([]ColumnStats, error) {
	out := make([]ColumnStats, len(cols))
	for i, c := range cols {
		if c < 0 || c >= int(rec.NumCols()) || c >= len(ts) {
			return nil, fmt.Errorf("logbatch: statistics column %d is not in the record", c)
		}
		if !StatisticsSupported(ts[c]) {
			return nil, fmt.Errorf("logbatch: no statistics for column %d of type %s", c, ts[c])
		}
		st, err := columnStats(rec.Column(c), ts[c])
		if err != nil {
			return nil, fmt.Errorf("logbatch: statistics of column %d: %w", c, err)
		}
		st.Column = c
		out[i] = st
	}
	return out, nil
}

func columnStats(a arrow.Array, t types.DataType) (ColumnStats, error) {
	st := ColumnStats{NullCount: int32(a.NullN())}
	var err error
	st.Min, st.Max, err = codec.For(t.Kind).StatsCompute(a, &t)
	return st, err
}

// alignedBitsetWidth is AlignedRow.calculateBitSetWidthInBytes.
func alignedBitsetWidth(n int) int { return (n + 63 + 8) / 64 * 8 }

// EncodeStatistics appends the statistics section of stats (types ts of the
// batch's columns, indexed by ColumnStats.Column) to dst.
func EncodeStatistics(dst []byte, ts []types.DataType, stats []ColumnStats) ([]byte, error) {
	if len(stats) > math.MaxInt16 {
		return dst, fmt.Errorf("logbatch: %d statistics columns is too many", len(stats))
	}
	le := binary.LittleEndian
	start := len(dst)
	dst = append(dst, StatisticsVersion)
	dst = le.AppendUint16(dst, uint16(len(stats)))
	for _, s := range stats {
		if s.Column < 0 || s.Column >= len(ts) || s.Column > math.MaxInt16 {
			return dst[:start], fmt.Errorf("logbatch: statistics column %d is not in the schema", s.Column)
		}
		dst = le.AppendUint16(dst, uint16(s.Column))
	}
	for _, s := range stats {
		dst = le.AppendUint32(dst, uint32(s.NullCount))
	}
	for _, max := range []bool{false, true} {
		row, err := alignedRow(ts, stats, max)
		if err != nil {
			return dst[:start], err
		}
		dst = le.AppendUint32(dst, uint32(len(row)))
		dst = append(dst, row...)
	}
	return dst, nil
}

// alignedRow encodes the min (or max) values of stats as an AlignedRow.
func alignedRow(ts []types.DataType, stats []ColumnStats, max bool) ([]byte, error) {
	bits := alignedBitsetWidth(len(stats))
	row := make([]byte, bits+8*len(stats))
	for i, s := range stats {
		v := s.Min
		if max {
			v = s.Max
		}
		off := bits + 8*i
		if v == nil {
			bit := i + 8
			row[bit/8] |= 1 << (bit % 8)
			continue
		}
		t := ts[s.Column]
		c := codec.For(t.Kind)
		if c == nil || c.StatsPut == nil {
			return nil, fmt.Errorf("logbatch: no statistics for column %d of type %s", s.Column, t)
		}
		var ok bool
		if row, ok = c.StatsPut(row, off, v); !ok {
			return nil, statsTypeErr(s.Column, t, v)
		}
	}
	return row, nil
}

func statsTypeErr(col int, t types.DataType, v any) error {
	return fmt.Errorf("logbatch: statistics value %T for column %d of type %s", v, col, t)
}

// ParseStatistics reads a statistics section (Batch.Statistics) of a batch
// whose columns have the types ts.
func ParseStatistics(b []byte, ts []types.DataType) ([]ColumnStats, error) {
	le := binary.LittleEndian
	if len(b) < 3 {
		return nil, fmt.Errorf("%w: statistics of %d bytes", ErrCorrupt, len(b))
	}
	if b[0] != StatisticsVersion {
		return nil, fmt.Errorf("%w: statistics version %d (this client reads %d)", ErrCorrupt, b[0], StatisticsVersion)
	}
	n := int(le.Uint16(b[1:]))
	p := 3
	if len(b) < p+6*n {
		return nil, fmt.Errorf("%w: statistics of %d columns in %d bytes", ErrCorrupt, n, len(b))
	}
	out := make([]ColumnStats, n)
	for i := range out {
		c := int(le.Uint16(b[p:]))
		if c >= len(ts) || !StatisticsSupported(ts[c]) {
			return nil, fmt.Errorf("%w: statistics for column %d, which this schema does not have or this client cannot read", ErrCorrupt, c)
		}
		out[i].Column = c
		p += 2
	}
	for i := range out {
		out[i].NullCount = int32(le.Uint32(b[p:]))
		p += 4
	}
	for _, max := range []bool{false, true} {
		if len(b) < p+4 {
			return nil, fmt.Errorf("%w: statistics rows truncated", ErrCorrupt)
		}
		size := int(le.Uint32(b[p:]))
		p += 4
		if size < 0 || size > len(b)-p {
			return nil, fmt.Errorf("%w: statistics row of %d bytes in %d", ErrCorrupt, size, len(b)-p)
		}
		if size > 0 {
			if err := parseAlignedRow(b[p:p+size], ts, out, max); err != nil {
				return nil, err
			}
		}
		p += size
	}
	return out, nil
}

func parseAlignedRow(row []byte, ts []types.DataType, out []ColumnStats, max bool) error {
	bits := alignedBitsetWidth(len(out))
	if len(row) < bits+8*len(out) {
		return fmt.Errorf("%w: statistics row of %d bytes for %d columns", ErrCorrupt, len(row), len(out))
	}
	for i := range out {
		bit := i + 8
		if row[bit/8]&(1<<(bit%8)) != 0 {
			continue
		}
		v, err := codec.For(ts[out[i].Column].Kind).StatsGet(row, bits+8*i)
		if err != nil {
			return fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if max {
			out[i].Max = v
		} else {
			out[i].Min = v
		}
	}
	return nil
}
