package planner

import (
	"slices"

	"github.com/flussql/flussql/parser"
)

// Arms of a comma join: an item about to be joined takes with it, as one build side, the
// remaining items behind it — joined to it by equalities and to the items joined so far
// by none — that WHERE filters, or that lead to one WHERE filters: TPC-H Q21's nation
// (n_name = 'SAUDI ARABIA') behind supplier makes the build side supplier ⋈ nation, so
// that lineitem's rows meet the nation's filter at their first join instead of their
// third; Q2's and Q5's region behind nation behind supplier likewise. The stream then
// carries through the joins only the rows the filters keep. An item to be looked up by its
// primary key (lookupKeys) is never part of an arm.
type armer struct {
	items  []parser.FromItem
	scopes []*scope
	keys   [][]string
	conj   []parser.Expr
	joined *scope // the items joined so far
}

// arm returns item r joined with its arm (r alone when it has none), its scope, the items
// still remaining, and whether it took any; the ONs it makes mark their conjuncts used.
func (a *armer) arm(r int, used []bool, remaining []int) (parser.FromItem, *scope, []int, bool) {
	tree, sc := a.items[r], a.scopes[r]
	took := false
	for {
		found := false
		for k, f := range remaining {
			if a.keys[f] != nil || !connects(a.conj, used, a.scopes[r], a.scopes[f]) ||
				connects(a.conj, used, a.joined, a.scopes[f]) {
				continue
			}
			rest := append(slices.Clone(remaining[:k]), remaining[k+1:]...)
			tryUsed := slices.Clone(used)
			sub, subSc, subRest, deeper := a.arm(f, tryUsed, rest)
			if !deeper && !a.filtered(f, used) {
				continue
			}
			copy(used, tryUsed)
			on := onBetween(a.conj, used, sc, subSc)
			tree = &parser.Join{Kind: parser.JoinInner, Left: tree, Right: sub, On: andAll(on)}
			sc = concat(sc, subSc, false)
			remaining, took, found = subRest, true, true
			break
		}
		if !found {
			return tree, sc, remaining, took
		}
	}
}

// filtered reports whether an unused conjunct of WHERE names item f's columns only.
func (a *armer) filtered(f int, used []bool) bool {
	others := &scope{}
	for k, sc := range a.scopes {
		if k != f {
			others = concat(others, sc, false)
		}
	}
	for i, c := range a.conj {
		if used[i] || !movable(c) || parser.HasSubquery(c) {
			continue
		}
		if sd, err := sideOf(c, others, a.scopes[f]); err == nil && sd == sideRight {
			return true
		}
	}
	return false
}
