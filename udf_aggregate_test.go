package flussql_test

import (
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/types"
)

// collectAgg is a test aggregate: the arguments it saw, joined, in arrival order.
type collectAgg struct {
	seen []string
	fail string
}

func (s *collectAgg) Add(args []any) error {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = fmt.Sprint(a)
	}
	v := strings.Join(parts, " ")
	if v == s.fail {
		return errors.New("cannot take " + v)
	}
	s.seen = append(s.seen, v)
	return nil
}

func (s *collectAgg) Result() (any, error) {
	if len(s.seen) == 0 {
		return nil, nil
	}
	return strings.Join(s.seen, "|"), nil
}

func userAggDB(t *testing.T, fs ...flussql.AggregateFunction) *sql.DB {
	t.Helper()
	c, err := newUDFConnector()
	require.NoError(t, err)
	for _, f := range fs {
		require.NoError(t, c.RegisterAggregate(f))
	}
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestRegisterAggregateQueries(t *testing.T) {
	db := userAggDB(t,
		flussql.AggregateFunction{Name: "COLLECT_T", Args: []types.DataType{types.NewString(), types.NewBigInt()}, Result: types.NewString(),
			New: func() flussql.AggregateState { return &collectAgg{fail: "boom 0"} }},
		flussql.AggregateFunction{Name: "seen1", Args: []types.DataType{types.NewBigInt()}, Result: types.NewString(),
			New: func() flussql.AggregateState { return &collectAgg{} }},
		flussql.AggregateFunction{Name: "ROWS_T", Result: types.NewBigInt(),
			New: func() flussql.AggregateState { return &counter{} }},
	)
	const src = `(VALUES ('a', 1, 'x'), ('a', 1, 'x'), ('b', 2, NULL), ('a', 3, 'y'), ('c', NULL, 'z')) AS t(k, n, s)`
	for _, tc := range []struct {
		name, query string
		want        []string
	}{
		{"group by", "SELECT k, COLLECT_T(s, n) FROM " + src + " GROUP BY k ORDER BY k",
			[]string{"a x 1|x 1|y 3", "b <nil>", "c <nil>"}},
		{"distinct", "SELECT k, collect_t(DISTINCT s, n) FROM " + src + " GROUP BY k ORDER BY k",
			[]string{"a x 1|y 3", "b <nil>", "c <nil>"}},
		{"argument cast to BIGINT, having", "SELECT k, SEEN1(n * 2) FROM " + src + " GROUP BY k HAVING SEEN1(n) IS NOT NULL ORDER BY k",
			[]string{"a 2|2|6", "b 4"}},
		{"with built-ins, over an expression", "SELECT COUNT(*), SEEN1(DISTINCT n + 1) FROM " + src,
			[]string{"5 2|3|4"}},
		{"no arguments, no rows", "SELECT ROWS_T() FROM " + src + " WHERE n > 100",
			[]string{"0"}},
		{"order by the aggregate", "SELECT k FROM " + src + " GROUP BY k ORDER BY ROWS_T() DESC, k",
			[]string{"a", "b", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rows, err := db.Query(tc.query)
			require.NoError(t, err)
			defer rows.Close()
			cols, err := rows.Columns()
			require.NoError(t, err)
			var got []string
			for rows.Next() {
				vals := make([]any, len(cols))
				ptrs := make([]any, len(cols))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				require.NoError(t, rows.Scan(ptrs...))
				got = append(got, strings.TrimSuffix(strings.TrimPrefix(fmt.Sprint(vals), "["), "]"))
			}
			require.NoError(t, rows.Err())
			assert.Equal(t, tc.want, got)
		})
	}
}

type counter struct{ n int64 }

func (c *counter) Add([]any) error      { c.n++; return nil }
func (c *counter) Result() (any, error) { return c.n, nil }

type badResult struct{}

func (badResult) Add([]any) error      { return nil }
func (badResult) Result() (any, error) { return 3, nil } // an int, not the int64 of BIGINT

func TestRegisterAggregateErrors(t *testing.T) {
	strAgg := flussql.AggregateFunction{Name: "SEEN", Args: []types.DataType{types.NewInt()}, Result: types.NewString(),
		New: func() flussql.AggregateState { return &collectAgg{fail: "2"} }}
	c, err := newUDFConnector()
	require.NoError(t, err)
	require.NoError(t, c.RegisterAggregate(strAgg))
	require.NoError(t, c.RegisterAggregate(flussql.AggregateFunction{Name: "BAD", Result: types.NewBigInt(),
		New: func() flussql.AggregateState { return badResult{} }}))

	for _, tc := range []struct {
		f    flussql.AggregateFunction
		want string
	}{
		{flussql.AggregateFunction{Name: "SUM", Result: types.NewInt(), New: strAgg.New}, "function SUM is built in; give yours another name"},
		{flussql.AggregateFunction{Name: "seen", Result: types.NewInt(), New: strAgg.New}, "function SEEN is registered already"},
		{flussql.AggregateFunction{Name: "NONEW", Result: types.NewInt()}, "has no New"},
		{flussql.AggregateFunction{Name: "two words", Result: types.NewInt(), New: strAgg.New}, "a function name is a word"},
		{flussql.AggregateFunction{Name: "ARR", Args: []types.DataType{types.NewArray(types.NewInt())}, Result: types.NewInt(), New: strAgg.New},
			"argument 1: type ARRAY<INT> is not supported"},
	} {
		err := c.RegisterAggregate(tc.f)
		require.Error(t, err, tc.f.Name)
		assert.Contains(t, err.Error(), tc.want)
	}
	assert.ErrorContains(t, c.RegisterFunction(flussql.ScalarFunction{Name: "SEEN", Result: types.NewInt(), Fn: func([]any) (any, error) { return nil, nil }}),
		"function SEEN is registered already")

	db := sql.OpenDB(c)
	defer db.Close()
	const src = " FROM (VALUES (1), (2)) AS t(n)"
	for _, tc := range []struct{ query, want string }{
		{"SELECT SEEN(n, n)" + src, "SEEN takes 1 argument(s) (INT), not 2"},
		{"SELECT SEEN()" + src, "SEEN takes 1 argument(s) (INT), not 0"},
		{"SELECT SEEN(X'01')" + src, "cannot cast to INT"},
		{"SELECT SEEN(n)" + src, "SEEN: cannot take 2"},
		{"SELECT n" + src + " WHERE SEEN(n) = '1'", "aggregate"},
		{"SELECT SEEN(SEEN(n))" + src, "aggregate functions cannot be nested"},
		{"SELECT BAD()" + src, "BAD: Result: a int is not a BIGINT value; return int64"},
	} {
		rows, err := db.Query(tc.query)
		if err == nil {
			for rows.Next() {
			}
			err = rows.Err()
			rows.Close()
		}
		require.Error(t, err, tc.query)
		assert.Contains(t, err.Error(), tc.want, tc.query)
	}
	var name, kind, desc string
	require.NoError(t, db.QueryRow("SHOW FUNCTIONS LIKE 'SEEN'").Scan(&name, &kind, &desc))
	assert.Equal(t, []string{"SEEN", "user", "a user-defined aggregate function"}, []string{name, kind, desc})
}

// newUDFConnector is a connector of FLUSS_BOOTSTRAP_SERVERS (or the default address): the
// queries of these tests read VALUES only and connect to no cluster.
func newUDFConnector() (*flussql.Connector, error) {
	cfg, err := flussql.ParseDSN(flussql.DSNFromEnv())
	if err != nil {
		return nil, err
	}
	return flussql.NewConnector(cfg)
}
