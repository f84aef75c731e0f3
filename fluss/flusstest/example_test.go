package flusstest_test

import (
	"context"
	"database/sql"
	"fmt"

	_ "github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest"
)

// A fake cluster serves the SQL driver as a real one does. A scripted fault fails the next
// lookup with REQUEST_TIME_OUT (code 25), which the driver retries: the query succeeds, on
// the third lookup request. In a test, use flusstest.New(t), which closes the cluster when
// the test ends.
func Example() {
	fc, err := flusstest.Start(flusstest.WithTabletServers(2))
	if err != nil {
		panic(err)
	}
	defer fc.Close()
	db, err := sql.Open("fluss", "fluss://"+fc.Addr()+"/fluss?timeout=200ms")
	if err != nil {
		panic(err)
	}
	defer db.Close()

	ctx := context.Background()
	for _, s := range []string{
		"CREATE TABLE kv (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')",
		"INSERT INTO kv VALUES (1, 'one'), (2, 'two')",
	} {
		if _, err := db.ExecContext(ctx, s); err != nil {
			panic(err)
		}
	}
	var name string
	if err := db.QueryRowContext(ctx, "SELECT name FROM kv WHERE id = 2").Scan(&name); err != nil {
		panic(err)
	}
	fmt.Println(name, fc.KVCount("fluss", "kv"))

	fc.Inject(flusstest.Fault{API: flusstest.Lookup, Action: flusstest.Fail, Code: 25, Message: "scripted timeout"})
	err = db.QueryRowContext(ctx, "SELECT name FROM kv WHERE id = 1").Scan(&name)
	fmt.Println(name, err, fc.Calls(flusstest.Lookup))
	// Output:
	// two 2
	// one <nil> 3
}
