package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest"
)

// arrowRows reads every batch of a QueryArrow and returns its schema's field names and the
// values of its first column (BIGINT) and its row count.
func readArrow(t *testing.T, ctx context.Context, c *sql.Conn, query string, args ...any) (names []string, ids []int64, err error) {
	t.Helper()
	err = c.Raw(func(dc any) error {
		r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, query, args...)
		if err != nil {
			return err
		}
		defer r.Close()
		for _, f := range r.Schema().Fields() {
			names = append(names, f.Name)
		}
		for {
			rec, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				return nil
			}
			if err != nil {
				return err
			}
			assert.True(t, rec.Schema().Equal(r.Schema()))
			col := rec.Column(0).(*array.Int64)
			for i := 0; i < col.Len(); i++ {
				ids = append(ids, col.Value(i))
			}
		}
	})
	return names, ids, err
}

func TestFakeArrow(t *testing.T) {
	db, _ := openFake(t, "", flusstest.WithBatchesPerFetch(1))
	mustExec(t, db,
		"CREATE TABLE ev (id BIGINT, region STRING, v DOUBLE) PARTITIONED BY (region) WITH ('bucket.num' = '2')",
		"ALTER TABLE ev ADD PARTITION (region = 'EU')", "ALTER TABLE ev ADD PARTITION (region = 'US')",
		"CREATE TABLE kv (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED)",
		"INSERT INTO kv VALUES (7, 'seven')",
	)
	ctx := fakeCtx(t)
	c, err := db.Conn(ctx)
	require.NoError(t, err)
	defer c.Close()

	// AppendArrow: a batch of the table's columns
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "region", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for i, region := range []string{"EU", "US", "EU", "EU"} {
		rb.Field(0).(*array.Int64Builder).Append(int64(i + 1))
		rb.Field(1).(*array.StringBuilder).Append(region)
		rb.Field(2).(*array.Float64Builder).Append(float64(i) / 2)
	}
	rec := rb.NewRecordBatch()
	defer rec.Release()
	require.NoError(t, c.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, "ev", rec) }))
	require.NoError(t, c.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, "fluss.ev", rec) }))
	err = c.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, "kv", rec) })
	assert.ErrorIs(t, err, flussql.ErrNotSupported, "AppendArrow to a primary-key table")
	assert.ErrorIs(t, err, flussql.ErrNotWritten, "an AppendArrow error has an outcome like a statement's")
	err = c.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, "missing", rec) })
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	err = c.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, "fluss.ev.x", rec) })
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	assert.ErrorContains(t, err, `AppendArrow's table "fluss.ev.x"`)
	require.NoError(t, c.Raw(func(dc any) error { return dc.(flussql.ArrowConn).AppendArrow(ctx, "`fluss`.`ev`", rec) }),
		"the table is named as in SQL: backticks quote")

	for _, tt := range []struct {
		query string
		args  []any
		names []string
		ids   []int64 // sorted
	}{
		{"SELECT id, v FROM ev", nil, []string{"id", "v"}, []int64{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}},
		{"SELECT id FROM ev WHERE region = ?", []any{"US"}, []string{"id"}, []int64{2, 2, 2}},
		{"SELECT id FROM ev WHERE region = 'APAC'", nil, []string{"id"}, nil},
		{"SELECT id AS k FROM ev WHERE v > 0.6", nil, []string{"k"}, []int64{3, 3, 3, 4, 4, 4}},
		{"SELECT COUNT(*) AS n FROM ev", nil, []string{"n"}, []int64{12}},
		{"SELECT id FROM ev ORDER BY id LIMIT 3", nil, []string{"id"}, []int64{1, 1, 1}},
		{"SELECT id, v FROM kv WHERE id = 7", nil, []string{"id", "v"}, []int64{7}},
		{"SELECT id FROM kv LIMIT 5", nil, []string{"id"}, []int64{7}},
	} {
		t.Run(tt.query, func(t *testing.T) {
			names, ids, err := readArrow(t, ctx, c, tt.query, tt.args...)
			require.NoError(t, err)
			assert.Equal(t, tt.names, names)
			assert.ElementsMatch(t, tt.ids, ids)
		})
	}
	_, _, err = readArrow(t, ctx, c, "SHOW TABLES")
	assert.ErrorIs(t, err, flussql.ErrNotSupported)
	_, _, err = readArrow(t, ctx, c, "SELEC")
	assert.Error(t, err)
	_, _, err = readArrow(t, ctx, c, "SELECT * FROM missing")
	assert.Error(t, err)

	// Close early, and a cancelled context in Next
	require.NoError(t, c.Raw(func(dc any) error {
		r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, "SELECT id FROM ev /*+ OPTIONS('scan.bounded' = 'false') */")
		if err != nil {
			return err
		}
		defer r.Close()
		if _, err := r.Next(ctx); err != nil {
			return err
		}
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		for {
			if _, err := r.Next(cctx); err != nil {
				assert.ErrorIs(t, err, context.Canceled)
				return nil
			}
		}
	}))
}
