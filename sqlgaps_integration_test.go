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
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/fluss/types"
)

// TestQueryGapsSQLite runs, on one log table in Fluss and in SQLite, the
// idioms a user pastes that broke before: a scalar subquery after a comma
// of a call (the parser took it for a derived table), aggregates of the
// registry as window functions (LISTAGG, SQLite's group_concat), in frames
// that end at the partition's last row (accumulated in the frame's order).
func TestQueryGapsSQLite(t *testing.T) {
	db, dbName := openTestDB(t)
	ref, err := sql.Open("sqlite", ":memory:")
	require.NoError(t, err)
	defer ref.Close()
	ref.SetMaxOpenConns(1)
	_, err = ref.Exec(`CREATE TABLE t (id INTEGER, k TEXT, x INTEGER)`)
	require.NoError(t, err)
	_, err = db.Exec(`CREATE TABLE ` + dbName + `.t (id INT, k STRING, x INT) WITH ('bucket.num' = '2')`)
	require.NoError(t, err)
	var vals []string
	for id := range 24 {
		x := "NULL"
		if id%5 != 3 {
			x = fmt.Sprint((id*7)%11 - 4)
		}
		vals = append(vals, fmt.Sprintf("(%d, '%c', %s)", id, 'a'+rune(id%3), x))
	}
	insert := `INSERT INTO %s VALUES ` + strings.Join(vals, ", ")
	_, err = db.Exec(fmt.Sprintf(insert, dbName+".t"))
	require.NoError(t, err)
	_, err = ref.Exec(fmt.Sprintf(insert, "t"))
	require.NoError(t, err)

	type pair struct{ fl, sq string }
	queries := map[string]pair{
		"scalar subquery as a call's argument": {
			`SELECT id, COALESCE(x, (SELECT MAX(x) FROM t)), COALESCE(x, (SELECT MIN(b.x) FROM t b WHERE b.k = t.k), 0) FROM t ORDER BY id`, ""},
		"scalar subquery in an IN list and a CASE": {
			`SELECT id FROM t WHERE x IN (0, (SELECT MAX(x) FROM t), (SELECT MIN(x) FROM t)) ORDER BY id`, ""},
		"LISTAGG over frames": {
			`SELECT id, LISTAGG(CAST(x AS STRING), '|') OVER (PARTITION BY k ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
				LISTAGG(CAST(x AS STRING), '|') OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
				LISTAGG(CAST(x AS STRING), '|') OVER (PARTITION BY k ORDER BY id) FROM t ORDER BY id`,
			`SELECT id, group_concat(x, '|') OVER (PARTITION BY k ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING),
				group_concat(x, '|') OVER (PARTITION BY k ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING),
				group_concat(x, '|') OVER (PARTITION BY k ORDER BY id) FROM t ORDER BY id`},
	}
	for name, q := range queries {
		t.Run(name, func(t *testing.T) {
			sq := q.sq
			if sq == "" {
				sq = q.fl
			}
			want := queryValues(t, ref, sq)
			require.NotEmpty(t, want)
			fq := strings.NewReplacer("FROM t", "FROM "+dbName+".t").Replace(q.fl)
			got := queryStrings(t, db, fq)
			require.Len(t, got, len(want), q.fl)
			for i := range want {
				require.Len(t, got[i], len(want[i]))
				for j := range want[i] {
					assert.True(t, sameText(got[i][j], want[i][j]), "%s\nrow %d column %d: flussql %v, SQLite %v", q.fl, i, j, got[i], want[i])
				}
			}
		})
	}

	t.Run("field of a ROW element", func(t *testing.T) {
		_, err := db.Exec(`CREATE TABLE ` + dbName + `.r (id INT, a ARRAY<ROW<f INT, g STRING>>)`)
		require.NoError(t, err)
		_, err = db.Exec(`INSERT INTO `+dbName+`.r VALUES (1, ?), (2, NULL)`, []any{[]any{int32(1), "x"}, []any{int32(2), "y"}})
		require.NoError(t, err)
		got := queryStrings(t, db, `SELECT id, a[2].f, a[1].g FROM `+dbName+`.r WHERE a[1].f = 1 OR a IS NULL ORDER BY id`)
		assert.Equal(t, [][]string{{"1", "2", "x"}, {"2", "NULL", "NULL"}}, got)
	})
	t.Run("ARRAY_AGG over a window keeps NULLs and the frame's order", func(t *testing.T) {
		got := queryStrings(t, db, `SELECT id, '[' || ARRAY_JOIN(ARRAY_AGG(CAST(x AS STRING)) OVER (PARTITION BY k ORDER BY id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING), ', ', 'NULL') || ']',
			CARDINALITY(ARRAY_AGG(x IGNORE NULLS) OVER (PARTITION BY k)) FROM `+dbName+`.t WHERE id IN (2, 5, 8, 11, 14) ORDER BY id`)
		want := queryValues(t, ref, `SELECT id, '[' || group_concat(IFNULL(x, 'NULL'), ', ') OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND 2 FOLLOWING) || ']',
			COUNT(x) OVER () FROM t WHERE id IN (2, 5, 8, 11, 14) ORDER BY id`)
		assert.Equal(t, want, got)
	})
}

