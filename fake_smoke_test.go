package flussql_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFakeSmoke(t *testing.T) {
	db, _ := openFake(t, "")
	mustExec(t, db,
		"CREATE TABLE logs (id BIGINT, name STRING) WITH ('bucket.num' = '2')",
		"INSERT INTO logs VALUES (1, 'a'), (2, 'b'), (3, 'c')",
		"CREATE TABLE kv (id INT, v STRING, PRIMARY KEY (id)) WITH ('bucket.num' = '2')",
		"UPSERT INTO kv VALUES (1, 'x'), (2, 'y')",
	)
	assert.Equal(t, [][]string{{"1", "a"}, {"2", "b"}, {"3", "c"}}, queryStrings(t, db, "SELECT id, name FROM logs ORDER BY id"))
	assert.Equal(t, [][]string{{"y"}}, queryStrings(t, db, "SELECT v FROM kv WHERE id = 2"))
	assert.Len(t, queryStrings(t, db, "SELECT id, v FROM kv LIMIT 10"), 2)
}
