package executor

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss"
)

// The one rule for writers and lookupers: one handle per table schema and shape, shared by
// concurrent makers; a new schema of the table drops (and closes) the old schema's
// handles; dropping the table or clearing closes them all.
func TestHandleCache(t *testing.T) {
	var closed []string
	hc := handleCache[string]{close: func(v string) { closed = append(closed, v) }}
	orders := fluss.TablePath{Database: "shop", Table: "orders"}
	users := fluss.TablePath{Database: "shop", Table: "users"}
	v1 := handleKey{tableID: 1, schemaID: 1}
	v1upsert := handleKey{tableID: 1, schemaID: 1, shape: "a"}
	u := handleKey{tableID: 2, schemaID: 1}

	assert.Equal(t, "w1", hc.store(v1, orders, "w1"))
	assert.Equal(t, "w1", hc.store(v1, orders, "w1-concurrent"), "a second maker gets the first handle")
	assert.Equal(t, []string{"w1-concurrent"}, closed, "and its own is closed")
	hc.store(v1upsert, orders, "w1a")
	hc.store(u, users, "u1")
	got, ok := hc.get(v1upsert)
	assert.True(t, ok)
	assert.Equal(t, "w1a", got)

	closed = nil
	hc.store(handleKey{tableID: 1, schemaID: 2}, orders, "w2") // ALTER TABLE … ADD: schema 2
	assert.ElementsMatch(t, []string{"w1", "w1a"}, closed, "the old schema's handles are closed")
	_, ok = hc.get(v1)
	assert.False(t, ok)
	assert.Equal(t, 2, hc.len())

	closed = nil
	hc.dropTable(orders)
	assert.Equal(t, []string{"w2"}, closed)
	hc.clear()
	assert.Equal(t, []string{"w2", "u1"}, closed)
	assert.Equal(t, 0, hc.len())
}

// Past max handles the cache starts over, closing what it held.
func TestHandleCacheBound(t *testing.T) {
	n := 0
	hc := handleCache[int]{max: 2, close: func(int) { n++ }}
	p := fluss.TablePath{Database: "d", Table: "t"}
	for i := range 3 {
		hc.store(handleKey{tableID: int64(i)}, p, i)
	}
	assert.Equal(t, 2, n)
	assert.Equal(t, 1, hc.len())
}
