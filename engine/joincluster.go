package engine

// clusterBuild reorders the build side of a dense integer join index so that the rows of
// one key are adjacent, in row order, and renumbers the index to match: a chain is then
// consecutive rows, walked without a cache miss per row. Joins whose build keys repeat
// (TPC-H Q13's orders by o_custkey: ten rows a key over 1.5M rows) spent most of their
// probe time following chains spread over the whole build side. It is a counting sort
// over the dense array, then one take of the build columns; a build side whose keys are
// mostly distinct, or one the budget has no room to copy, is left as it is. The joins'
// output is the same: a probe row's matches come in row order either way, and the build
// rows are only ever addressed through the index.
func (h *hashJoinOp) clusterBuild() error {
	x := h.index
	if x == nil || x.dense == nil || h.build == nil {
		return nil
	}
	n := int(h.build.NumRows())
	vals, nulls := x.ints[:n], x.nulls[:n] // the keys buildJoinIndex read, still there
	keys := 0
	for _, d := range x.dense {
		if d != 0 {
			keys++
		}
	}
	if 2*keys > n { // chains of fewer than two rows on average: nothing to gain
		return nil
	}
	size := batchBytes(h.build)
	if h.budget.Grow(size, hashJoinState) != nil {
		h.budget.Shrink(size)
		return nil
	}
	defer h.budget.Shrink(size) // the copy replaces the build side, already counted

	// counts, then the end of each key's range, then (filling backwards) its start
	clear(x.dense)
	m := 0
	for r, v := range vals {
		if !nulls[r] {
			x.dense[v-x.lo]++
			m++
		}
	}
	var end int32
	for k, c := range x.dense {
		end += c
		x.dense[k] = end
	}
	perm := make([]int64, n)
	tail := m
	for r := n - 1; r >= 0; r-- {
		if nulls[r] {
			continue
		}
		d := &x.dense[vals[r]-x.lo]
		*d--
		perm[*d] = int64(r)
	}
	for r := range n { // rows with a NULL key, in no chain, last
		if nulls[r] {
			perm[tail] = int64(r)
			tail++
		}
	}
	clustered, err := takeRows(h.ec, h.build, perm)
	if err != nil {
		return err
	}
	h.build.Release()
	h.build = clustered

	// x.dense[k] is now where key k's rows start in perm, and the next key's start its end
	clear(x.next)
	for k, start := range x.dense {
		end := int32(m)
		if k+1 < len(x.dense) {
			end = x.dense[k+1]
		}
		if start == end {
			x.dense[k] = 0
			continue
		}
		for i := start; i < end-1; i++ {
			x.next[i] = i + 2
		}
		x.dense[k] = start + 1
	}
	return nil
}
