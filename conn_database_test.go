package flussql_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql"
)

// TestCurrentDatabase checks that a connection reports the DSN's database, then the one
// USE made current.
func TestCurrentDatabase(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db, "CREATE DATABASE shop")
	c, err := db.Conn(fakeCtx(t))
	require.NoError(t, err)
	defer c.Close()
	current := func() string {
		var name string
		require.NoError(t, c.Raw(func(dc any) error {
			name = dc.(flussql.DatabaseConn).CurrentDatabase()
			return nil
		}))
		return name
	}
	assert.Equal(t, "fluss", current())
	_, err = c.ExecContext(fakeCtx(t), "USE shop")
	require.NoError(t, err)
	assert.Equal(t, "shop", current())
}
