package flusslake

import (
	"cmp"

	"github.com/flussql/flussql/fluss"
)

// paimonStats are a data file's value statistics (DataFileMeta's _VALUE_STATS, a
// SimpleStats: the minimum and maximum of each column as serialized BinaryRows) over the
// columns cols (_VALUE_STATS_COLS; when Paimon leaves it null, every column of the schema
// the file was written with) of Paimon types types.
type paimonStats struct {
	min, max    *binaryRow
	cols, types []string
}

// bounds returns the minimum and maximum of column name, ok false when the file keeps no
// statistics of it (or they are null, or of a type flusslake does not compare).
func (s *paimonStats) bounds(name string) (lo, hi any, ok bool) {
	for i, c := range s.cols {
		if c != name {
			continue
		}
		lo, err1 := s.min.field(i, s.types[i])
		hi, err2 := s.max.field(i, s.types[i])
		if err1 != nil || err2 != nil || lo == nil || hi == nil {
			return nil, nil, false
		}
		return lo, hi, true
	}
	return nil, nil, false
}

// mayMatch reports whether the file may hold a row p keeps: false only when the
// statistics of the file rule every row out. Only an append table's files may be skipped
// so: in a primary-key table, skipping a newer file would bring back an older version of
// its keys.
func (s *paimonStats) mayMatch(info *fluss.TableInfo, p fluss.Predicate) bool {
	switch p.Op {
	case fluss.PredAnd:
		for _, c := range p.Children {
			if !s.mayMatch(info, c) {
				return false
			}
		}
		return true
	case fluss.PredOr:
		for _, c := range p.Children {
			if s.mayMatch(info, c) {
				return true
			}
		}
		return len(p.Children) == 0
	}
	cols := info.Schema().Columns
	if p.Column < 0 || p.Column >= len(cols) {
		return true
	}
	lo, hi, ok := s.bounds(cols[p.Column].Name)
	if !ok {
		return true
	}
	in := func(v any) bool { // lo <= v <= hi, or unknown
		a, okA := compareStat(lo, v)
		b, okB := compareStat(hi, v)
		return !okA || !okB || (a <= 0 && b >= 0)
	}
	switch p.Op {
	case fluss.PredEqual:
		return len(p.Values) != 1 || in(p.Values[0])
	case fluss.PredIn:
		for _, v := range p.Values {
			if in(v) {
				return true
			}
		}
		return false
	case fluss.PredLess, fluss.PredLessOrEqual, fluss.PredGreater, fluss.PredGreaterOrEqual:
		if len(p.Values) != 1 {
			return true
		}
		if p.Op == fluss.PredLess || p.Op == fluss.PredLessOrEqual {
			c, ok := compareStat(lo, p.Values[0]) // some row < v needs min < v
			return !ok || c < 0 || (c == 0 && p.Op == fluss.PredLessOrEqual)
		}
		c, ok := compareStat(hi, p.Values[0])
		return !ok || c > 0 || (c == 0 && p.Op == fluss.PredGreaterOrEqual)
	}
	return true
}

// compareStat compares a statistic (int64 or string, as binaryRow.field decodes them)
// with a filter value; ok is false when they are not comparable.
func compareStat(stat, v any) (int, bool) {
	switch s := stat.(type) {
	case int64:
		var n int64
		switch v := v.(type) {
		case int8:
			n = int64(v)
		case int16:
			n = int64(v)
		case int32:
			n = int64(v)
		case int:
			n = int64(v)
		case int64:
			n = v
		default:
			return 0, false
		}
		return cmp.Compare(s, n), true
	case string:
		if v, ok := v.(string); ok {
			return cmp.Compare(s, v), true
		}
	}
	return 0, false
}
