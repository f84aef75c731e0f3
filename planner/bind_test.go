package planner

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

func build(t testing.TB, sql string) Plan {
	t.Helper()
	st, err := parser.Parse(sql)
	require.NoError(t, err)
	p, err := Build(context.Background(), st, testCatalog(), Session{Database: "fluss"})
	require.NoError(t, err)
	return p
}

func TestBindLeavesThePlanAlone(t *testing.T) {
	p := build(t, "INSERT INTO partitioned_users VALUES (?, ?, ?)")
	before := p.String()
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			bp, err := Bind(p, []Arg{{Ordinal: 1, Value: i}, {Ordinal: 2, Value: "US"}, {Ordinal: 3, Value: int64(i * 10)}})
			assert.NoError(t, err)
			w := bp.(*Write)
			assert.Equal(t, []any{int32(i), "US", int64(i * 10)}, w.Rows[0].Any())
			assert.Equal(t, "US", w.Rows[0].Partition())
			assert.True(t, w.Bound())
		}()
	}
	wg.Wait()
	assert.Equal(t, before, p.String(), "Bind must not modify its input")
	assert.False(t, p.(*Write).Bound())
	assert.Nil(t, p.(*Write).Rows[0].PartitionValues)
}

func TestBindArguments(t *testing.T) {
	named := build(t, "SELECT * FROM partitioned_users WHERE user_id = :id AND region = :r")
	// By name, in any order.
	bp, err := Bind(named, []Arg{{Ordinal: 1, Name: "r", Value: "EU"}, {Ordinal: 2, Name: "id", Value: 5}})
	require.NoError(t, err)
	assert.Equal(t, []any{int32(5), "EU"}, bp.(*Lookup).Keys[0].Values)
	// Without names: by the position of each name's first use.
	bp, err = Bind(named, []Arg{{Ordinal: 1, Value: 6}, {Ordinal: 2, Value: "US"}})
	require.NoError(t, err)
	assert.Equal(t, []any{int32(6), "US"}, bp.(*Lookup).Keys[0].Values)
	// A name that is missing.
	_, err = Bind(named, []Arg{{Ordinal: 1, Name: "id", Value: 6}})
	require.EqualError(t, err, "placeholder :r has no argument")

	pos := build(t, "SELECT * FROM users WHERE user_id = ?")
	_, err = Bind(pos, nil)
	require.EqualError(t, err, "the statement has 1 placeholders; want 1 arguments, got 0")
	_, err = Bind(build(t, "SHOW TABLES"), []Arg{{Ordinal: 1, Value: 1}})
	require.EqualError(t, err, "the statement takes no arguments, got 1")
	_, err = Bind(build(t, "EXPLAIN SHOW TABLES"), []Arg{{Ordinal: 1, Value: 1}})
	require.Error(t, err)
}

func TestBindIsIdempotentWithoutPlaceholders(t *testing.T) {
	p := build(t, "SELECT * FROM events WHERE region = 'US'")
	bp, err := Bind(p, nil)
	require.NoError(t, err)
	assert.Equal(t, p.String(), bp.String())
	assert.Len(t, bp.(*Scan).Partitions, 2)
}

func TestPrefixLookupKeys(t *testing.T) {
	p := build(t, "SELECT * FROM region_orders WHERE region = 'EU' AND customer_id IN (1, 2)").(*PrefixLookup)
	require.Len(t, p.Keys, 2)
	assert.Equal(t, []string{"customer_id", "region"}, p.KeyColumns)
	assert.Equal(t, []any{int64(1), "EU"}, p.Keys[0].Values, "values in KeyColumns order")
	assert.Equal(t, "EU", p.Keys[1].Partition)
}

func TestCheckPartitions(t *testing.T) {
	cat := testCatalog()
	w := build(t, "INSERT INTO events VALUES (1, 'US', '2024-01-01', 1, NULL), (2, 'ASIA', '2024-01-01', 1, NULL)").(*Write)
	parts := cat.parts[w.Table.Path]
	err := w.CheckPartitions(parts)
	require.Error(t, err)
	assert.True(t, errors.Is(err, fluss.ErrPartitionNotExists))
	assert.Equal(t, "partition dt=2024-01-01/region=ASIA of fluss.events does not exist; "+
		"create it with: ALTER TABLE fluss.events ADD PARTITION (dt = '2024-01-01', region = 'ASIA')", err.Error())

	require.NoError(t, build(t, "INSERT INTO events VALUES (1, 'US', '2024-01-02', 1, NULL)").(*Write).CheckPartitions(parts))
	require.NoError(t, build(t, "INSERT INTO logs (id, level) VALUES (1, 1)").(*Write).CheckPartitions(nil))
}

