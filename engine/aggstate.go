package engine

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// stateAcc is the accumulator of the aggregates without a typed one
// (DECIMAL sums, MIN and MAX of strings and temporals, DISTINCT): one
// aggState per group, fed boxed values.
type stateAcc struct {
	agg    *Agg
	grow   func(int64) error // for the DISTINCT sets, which grow by value
	states []aggState
	seen   []map[string]struct{}
	arena  stateArena
	extra  int64 // what the sizedStates hold beyond stateBytes
}

// sizedState is a state whose memory grows with the values it sees
// (APPROX_COUNT_DISTINCT's sketch: 16 KiB of registers): size is its bytes
// beyond stateBytes, counted in the aggregation's memory budget.
type sizedState interface{ size() int64 }

// stateBytes is what one boxed state costs: the interface, the state
// and, with DISTINCT, its set's header.
const stateBytes = 64

func (s *stateAcc) resize(n int) {
	for len(s.states) < n {
		st := s.agg.newStateIn(&s.arena)
		if sz, ok := st.(sizedState); ok {
			s.extra += sz.size()
		}
		s.states = append(s.states, st)
		if s.agg.Distinct {
			s.seen = append(s.seen, map[string]struct{}{})
		}
	}
}

func (s *stateAcc) bytes() int64 {
	return int64(cap(s.states))*stateBytes + int64(cap(s.seen))*56 + s.extra
}

func (s *stateAcc) update(gids []int32, arg arrow.Array) error {
	if arg == nil {
		for _, g := range gids {
			_ = s.states[g].add(true)
		}
		return nil
	}
	get, err := getter(arg)
	if err != nil {
		return err
	}
	for r, g := range gids {
		var v any
		if arg.IsNull(r) {
			if _, ok := s.states[g].(nullAdder); !ok {
				continue
			}
		} else {
			v = get(r)
		}
		if s.agg.Distinct {
			k := string(appendKey(nil, v))
			if _, dup := s.seen[g][k]; dup {
				continue
			}
			if err := s.grow(int64(len(k) + 48)); err != nil {
				return err
			}
			s.seen[g][k] = struct{}{}
		}
		if v == nil {
			if err := s.states[g].(nullAdder).addNull(); err != nil {
				return err
			}
			continue
		}
		st := s.states[g]
		sz, sized := st.(sizedState)
		var before int64
		if sized {
			before = sz.size()
		}
		if err := st.add(v); err != nil {
			return err
		}
		if sized {
			s.extra += sz.size() - before
		}
	}
	return nil
}

func (s *stateAcc) build(mem memory.Allocator) (arrow.Array, error) {
	vals := make([]any, len(s.states))
	for g, st := range s.states {
		v, err := st.result()
		if err != nil {
			return nil, err
		}
		vals[g] = v
	}
	return buildArray(mem, s.agg.T, vals)
}

// nullAdder is a state fed the NULL arguments too (ARRAY_AGG, which keeps
// them unless IGNORE NULLS).
type nullAdder interface{ addNull() error }

// anyKeys is a group key column kept as values of the model, for keys of
// several columns (their index holds the encoded key).
type anyKeys struct {
	vals []any
	size int64
}

func (k *anyKeys) add(v any) {
	k.vals = append(k.vals, v)
	k.size += valueSize(v)
}

func (k *anyKeys) bytes() int64 { return int64(cap(k.vals)-len(k.vals))*16 + k.size }
