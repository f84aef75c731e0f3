package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log"

	"github.com/flussql/flussql"
)

// A continuous GROUP BY over a table that keeps growing runs on Flink when the DSN names a
// SQL gateway: its changelog streams back until the rows are closed (which stops the job),
// and an INSERT … SELECT becomes a Flink job that outlives the program.
func ExampleFlinkError() {
	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/shop?flink_gateway=http://127.0.0.1:8083")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()

	rows, err := db.QueryContext(ctx, `SELECT region, COUNT(*) FROM orders
		/*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY region`)
	if err != nil {
		log.Fatal(err)
	}
	counts := map[string]int64{}
	for len(counts) < 3 && rows.Next() {
		var change, region string
		var n int64
		if err := rows.Scan(&change, &region, &n); err != nil {
			log.Fatal(err)
		}
		switch change {
		case "insert", "update_after":
			counts[region] = n
		case "update_before", "delete":
			delete(counts, region)
		}
	}
	rows.Close() // stops the Flink job
	fmt.Println(counts)

	var job string
	err = db.QueryRowContext(ctx, `INSERT INTO totals SELECT region, COUNT(*) FROM orders
		/*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY region`).Scan(&job)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("running as Flink job", job) // until STOP JOB

	var fe *flussql.FlinkError
	if _, err := db.ExecContext(ctx, "STOP JOB 'no-such-job'"); errors.As(err, &fe) {
		fmt.Println("Flink says:", fe.Message)
	}
}