// TestMissingPartitionStatement checks, for every partition key type,
// that the statement a MissingPartitionError names creates exactly the
// partition the row needs.
func TestMissingPartitionStatement(t *testing.T) {
	keys := []types.Column{
		col("s", types.NewString()), col("c", types.NewChar(2)), col("b", types.NewBoolean()), col("bs", types.NewBytes()),
		col("ti", types.NewTinyInt()), col("i", types.NewInt()), col("bi", types.NewBigInt()), col("f", types.NewFloat()),
		col("d", types.NewDouble()), col("dt", types.NewDate()), col("tm", types.NewTime(3)),
		col("ts", types.NewTimestamp(6)), col("ltz", types.NewTimestampLTZ(3)),
	}
	var names []string
	for _, k := range keys {
		names = append(names, k.Name)
	}
	cat := &memCatalog{tables: map[fluss.TablePath]*fluss.TableInfo{}, parts: map[fluss.TablePath][]fluss.PartitionInfo{}}
	path := fluss.TablePath{Database: "fluss", Table: "typed"}
	cat.tables[path] = &fluss.TableInfo{Path: path, Descriptor: fluss.TableDescriptor{
		Schema: types.Schema{Columns: append(keys, col("v", types.NewInt()))}, PartitionKeys: names, BucketCount: 1,
	}}
	plan := func(sql string, args ...Arg) Plan {
		st, err := parser.Parse(sql)
		require.NoError(t, err, sql)
		p, err := Build(context.Background(), st, cat, Session{Database: "fluss"})
		require.NoError(t, err, sql)
		p, err = Bind(p, args)
		require.NoError(t, err, sql)
		return p
	}
	at := time.Date(2024, 2, 29, 13, 14, 15, 123456000, time.UTC)
	w := plan("INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
		Arg{Ordinal: 1, Value: "US-east_1"}, Arg{Ordinal: 2, Value: "ab"}, Arg{Ordinal: 3, Value: true},
		Arg{Ordinal: 4, Value: []byte("k9")}, Arg{Ordinal: 5, Value: -7}, Arg{Ordinal: 6, Value: 42},
		Arg{Ordinal: 7, Value: int64(1) << 40}, Arg{Ordinal: 8, Value: 0.1}, Arg{Ordinal: 9, Value: -2.5e-10},
		Arg{Ordinal: 10, Value: at}, Arg{Ordinal: 11, Value: at}, Arg{Ordinal: 12, Value: at}, Arg{Ordinal: 13, Value: at},
	).(*Write)
	err := w.CheckPartitions(nil)
	var mp *MissingPartitionError
	require.True(t, errors.As(err, &mp))
	add := plan(mp.Statement).(*AddPartition)
	name, err := fluss.PartitionName(names, add.Spec)
	require.NoError(t, err)
	assert.Equal(t, w.Rows[0].Partition(), name)
	assert.Equal(t, "US-east_1$ab$true$6b39$-7$42$1099511627776$0_1$-2_5E-10$2024-02-29$13-14-15_123$2024-02-29-13-14-15_123456$2024-02-29-13-14-15_123", name)
}

func TestResults(t *testing.T) {
	rows := [][]any{
		{int64(1), "a", int32(1), nil},
		{int64(2), "b", int32(5), nil},
		{int64(3), nil, int32(7), nil},
		{int64(4), "d", int32(9), nil},
	}
	run := func(sql string) [][]any {
		t.Helper()
		s := build(t, sql).(*Scan)
		r := s.Begin()
		var out [][]any
		for _, full := range rows {
			if r.Done() {
				break
			}
			in := make([]any, len(s.Projection))
			for i, c := range s.Projection {
				in[i] = full[c]
			}
			o, err := r.Add(in)
			require.NoError(t, err)
			if o != nil {
				out = append(out, o)
			}
		}
		return append(out, r.Finish()...)
	}
	assert.Equal(t, [][]any{{"b", int64(2)}, {nil, int64(3)}}, run("SELECT msg, id FROM logs WHERE level > 2 LIMIT 2"))
	assert.Equal(t, [][]any{{int64(3)}}, run("SELECT COUNT(*) FROM logs WHERE level > 2"))
	assert.Equal(t, [][]any{{int64(2)}}, run("SELECT COUNT(*) FROM logs WHERE msg IS NOT NULL AND level >= 5"))
	assert.Nil(t, run("SELECT COUNT(*) FROM logs LIMIT 0"))
	assert.Nil(t, run("SELECT * FROM logs LIMIT 0"))
	assert.Equal(t, [][]any{{int32(9), int32(9)}}, run("SELECT level, level AS again FROM logs WHERE msg LIKE 'd'"))
}

// TestNeedsFullScan: queries of a primary-key table that only a full scan could answer are
// refused with an error matching ErrNeedsFullScan (the driver adds what the server offers);
// lookups, prefix lookups and limit scans are planned.
func TestNeedsFullScan(t *testing.T) {
	for _, tt := range []struct {
		query string
		full  bool
	}{
		{query: "SELECT * FROM users", full: true},
		{query: "SELECT COUNT(*) FROM users", full: true},
		{query: "SELECT * FROM users WHERE name = 'x'", full: true},
		{query: "SELECT * FROM users WHERE user_id = 1"},
		{query: "SELECT * FROM users LIMIT 3"},
		{query: "SELECT * FROM region_orders WHERE region = 'EU' AND customer_id = 1"},
	} {
		t.Run(tt.query, func(t *testing.T) {
			st, err := parser.Parse(tt.query)
			require.NoError(t, err)
			_, err = Build(context.Background(), st, testCatalog(), Session{Database: "fluss", Location: time.UTC})
			if !tt.full {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, ErrNeedsFullScan)
			assert.Contains(t, err.Error(), "Fluss 1.0+ (ScanKv)")
		})
	}
}

// TestBindOnceWithoutPlaceholders: Build binds a statement without placeholders, and Bind of
// that plan returns it as it is instead of binding it a second time.
func TestBindOnceWithoutPlaceholders(t *testing.T) {
	p := build(t, "SELECT * FROM users WHERE user_id IN (1, 2)")
	bp, err := Bind(p, nil)
	require.NoError(t, err)
	assert.Same(t, p, bp, "no second bind")
	_, err = Bind(p, []Arg{{Value: int64(1)}})
	require.EqualError(t, err, "the statement has 0 placeholders; want 0 arguments, got 1")

	withArgs := build(t, "SELECT * FROM users WHERE user_id = ?")
	one, err := Bind(withArgs, []Arg{{Value: int64(1)}})
	require.NoError(t, err)
	two, err := Bind(withArgs, []Arg{{Value: int64(2)}})
	require.NoError(t, err)
	assert.NotEqual(t, one.String(), two.String(), "a plan with placeholders is bound anew for each argument list")
}
