package fluss_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// statsRow is row i of the statistics table: id, k = 3·id, name (NULL
// every 7th row), flag.
func statsRow(i int) []any {
	var name any = fmt.Sprintf("n%05d", i)
	if i%7 == 3 {
		name = nil
	}
	return []any{int32(i), int64(3 * i), name, i%2 == 0}
}

// evalPred is the SQL meaning of p on one row (NULL compares false).
func evalPred(p fluss.Predicate, row []any) bool {
	switch p.Op {
	case fluss.PredAnd:
		for _, c := range p.Children {
			if !evalPred(c, row) {
				return false
			}
		}
		return true
	case fluss.PredOr:
		for _, c := range p.Children {
			if evalPred(c, row) {
				return true
			}
		}
		return false
	}
	v := row[p.Column]
	switch p.Op {
	case fluss.PredIsNull:
		return v == nil
	case fluss.PredIsNotNull:
		return v != nil
	}
	if v == nil {
		return false
	}
	cmp := func(lit any) int {
		switch x := v.(type) {
		case int32:
			return compareInt(int64(x), toInt(lit))
		case int64:
			return compareInt(x, toInt(lit))
		case string:
			s := lit.(string)
			if x < s {
				return -1
			} else if x > s {
				return 1
			}
			return 0
		case bool:
			l := lit.(bool)
			if x == l {
				return 0
			} else if !x {
				return -1
			}
			return 1
		}
		panic(fmt.Sprintf("%T", v))
	}
	switch p.Op {
	case fluss.PredEqual:
		return cmp(p.Values[0]) == 0
	case fluss.PredNotEqual:
		return cmp(p.Values[0]) != 0
	case fluss.PredLess:
		return cmp(p.Values[0]) < 0
	case fluss.PredLessOrEqual:
		return cmp(p.Values[0]) <= 0
	case fluss.PredGreater:
		return cmp(p.Values[0]) > 0
	case fluss.PredGreaterOrEqual:
		return cmp(p.Values[0]) >= 0
	case fluss.PredIn, fluss.PredNotIn:
		in := false
		for _, l := range p.Values {
			in = in || cmp(l) == 0
		}
		return in == (p.Op == fluss.PredIn)
	}
	panic(p.Op.String())
}

func toInt(v any) int64 {
	switch n := v.(type) {
	case int:
		return int64(n)
	case int32:
		return int64(n)
	case int64:
		return n
	}
	panic(fmt.Sprintf("%T", v))
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func leaf(op fluss.PredicateOp, col int, vals ...any) fluss.Predicate {
	return fluss.Predicate{Op: op, Column: col, Values: vals}
}

// scanFiltered reads every bucket with the filter and returns the rows it
// returns (not yet filtered), whether the filter was pushed and the bytes fetched.
func scanFiltered(t *testing.T, tbl *fluss.Table, p *fluss.Predicate) ([]scannedRow, bool, int64) {
	t.Helper()
	ctx := testCtx(t)
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true, Filter: p})
	require.NoError(t, err)
	defer s.Close()
	subs := map[fluss.TableBucket]int64{}
	for b := 0; b < tbl.Info().NumBuckets(); b++ {
		subs[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: int32(b)}] = fluss.EarliestOffset
	}
	require.NoError(t, s.SubscribeBuckets(ctx, subs))
	var out []scannedRow
	for {
		b, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(t, err)
		for i := 0; i < b.NumRows(); i++ {
			v, err := fluss.RowValues(b.Record, s.ColumnTypes(), i)
			require.NoError(t, err)
			out = append(out, scannedRow{values: v, bucket: b.Bucket, offset: b.Offset(i)})
		}
		b.Release()
	}
	return out, s.FilterPushed(), s.FetchedBytes()
}

