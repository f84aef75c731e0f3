package engine

import "github.com/apache/arrow-go/v18/arrow"

// intProbe returns, for a top-N ordered by one integer column, a test of
// whether row r cannot enter a full heap whose worst row is worst (it is
// not better: ties keep the earlier row), read without boxing the value;
// the test answers false when it cannot tell (a NULL), and intProbe nil
// for other keys. It spares the allocation per row of boxing the key of
// every row that only passes by, which is most of them.
func intProbe(keys []SortKey, cols []arrow.Array) func(r int, worst []any) bool {
	if len(keys) != 1 {
		return nil
	}
	k := keys[0]
	col := cols[k.Col]
	i8, i16, i32, i64 := ints(col)
	var val func(r int) int64
	switch {
	case i64 != nil:
		val = func(r int) int64 { return i64[r] }
	case i32 != nil:
		val = func(r int) int64 { return int64(i32[r]) }
	case i16 != nil:
		val = func(r int) int64 { return int64(i16[r]) }
	case i8 != nil:
		val = func(r int) int64 { return int64(i8[r]) }
	default:
		return nil
	}
	nulls := col.NullN() > 0
	return func(r int, worst []any) bool {
		w, ok := worst[k.Col].(int64)
		if !ok || nulls && col.IsNull(r) {
			return false
		}
		if x := val(r); k.Desc {
			return x <= w
		} else {
			return x >= w
		}
	}
}
