package flussql_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArrayFunctionsOnColumns reads real ARRAY columns of a Fluss table through the ARRAY
// functions (NULL arrays, NULL elements, empty arrays) and ARRAY_AGG, and builds arrays
// from columns with ARRAY[…].
func TestArrayFunctionsOnColumns(t *testing.T) {
	db, dbName := openTestDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	tb := dbName + ".arrays"
	_, err := db.ExecContext(ctx, "CREATE TABLE "+tb+" (id INT, nums ARRAY<INT>, tags ARRAY<STRING>, g STRING) WITH ('bucket.num' = '1')")
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "INSERT INTO "+tb+` VALUES
		(1, ARRAY[3, NULL, 1, 3], ARRAY['b', NULL, 'a'], 'x'),
		(2, NULL, NULL, 'x'),
		(3, ARRAY[], ARRAY[], 'y'),
		(4, ARRAY[7], ARRAY['z'], NULL)`)
	require.NoError(t, err)
	for _, tc := range []struct {
		name, expr string
		want       []string // by id
	}{
		{"ARRAY_CONTAINS", "ARRAY_CONTAINS(nums, 3)", []string{"true", "NULL", "false", "false"}},
		{"ARRAY_CONTAINS a NULL", "ARRAY_CONTAINS(nums, CAST(NULL AS INT))", []string{"true", "NULL", "false", "false"}},
		{"ARRAY_POSITION", "ARRAY_POSITION(nums, 1)", []string{"3", "NULL", "0", "0"}},
		{"ARRAY_SORT", "ARRAY_SORT(nums)", []string{"[NULL, 1, 3, 3]", "NULL", "[]", "[7]"}},
		{"ARRAY_SORT descending", "ARRAY_SORT(tags, FALSE)", []string{"[b, a, NULL]", "NULL", "[]", "[z]"}},
		{"ARRAY_DISTINCT", "ARRAY_DISTINCT(nums)", []string{"[3, NULL, 1]", "NULL", "[]", "[7]"}},
		{"ARRAY_JOIN", "ARRAY_JOIN(tags, '+', '_')", []string{"b+_+a", "NULL", "", "z"}},
		{"ARRAY_MAX", "ARRAY_MAX(nums)", []string{"3", "NULL", "NULL", "7"}},
		{"ARRAY_SLICE", "ARRAY_SLICE(nums, -2)", []string{"[1, 3]", "NULL", "[]", "[7]"}},
		{"ARRAY_APPEND a column", "ARRAY_APPEND(nums, id)", []string{"[3, NULL, 1, 3, 1]", "NULL", "[3]", "[7, 4]"}},
		{"ARRAY_CONCAT", "ARRAY_CONCAT(nums, ARRAY[id])", []string{"[3, NULL, 1, 3, 1]", "NULL", "[3]", "[7, 4]"}},
		{"ELEMENT", "ELEMENT(ARRAY_REMOVE(nums, 3))", nil},
		{"ELEMENT of one", "ELEMENT(tags)", nil},
		{"subscript", "ARRAY_REVERSE(tags)[1]", []string{"a", "NULL", "NULL", "z"}},
		{"constructor over columns", "ARRAY[id, CARDINALITY(nums), id * 2]", []string{"[1, 4, 2]", "[2, NULL, 4]", "[3, 0, 6]", "[4, 1, 8]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := flussqlAnswer(ctx, db, "SELECT "+tc.expr+" FROM "+tb+" ORDER BY id")
			if tc.want == nil { // ELEMENT of more than one element fails
				assert.ErrorContains(t, err, "ELEMENT wants at most one")
				return
			}
			require.NoError(t, err)
			var col []string
			for _, r := range got.rows {
				col = append(col, r[0])
			}
			assert.Equal(t, tc.want, col)
		})
	}
	got, err := flussqlAnswer(ctx, db, "SELECT g, ARRAY_SORT(ARRAY_AGG(id)), ARRAY_AGG(DISTINCT CARDINALITY(nums)) FROM "+tb+" WHERE id <> 1 OR g = 'x' GROUP BY g ORDER BY g")
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"NULL", "[4]", "[1]"}, {"x", "[1, 2]", "[4, NULL]"}, {"y", "[3]", "[0]"}}, got.rows)
}
