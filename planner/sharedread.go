package planner

import (
	"reflect"
	"slices"
)

// SharesRead reports whether s and o read the same rows of the same table — bounded plain
// scans whose rows reach the engine untouched, of the same partitions and buckets, from
// the same start, under the same server filter — so that the driver reads them as one
// scan of the union of their columns (a query that reads a table again in a subquery or a
// WITH referred to twice: TPC-H Q17, Q18, Q21).
func (s *Scan) SharesRead(o *Scan) bool {
	return s.shareable() && o.shareable() &&
		s.Table.TableID == o.Table.TableID && s.Buckets == o.Buckets &&
		s.Start == o.Start && s.StartTimestamp == o.StartTimestamp &&
		s.Partitioned == o.Partitioned && slices.Equal(partitionIDs(s), partitionIDs(o)) &&
		reflect.DeepEqual(s.Pruning, o.Pruning) &&
		s.FilterKeepsBatches == o.FilterKeepsBatches &&
		reflect.DeepEqual(s.ServerFilter(), o.ServerFilter())
}

// shareable reports whether s may be read through a shared scan: a bounded plain scan of
// the Fluss log alone (a union read with the lake, or t$lake, reads other rows)
// whose rows reach the engine untouched.
func (s *Scan) shareable() bool {
	return s.Bounded && s.Virtual == NotVirtual && s.Lake == NoLake && len(s.Projection) > 0 &&
		s.Output.Filter == nil && !s.Output.Count && s.Output.Limit < 0
}

func partitionIDs(s *Scan) []int64 {
	ids := make([]int64, len(s.Partitions))
	for i, p := range s.Partitions {
		ids[i] = p.ID
	}
	return ids
}