// TestScanFilterPushdown writes a table with 'table.statistics.columns'
// (on 1.0; without it on older servers), reads it back row for row, and
// checks that every predicate gives exactly the rows of a full read filtered
// on the client — pushed to the server on 1.0, not pushed before — and that
// a selective one fetches far fewer bytes on 1.0.
func TestScanFilterPushdown(t *testing.T) {
	c := connect(t)
	v := serverVersion(t, c)
	db := tempDatabase(t, c.Admin())
	props := map[string]string{}
	if v.AtLeast(1, 0) {
		props[fluss.PropStatisticsColumns] = "*"
	}
	tbl := createLogTable(t, c, db, "stats", fluss.TableDescriptor{
		Schema: types.Schema{Columns: []types.Column{
			{Name: "id", Type: types.NewInt().AsNotNull()},
			{Name: "k", Type: types.NewBigInt()},
			{Name: "name", Type: types.NewString()},
			{Name: "flag", Type: types.NewBoolean()},
		}},
		BucketCount: 2, Properties: props,
	})
	if v.AtLeast(1, 0) {
		assert.Equal(t, []int{0, 1, 2, 3}, tbl.Info().StatisticsColumns())
	}
	const rows = 20000
	ctx := testCtx(t)
	// Ids ascend within each bucket's batches, so min/max statistics are selective.
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{WriterOptions: fluss.WriterOptions{BatchSize: 16 << 10}})
	require.NoError(t, err)
	for i := 0; i < rows; i++ {
		require.NoError(t, w.Append(ctx, statsRow(i)))
	}
	flushClose(t, w)

	all, _, fullBytes := scanFiltered(t, tbl, nil)
	require.Len(t, all, rows)
	sortByID(all)
	for i, r := range all {
		require.Equal(t, statsRow(i), r.values, "row %d", i)
	}

	preds := map[string]fluss.Predicate{
		"id < 500":                 leaf(fluss.PredLess, 0, 500),
		"id >= 19000 AND k<=58000": {Op: fluss.PredAnd, Children: []fluss.Predicate{leaf(fluss.PredGreaterOrEqual, 0, 19000), leaf(fluss.PredLessOrEqual, 1, int64(58000))}},
		"id IN":                    leaf(fluss.PredIn, 0, 5, 12345, 19999),
		"id NOT IN":                leaf(fluss.PredNotIn, 0, 5, 6),
		"name =":                   leaf(fluss.PredEqual, 2, "n10000"),
		"name IS NULL AND id":      {Op: fluss.PredAnd, Children: []fluss.Predicate{leaf(fluss.PredIsNull, 2), leaf(fluss.PredLess, 0, 3000)}},
		"name IS NOT NULL":         leaf(fluss.PredIsNotNull, 2),
		"id = 7 OR id > 19990":     {Op: fluss.PredOr, Children: []fluss.Predicate{leaf(fluss.PredEqual, 0, 7), leaf(fluss.PredGreater, 0, 19990)}},
		"name > 'n19'":             leaf(fluss.PredGreater, 2, "n19"),
		"id <> 5":                  leaf(fluss.PredNotEqual, 0, 5),
		"flag AND id < 100":        {Op: fluss.PredAnd, Children: []fluss.Predicate{leaf(fluss.PredEqual, 3, true), leaf(fluss.PredLess, 0, 100)}},
		"k > max (none)":           leaf(fluss.PredGreater, 1, int64(3*rows)),
	}
	for name, p := range preds {
		t.Run(name, func(t *testing.T) {
			var want []scannedRow
			for _, r := range all {
				if evalPred(p, r.values) {
					want = append(want, r)
				}
			}
			got, pushed, n := scanFiltered(t, tbl, &p)
			assert.Equal(t, v.AtLeast(1, 0), pushed, "pushed to Fluss %s", v)
			var kept []scannedRow
			for _, r := range got {
				if evalPred(p, r.values) {
					kept = append(kept, r)
				}
			}
			sortByID(kept)
			require.Equal(t, len(want), len(kept))
			for i := range want {
				require.Equal(t, want[i].values, kept[i].values)
			}
			t.Logf("%s: %d rows match, %d returned, %d of %d bytes fetched", name, len(want), len(got), n, fullBytes)
			if v.AtLeast(1, 0) && (name == "id < 500" || name == "name =" || name == "k > max (none)") {
				assert.Less(t, n, fullBytes/4, "a selective filter skips most batches")
			}
			if !v.AtLeast(1, 0) {
				assert.Equal(t, fullBytes, n, "nothing pushed: every byte fetched")
			}
		})
	}
}
