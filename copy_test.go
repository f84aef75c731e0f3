package flussql_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/csv"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// TestFakeCopyFromPrimaryKeyTable: CopyFrom upserts into a primary-key table (a key's last
// row wins), and a reader that fails writes nothing of its failed batch, with one outcome.
func TestFakeCopyFromPrimaryKeyTable(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db, "CREATE TABLE kv (id BIGINT, v STRING, PRIMARY KEY (id) NOT ENFORCED)")
	ctx := fakeCtx(t)
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	schema, err := flussql.TableArrowSchema(ctx, conn, "kv")
	require.NoError(t, err)
	assert.Equal(t, []string{"id", "v"}, []string{schema.Field(0).Name, schema.Field(1).Name})

	rdr := csv.NewReader(strings.NewReader("1,a\n2,b\n1,c\n"), schema, csv.WithChunk(2))
	n, err := flussql.CopyFrom(ctx, conn, "kv", rdr)
	rdr.Release()
	require.NoError(t, err)
	assert.Equal(t, int64(3), n)
	var v string
	require.NoError(t, conn.QueryRowContext(ctx, "SELECT v FROM kv WHERE id = 1").Scan(&v))
	assert.Equal(t, "c", v, "the last row of a key wins")

	rdr = csv.NewReader(strings.NewReader("7,x\nnot a number,y\n"), schema, csv.WithChunk(-1))
	n, err = flussql.CopyFrom(ctx, conn, "kv", &failAfter{RecordReader: rdr})
	rdr.Release()
	require.Error(t, err)
	assert.ErrorIs(t, err, flussql.ErrNotWritten)
	assert.Equal(t, int64(0), n)
	var count int
	require.NoError(t, conn.QueryRowContext(ctx, "SELECT COUNT(*) FROM kv WHERE id = 7").Scan(&count))
	assert.Equal(t, 0, count)

	_, err = flussql.TableArrowSchema(ctx, conn, "no_such_table")
	assert.ErrorContains(t, err, "no_such_table")
}

// failAfter yields nothing and reports the reader's error, as a file whose first batch
// holds a bad line.
type failAfter struct{ array.RecordReader }

func (f *failAfter) Next() bool { return false }
func (f *failAfter) Err() error { return errors.New("line 2: not a number") }
