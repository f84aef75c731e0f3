package flussql_test

import (
	"math/rand/v2"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBitmapRbm32Interop checks flussql's RoaringBitmap bytes against the Java
// RoaringBitmap of the Fluss server: RB_BUILD_AGG's bitmaps of two batches of a log table are
// upserted into an aggregation merge-engine table whose column is 'rbm32', so the server
// deserializes both, unions them and serializes the union; flussql reads that back with
// RB_CARDINALITY and RB_CONTAINS, and it holds exactly the values of both batches (also the
// RB_BUILD_AGG of all rows, and the RB_OR_AGG of the two batches' bitmaps).
func TestBitmapRbm32Interop(t *testing.T) {
	db, dbName := openTestDB(t)
	events := dbName + "." + createTable(t, db, dbName, "events", `batch INT, page INT, uid INT`, `'bucket.num' = '1'`)
	uv := dbName + "." + createTable(t, db, dbName, "page_uv", `page INT, bm BYTES, PRIMARY KEY (page) NOT ENFORCED`,
		`'bucket.num' = '1', 'table.merge-engine' = 'aggregation', 'fields.bm.agg' = 'rbm32'`)
	rng := rand.New(rand.NewPCG(31, 3))
	want := map[int64]*roaring.Bitmap{1: roaring.New(), 2: roaring.New()}
	tx, err := db.Begin()
	require.NoError(t, err)
	ins, err := tx.Prepare(`INSERT INTO ` + events + ` VALUES (?, ?, ?)`)
	require.NoError(t, err)
	for i := range 3000 {
		page := int64(1 + i%2)
		uid := rng.Int32N(200000) - 1000 // negatives too: unsigned 32-bit values of the bitmap
		if page == 2 && i%3 == 0 {
			uid = int32(70000 + i) // dense runs: bitmap containers
		}
		_, err := ins.Exec(int64(1+i/1500), page, uid)
		require.NoError(t, err)
		want[page].Add(uint32(uid))
	}
	require.NoError(t, tx.Commit())
	for _, batch := range []string{"1", "2"} {
		_, err := db.Exec(`INSERT INTO ` + uv + ` SELECT page, RB_BUILD_AGG(uid) FROM ` + events + ` WHERE batch = ` + batch + ` GROUP BY page`)
		require.NoError(t, err)
	}
	rows, err := db.Query(`SELECT page, bm, RB_CARDINALITY(bm) FROM ` + uv + ` WHERE page IN (1, 2)`)
	require.NoError(t, err)
	defer rows.Close()
	merged := map[int64][]byte{}
	for rows.Next() {
		var page, card int64
		var bm []byte
		require.NoError(t, rows.Scan(&page, &bm, &card))
		got := roaring.New()
		_, err := got.FromBuffer(bm)
		require.NoError(t, err)
		assert.True(t, want[page].Equals(got), "page %d: the server's union differs", page)
		assert.Equal(t, int64(want[page].GetCardinality()), card)
		merged[page] = bm
	}
	require.NoError(t, rows.Err())
	require.Len(t, merged, 2)

	for _, q := range []string{
		`SELECT page, RB_BUILD_AGG(uid) FROM ` + events + ` GROUP BY page`,
		`SELECT page, RB_OR_AGG(bm) FROM (SELECT batch, page, RB_BUILD_AGG(uid) AS bm FROM ` + events + ` GROUP BY batch, page) AS b GROUP BY page`,
	} {
		rows, err := db.Query(q)
		require.NoError(t, err, q)
		for rows.Next() {
			var page int64
			var bm []byte
			require.NoError(t, rows.Scan(&page, &bm))
			got := roaring.New()
			_, err := got.FromBuffer(bm)
			require.NoError(t, err)
			assert.True(t, want[page].Equals(got), "%s: page %d", q, page)
			assert.Equal(t, merged[page], bm, "%s: page %d: the bytes of the server's rbm32 union", q, page)
		}
		require.NoError(t, rows.Err())
		rows.Close()
	}
	var in, out bool
	require.NoError(t, db.QueryRow(`SELECT RB_CONTAINS(bm, 70000 + 3), RB_CONTAINS(bm, -2000) FROM `+uv+` WHERE page = 2`).Scan(&in, &out))
	assert.Equal(t, []bool{want[2].Contains(70003), want[2].Contains(uint32(0xffffffff - 1999))}, []bool{in, out})
}

// TestBitmapArrays builds bitmaps from an ARRAY<INT> column (NULL elements skipped, a NULL
// array NULL) and lists them back in unsigned order (-1 is 2³²-1, last), as Java's
// RoaringBitmap.toArray.
func TestBitmapArrays(t *testing.T) {
	db, dbName := openTestDB(t)
	tbl := dbName + "." + createTable(t, db, dbName, "arrs", `id INT, a ARRAY<INT>`, `'bucket.num' = '1'`)
	_, err := db.Exec(`INSERT INTO ` + tbl + ` VALUES (1, ARRAY[3, 1, 2, 2, NULL, -1]), (2, ARRAY[NULL]), (3, NULL)`)
	require.NoError(t, err)
	rows, err := db.Query(`SELECT id, RB_CARDINALITY(RB_BUILD(a)), RB_TO_ARRAY(RB_BUILD(a)), RB_CONTAINS(RB_BUILD(a), -1) FROM ` + tbl + ` ORDER BY id`)
	require.NoError(t, err)
	defer rows.Close()
	var got [][]any
	for rows.Next() {
		var id int64
		var card, arr, has any
		require.NoError(t, rows.Scan(&id, &card, &arr, &has))
		got = append(got, []any{id, card, arr, has})
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, [][]any{
		{int64(1), int64(4), []any{int64(1), int64(2), int64(3), int64(-1)}, true},
		{int64(2), int64(0), []any{}, false},
		{int64(3), nil, nil, nil},
	}, got)
}
