package planner

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flussql/flussql/fluss"
)

// maxLookupKeys bounds the keys an IN-list lookup may expand to.
const maxLookupKeys = 10000

// KeySet is the keys of a Lookup or PrefixLookup.
type KeySet struct {
	// KeyColumns are the looked-up columns: the primary key (Lookup), or
	// the bucket key followed by the partition keys (PrefixLookup).
	KeyColumns []string
	// KeyIndexes are their table column indexes.
	KeyIndexes []int
	// Candidates holds, per key column, the values WHERE allows (from =
	// or IN), converted to the column's type.
	Candidates [][]Value
	// Keys are the distinct combinations of the candidates without NULL
	// (a key with NULL matches nothing); set by Bind.
	Keys []LookupKey
}

// LookupKey is one key to look up.
type LookupKey struct {
	// Values holds one value per KeyColumns entry.
	Values []any
	// Partition is the name of the key's partition ("" when the table is
	// not partitioned). A partition that does not exist holds no rows.
	Partition string
}

func (ks *KeySet) bind(bd *binder, info *fluss.TableInfo) (KeySet, error) {
	out := *ks
	out.Candidates = make([][]Value, len(ks.Candidates))
	for i, cands := range ks.Candidates {
		vs, err := bd.values(cands)
		if err != nil {
			return KeySet{}, err
		}
		out.Candidates[i] = vs
	}
	keys, err := expandKeys(info, out.KeyColumns, out.Candidates)
	if err != nil {
		return KeySet{}, err
	}
	out.Keys = keys
	return out, nil
}

// expandKeys builds the distinct key combinations of the candidates.
func expandKeys(info *fluss.TableInfo, cols []string, cands [][]Value) ([]LookupKey, error) {
	var keys []LookupKey
	seen := map[string]bool{}
	cur := make([]any, len(cols))
	var walk func(i int) error
	walk = func(i int) error {
		if i == len(cols) {
			id := keyID(cur)
			if seen[id] {
				return nil
			}
			seen[id] = true
			if len(keys) == maxLookupKeys {
				return fmt.Errorf("the WHERE clause expands to more than %d lookup keys; use fewer IN values", maxLookupKeys)
			}
			k := LookupKey{Values: slices.Clone(cur)}
			name, err := partitionName(info, cols, cur)
			if err != nil {
				return err
			}
			k.Partition = name
			keys = append(keys, k)
			return nil
		}
		for _, v := range cands[i] {
			if v.Const == nil {
				continue
			}
			cur[i] = v.Const
			if err := walk(i + 1); err != nil {
				return err
			}
		}
		return nil
	}
	return keys, walk(0)
}

func keyID(vals []any) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = FormatValue(v)
	}
	return strings.Join(parts, "\x00")
}

// partitionName renders the partition of a row given as values of cols
// ("" for a table that is not partitioned).
func partitionName(info *fluss.TableInfo, cols []string, vals []any) (string, error) {
	keys := info.PartitionKeys()
	if len(keys) == 0 {
		return "", nil
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		j := slices.Index(cols, k)
		if j < 0 {
			return "", fmt.Errorf("planner: partition key %q missing", k)
		}
		t := info.Schema().Columns[info.Schema().Index(k)].Type
		s, err := partitionString(t, vals[j])
		if err != nil {
			return "", fmt.Errorf("partition key %q: %w", k, err)
		}
		parts[i] = s
	}
	return strings.Join(parts, fluss.PartitionSeparator), nil
}

// PartitionSet is the partitions a scan reads.
type PartitionSet struct {
	// Partitioned is set for partitioned tables; the other fields are
	// empty otherwise.
	Partitioned bool
	// All is the table's partitions as the catalog listed them at planning.
	All []fluss.PartitionInfo
	// Pruning holds the equality/IN conditions on partition columns.
	Pruning []PartitionFilter
	// Partitions are the partitions to read: All pruned by Pruning; set
	// by Bind. Empty means the result is empty.
	Partitions []fluss.PartitionInfo
}

// PartitionFilter says that partition column Column must hold one of
// Values.
type PartitionFilter struct {
	Column string
	Values []Value
}

func (ps *PartitionSet) bind(bd *binder) (PartitionSet, error) {
	out := *ps
	if !ps.Partitioned {
		return out, nil
	}
	allowed := map[string]map[string]bool{}
	out.Pruning = make([]PartitionFilter, len(ps.Pruning))
	for i, f := range ps.Pruning {
		vs, err := bd.values(f.Values)
		if err != nil {
			return PartitionSet{}, err
		}
		out.Pruning[i] = PartitionFilter{Column: f.Column, Values: vs}
		set := map[string]bool{}
		for _, v := range vs {
			if v.Const == nil {
				continue // col = NULL matches nothing
			}
			s, err := partitionString(v.Type, v.Const)
			if err != nil {
				return PartitionSet{}, err
			}
			set[s] = true
		}
		allowed[f.Column] = set
	}
	out.Partitions = nil
	for _, p := range ps.All {
		spec := p.Spec()
		keep := true
		for col, set := range allowed {
			if !set[spec[col]] {
				keep = false
				break
			}
		}
		if keep {
			out.Partitions = append(out.Partitions, p)
		}
	}
	return out, nil
}