// TestQueryGapsValues checks, without a table, field access after a
// subscript, CAST(NULL AS a nested type), and the refusals that name
// themselves and wrap ErrNotSupported.
func TestQueryGapsValues(t *testing.T) {
	addrs := realcluster.Addr(t)
	cfg, err := flussql.ParseDSN("fluss://" + addrs + "/fluss")
	require.NoError(t, err)
	c, err := flussql.NewConnector(cfg)
	require.NoError(t, err)
	require.NoError(t, c.RegisterAggregate(flussql.AggregateFunction{
		Name: "WAVG", Args: []types.DataType{types.NewDouble(), types.NewDouble()}, Result: types.NewDouble(),
		New: func() flussql.AggregateState { return &weightedAvg{} },
	}))
	db := sql.OpenDB(c)
	defer db.Close()

	got := queryStrings(t, db, `SELECT CARDINALITY(CAST(NULL AS ARRAY<INT>)), CAST(NULL AS MAP<STRING, INT>) IS NULL,
		MAP_ENTRIES(m)[1].`+"`key`"+`, MAP_ENTRIES(m)[1].`+"`value`"+`, COALESCE(m2, CAST(NULL AS MAP<STRING, INT>)) IS NULL
		FROM (VALUES (MAP['k', 1], CAST(NULL AS MAP<STRING, INT>))) AS v(m, m2)`)
	assert.Equal(t, [][]string{{"NULL", "true", "k", "1", "true"}}, got)

	for q, want := range map[string]string{
		`SELECT CAST(s AS ARRAY<INT>) FROM (VALUES ('1')) AS v(s)`:                   "CAST between STRING and ARRAY<INT>",
		`SELECT WAVG(x, x) OVER (ORDER BY x) FROM (VALUES (1.0), (2.0)) AS v(x)`:     "a user-defined aggregate is not supported as a window function",
		`SELECT x FROM (VALUES (ARRAY[1])) AS v(a) CROSS JOIN UNNEST(a) AS u(x)`:     "UNNEST in FROM",
		`SELECT x FROM (VALUES (1)) AS v(a), LATERAL (SELECT a AS x)`:                "LATERAL",
		`SELECT UPPER(s) OVER (ORDER BY s) FROM (VALUES ('a')) AS v(s)`:              "UPPER(s) is not a window function",
		`SELECT a FROM (VALUES (1)) AS v(a) FULL JOIN (VALUES (1)) AS w(b) ON a = b`: "FULL JOIN",
	} {
		_, err := db.Query(q)
		require.Error(t, err, q)
		assert.True(t, errors.Is(err, flussql.ErrNotSupported), "%s: %v", q, err)
		assert.Contains(t, err.Error(), want, q)
	}
}
