package engine

import "github.com/apache/arrow-go/v18/arrow"

// intSkipper returns, for a top-N ordered by one integer column, a function
// giving the first row from r on that may enter a full heap whose worst row
// is worst — every row before it is not better (ties keep the earlier row)
// — read without boxing the values; it returns r itself when it cannot
// tell (worst's key NULL). intSkipper is nil for other keys. It spares the
// allocation and the call per row of boxing the key of every row that only
// passes by, which is most of them.
func intSkipper(keys []SortKey, cols []arrow.Array) func(r int, worst []any) int {
	if len(keys) != 1 {
		return nil
	}
	k := keys[0]
	col := cols[k.Col]
	i8, i16, i32, i64 := ints(col)
	switch {
	case i64 != nil:
		return skipper(i64, col, k)
	case i32 != nil:
		return skipper(i32, col, k)
	case i16 != nil:
		return skipper(i16, col, k)
	case i8 != nil:
		return skipper(i8, col, k)
	}
	return nil
}

func skipper[T int8 | int16 | int32 | int64](vals []T, col arrow.Array, k SortKey) func(r int, worst []any) int {
	nulls := col.NullN() > 0
	return func(r int, worst []any) int {
		w, ok := worst[k.Col].(int64)
		if !ok {
			return r
		}
		for ; r < len(vals); r++ {
			if nulls && col.IsNull(r) {
				return r // compareRows decides
			}
			x := int64(vals[r])
			if k.Desc && x > w || !k.Desc && x < w {
				return r
			}
		}
		return r
	}
}
