package parser

import (
	"errors"
	"testing"

	"github.com/flussql/flussql/fluss/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCreateTableUsesTypeModel(t *testing.T) {
	st, err := Parse("CREATE TABLE db.t (id BIGINT NOT NULL, amount DECIMAL(10, 2), ts TIMESTAMP(3) WITH LOCAL TIME ZONE, " +
		"tags ARRAY<STRING>, PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (id) WITH ('bucket.num' = '4')")
	require.NoError(t, err)
	ct, ok := st.(*CreateTable)
	require.True(t, ok)
	assert.Equal(t, TableName{Database: "db", Name: "t"}, ct.Table)
	assert.Equal(t, []types.Column{
		{Name: "id", Type: types.NewBigInt().AsNotNull()},
		{Name: "amount", Type: types.NewDecimal(10, 2)},
		{Name: "ts", Type: types.NewTimestampLTZ(3)},
		{Name: "tags", Type: types.NewArray(types.NewString())},
	}, ct.Columns)
	assert.Equal(t, []string{"id"}, ct.PrimaryKey)
	assert.Equal(t, []string{"id"}, ct.PartitionKeys)
	assert.Equal(t, map[string]string{"bucket.num": "4"}, ct.Properties)
}

func TestVarcharAndVarbinaryMapToStringAndBytes(t *testing.T) {
	st, err := Parse("CREATE TABLE t (a VARCHAR(16), b VARBINARY(8), c CHAR(3), d BINARY(2))")
	require.NoError(t, err)
	cols := st.(*CreateTable).Columns
	assert.Equal(t, types.NewString(), cols[0].Type)
	assert.Equal(t, types.NewBytes(), cols[1].Type)
	assert.Equal(t, types.NewChar(3), cols[2].Type, "CHAR keeps its length")
	assert.Equal(t, types.NewBinary(2), cols[3].Type, "BINARY keeps its length")
}

func TestIdentifiersKeepCase(t *testing.T) {
	st, err := Parse("SELECT UserId, `Region` FROM MyDb.Users WHERE UserId = 1")
	require.NoError(t, err)
	sel := st.(*Select)
	assert.Equal(t, TableName{Database: "MyDb", Name: "Users"}, sel.Table)
	assert.Equal(t, &ColumnRef{Name: "UserId"}, sel.Items[0].Expr)
	assert.Equal(t, &ColumnRef{Name: "Region"}, sel.Items[1].Expr)
}

func TestErrorIsErrorsAsAble(t *testing.T) {
	_, err := Parse("SELECT *\nFROM t\nWHERE a = = 1")
	var pe *Error
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, 3, pe.Line)
	assert.Equal(t, 11, pe.Column)
	assert.Equal(t, "=", pe.Found)
	assert.Contains(t, pe.Expected, "a value")
	assert.Equal(t, "line 3, column 11: "+pe.Message, err.Error())
}

func TestEmptyInput(t *testing.T) {
	for _, sql := range []string{"", "   \n ", "-- nothing", "/* nothing */ ;"} {
		_, err := Parse(sql)
		var pe *Error
		require.ErrorAs(t, err, &pe, "%q", sql)
		assert.Equal(t, endOfInput, pe.Found)
		assert.Equal(t, "a statement", pe.Expected)
	}
}

func TestPlaceholders(t *testing.T) {
	for _, tc := range []struct {
		sql      string
		want     Params
		numInput int
	}{
		{"SELECT * FROM t", Params{}, 0},
		{"SELECT * FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?", Params{Positional: 4}, 4},
		{"INSERT INTO t VALUES (?, ?), (?, ?)", Params{Positional: 4}, 4},
		{"UPSERT INTO t VALUES (:a, :b), (:a, :c)", Params{Names: []string{"a", "b", "c"}}, -1},
		{"UPDATE t SET x = ? WHERE k = ?", Params{Positional: 2}, 2},
		{"ALTER TABLE t ADD PARTITION (r = ?)", Params{Positional: 1}, 1},
		{"EXPLAIN DELETE FROM t WHERE k = :k", Params{Names: []string{"k"}}, -1},
	} {
		st, err := Parse(tc.sql)
		require.NoError(t, err, tc.sql)
		p := Placeholders(st)
		assert.Equal(t, tc.want, p, tc.sql)
		assert.Equal(t, tc.numInput, p.NumInput(), tc.sql)
	}
}

func TestPlaceholderOrdinalsFollowTheText(t *testing.T) {
	st, err := Parse("UPSERT INTO t (a, b) VALUES (?, DATE '2024-01-01'), (?, ?)")
	require.NoError(t, err)
	rows := st.(*Insert).Rows
	assert.Equal(t, &Placeholder{Ordinal: 1}, rows[0][0])
	assert.Equal(t, &Literal{Kind: LitDate, Value: "2024-01-01"}, rows[0][1])
	assert.Equal(t, &Placeholder{Ordinal: 2}, rows[1][0])
	assert.Equal(t, &Placeholder{Ordinal: 3}, rows[1][1])
}

func TestWalk(t *testing.T) {
	st, err := Parse("SELECT * FROM t WHERE a = 1 AND (b IN (2, ?) OR NOT c BETWEEN 3 AND 4) AND d IS NULL AND e LIKE 'x%'")
	require.NoError(t, err)
	var cols []string
	Walk(st.(*Select).Where, func(e Expr) bool {
		if c, ok := e.(*ColumnRef); ok {
			cols = append(cols, c.Name)
		}
		return true
	})
	assert.Equal(t, []string{"a", "b", "c", "d", "e"}, cols)
	n := 0
	Walk(st.(*Select).Where, func(Expr) bool { n++; return false })
	assert.Equal(t, 1, n, "returning false stops the descent")
}

func TestQuoteIdent(t *testing.T) {
	for in, want := range map[string]string{
		"abc": "abc", "Abc_1": "Abc_1", "select": "`select`", "Date": "`Date`", "a b": "`a b`",
		"a`b": "`a``b`", "1a": "`1a`", "@x": "`@x`", "é": "`é`", "": "``",
	} {
		assert.Equal(t, want, QuoteIdent(in), in)
	}
}

func TestHintKeepsCommentTerminatorOut(t *testing.T) {
	st := &Select{Items: []SelectItem{{Expr: &Star{}}}, Table: TableName{Name: "t"}, Hints: map[string]string{"k": "a*/b"}}
	again, err := Parse(st.String())
	require.NoError(t, err, st.String())
	assert.Equal(t, st, again)
}

func TestParseTableName(t *testing.T) {
	tests := []struct {
		in   string
		want TableName
		err  string
	}{
		{"orders", TableName{Name: "orders"}, ""},
		{"shop.orders", TableName{Database: "shop", Name: "orders"}, ""},
		{"`my db`.`t-1`", TableName{Database: "my db", Name: "t-1"}, ""},
		{"shop.orders.x", TableName{}, "end of statement"},
		{"", TableName{}, "table name"},
	}
	for _, tt := range tests {
		got, err := ParseTableName(tt.in)
		if tt.err != "" {
			require.Error(t, err, tt.in)
			assert.Contains(t, err.Error(), tt.err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
}
