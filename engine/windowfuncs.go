package engine

// computePartition computes every function of n over the rows of one
// partition, already in the window's order, into the rows' result slots.
func computePartition(n *Window, lay *winLayout, rows [][]any) error {
	cnt := len(rows)
	// Peer groups: rows equal in every order key (all rows without ORDER BY).
	peerStart, peerEnd := make([]int, cnt), make([]int, cnt)
	for s := 0; s < cnt; {
		e := s + 1
		for e < cnt && compareRows(lay.ordKeys, rows[s], rows[e]) == 0 {
			e++
		}
		for i := s; i < e; i++ {
			peerStart[i], peerEnd[i] = s, e
		}
		s = e
	}
	for fi, f := range n.Funcs {
		res := lay.res + fi
		arg, def := lay.arg[fi], lay.def[fi]
		switch f.Func {
		case "ROW_NUMBER":
			for i, r := range rows {
				r[res] = int64(i + 1)
			}
		case "RANK":
			for i, r := range rows {
				r[res] = int64(peerStart[i] + 1)
			}
		case "DENSE_RANK":
			rank := int64(0)
			for i, r := range rows {
				if peerStart[i] == i {
					rank++
				}
				r[res] = rank
			}
		case "LAG", "LEAD":
			for i, r := range rows {
				j := i - int(f.Offset)
				if f.Func == "LEAD" {
					j = i + int(f.Offset)
				}
				switch {
				case j >= 0 && j < cnt:
					r[res] = rows[j][arg]
				case def >= 0:
					r[res] = r[def]
				default:
					r[res] = nil
				}
			}
		case "FIRST_VALUE", "LAST_VALUE":
			// next[j] / prev[j]: the first row at or after j / the last at or
			// before j with a non-NULL argument (cnt / -1 when none).
			next, prev := make([]int, cnt+1), make([]int, cnt)
			next[cnt] = cnt
			for j := cnt - 1; j >= 0; j-- {
				next[j] = next[j+1]
				if rows[j][arg] != nil {
					next[j] = j
				}
			}
			for j := range cnt {
				prev[j] = -1
				if j > 0 {
					prev[j] = prev[j-1]
				}
				if rows[j][arg] != nil {
					prev[j] = j
				}
			}
			for i, r := range rows {
				lo, hi := f.Frame.bounds(i, cnt, peerStart, peerEnd)
				r[res] = nil
				if lo >= hi {
					continue
				}
				if j := next[lo]; f.Func == "FIRST_VALUE" && j < hi {
					r[res] = rows[j][arg]
				}
				if j := prev[hi-1]; f.Func == "LAST_VALUE" && j >= lo {
					r[res] = rows[j][arg]
				}
			}
		default:
			if err := aggregateFrames(f, rows, res, arg, peerStart, peerEnd); err != nil {
				return err
			}
		}
	}
	return nil
}

// aggregateFrames computes an aggregate over each row's frame: by adding
// rows as the frame's end moves when the frame starts at the partition's
// first row, by adding rows backwards as its start moves when it ends at
// the partition's last, else (a sliding frame of n PRECEDING / FOLLOWING)
// by accumulating each distinct frame.
func aggregateFrames(f *WindowFunc, rows [][]any, res, arg int, peerStart, peerEnd []int) error {
	add := func(st aggState, row []any) error { return addWindowRow(st, row, arg) }
	cnt := len(rows)
	if f.Frame.Start.Kind == BoundUnboundedPreceding {
		st := f.agg.newState()
		upto := 0
		for i, r := range rows {
			_, hi := f.Frame.bounds(i, cnt, peerStart, peerEnd)
			for ; upto < hi; upto++ {
				if err := add(st, rows[upto]); err != nil {
					return err
				}
			}
			v, err := st.result()
			if err != nil {
				return err
			}
			r[res] = v
		}
		return nil
	}
	if f.Frame.End.Kind == BoundUnboundedFollowing && f.commutativeAgg() {
		// The frame only grows toward the partition's start: add rows
		// backwards as its start moves.
		st := f.agg.newState()
		from := cnt
		for i := cnt - 1; i >= 0; i-- {
			lo, _ := f.Frame.bounds(i, cnt, peerStart, peerEnd)
			for ; from > lo; from-- {
				if err := add(st, rows[from-1]); err != nil {
					return err
				}
			}
			v, err := st.result()
			if err != nil {
				return err
			}
			rows[i][res] = v
		}
		return nil
	}
	prevLo, prevHi := -1, -1
	var prev any
	for i, r := range rows {
		lo, hi := f.Frame.bounds(i, cnt, peerStart, peerEnd)
		if lo != prevLo || hi != prevHi {
			st := f.agg.newState()
			for j := lo; j < hi; j++ {
				if err := add(st, rows[j]); err != nil {
					return err
				}
			}
			v, err := st.result()
			if err != nil {
				return err
			}
			prev, prevLo, prevHi = v, lo, hi
		}
		r[res] = prev
	}
	return nil
}

// bounds returns the frame of row i of a partition of n rows: rows lo
// (inclusive) to hi (exclusive), empty when lo ≥ hi.
func (f WindowFrame) bounds(i, n int, peerStart, peerEnd []int) (lo, hi int) {
	off := func(b WindowBound) int { return int(min(b.Offset, int64(n))) }
	switch b := f.Start; b.Kind {
	case BoundUnboundedPreceding:
		lo = 0
	case BoundPreceding:
		lo = i - off(b)
	case BoundCurrentRow:
		lo = i
		if !f.Rows {
			lo = peerStart[i]
		}
	case BoundFollowing:
		lo = i + off(b)
	default:
		lo = n
	}
	switch b := f.End; b.Kind {
	case BoundUnboundedPreceding:
		hi = 0
	case BoundPreceding:
		hi = i - off(b) + 1
	case BoundCurrentRow:
		hi = i + 1
		if !f.Rows {
			hi = peerEnd[i]
		}
	case BoundFollowing:
		hi = i + off(b) + 1
	default:
		hi = n
	}
	return max(lo, 0), min(hi, n)
}
