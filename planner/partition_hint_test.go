package planner

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// The wire client's missing-partition error becomes an ALTER TABLE statement that parses
// back to the same partition, quotes included.
func TestMissingPartitionOf(t *testing.T) {
	e := MissingPartitionOf(&fluss.PartitionNotExistError{
		Table: fluss.TablePath{Database: "db", Table: "t"}, Keys: []string{"region", "day"},
		Values: []string{"O'Brien", "2024-01-01"}, Waited: 2 * time.Second,
	})
	assert.Equal(t, "ALTER TABLE db.t ADD PARTITION (region = 'O''Brien', day = '2024-01-01')", e.Statement)
	assert.ErrorIs(t, e, fluss.ErrPartitionNotExists)
	assert.EqualError(t, e, "partition region=O'Brien/day=2024-01-01 of db.t does not exist (waited 2s); create it with: "+e.Statement)
	st, err := parser.Parse(e.Statement)
	require.NoError(t, err)
	add, ok := st.(*parser.AlterTableAddPartition)
	require.True(t, ok, "%T", st)
	require.Len(t, add.Partition, 2)
	lit, ok := add.Partition[0].Value.(*parser.Literal)
	require.True(t, ok, "%T", add.Partition[0].Value)
	assert.Equal(t, "O'Brien", lit.Value)
}
