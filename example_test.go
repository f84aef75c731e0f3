package flussql_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql"
)

// Open a database handle and run the seed's partitioned-table flow: create a partitioned
// table, add a partition, write rows and read them back by partition. The DSN comes from
// FLUSS_DSN (or FLUSS_BOOTSTRAP_SERVERS).
func Example() {
	db, err := sql.Open("fluss", flussql.DSNFromEnv()) // e.g. fluss://127.0.0.1:9123/fluss
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE DATABASE IF NOT EXISTS examples`,
		`DROP TABLE IF EXISTS examples.partitioned_events`,
		`CREATE TABLE examples.partitioned_events (id INT, region STRING, value BIGINT)
		   PARTITIONED BY (region) WITH ('bucket.num' = '1')`,
		`ALTER TABLE examples.partitioned_events ADD PARTITION (region = 'US')`,
		`ALTER TABLE examples.partitioned_events ADD PARTITION (region = 'EU')`,
		`INSERT INTO examples.partitioned_events VALUES (1, 'US', 100), (2, 'EU', 200), (3, 'US', 300)`,
	} {
		if _, err := db.Exec(q); err != nil {
			log.Fatal(err)
		}
	}
	rows, err := db.Query(`SELECT id, value FROM examples.partitioned_events WHERE region = ? ORDER BY id`, "US")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int32
		var value int64
		if err := rows.Scan(&id, &value); err != nil {
			log.Fatal(err)
		}
		fmt.Println(id, value)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 1 100
	// 3 300
}

func ExampleParseDSN() {
	cfg, err := flussql.ParseDSN("fluss://alice:secret@10.0.0.1:9123,10.0.0.2:9123/sales?timeout=5s&partition_auto_create=true")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cfg.Addrs, cfg.User, cfg.Database, cfg.RequestTimeout, cfg.PartitionAutoCreate)
	fmt.Println(cfg) // the password is never printed
	// Output:
	// [10.0.0.1:9123 10.0.0.2:9123] alice sales 5s true
	// fluss://alice:xxxxx@10.0.0.1:9123,10.0.0.2:9123/sales?partition_auto_create=true&timeout=5s
}

func ExampleNewConnector() {
	cfg := flussql.NewConfig()
	cfg.Addrs = []string{"127.0.0.1:9123"}
	cfg.Database = "analytics"
	cfg.RequestTimeout = 10 * time.Second
	connector, err := flussql.NewConnector(cfg)
	if err != nil {
		log.Fatal(err)
	}
	db := sql.OpenDB(connector) // sql.DB.Close closes the connector's wire client
	defer db.Close()
	fmt.Println(cfg.FormatDSN())
	// Output: fluss://127.0.0.1:9123/analytics?timeout=10s
}

// Log what the wire client does behind the statements (connections, metadata refreshes,
// leader changes, retries) with log/slog at debug level. The password never appears.
func ExampleConfig_logger() {
	cfg, err := flussql.ParseDSN("fluss://alice:secret@127.0.0.1:9123/analytics")
	if err != nil {
		log.Fatal(err)
	}
	cfg.Logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	connector, err := flussql.NewConnector(cfg)
	if err != nil {
		log.Fatal(err)
	}
	db := sql.OpenDB(connector)
	defer db.Close()
	fmt.Println(cfg)
	// Output: fluss://alice:xxxxx@127.0.0.1:9123/analytics
}

// Read a log-table scan as Arrow record batches through sql.Conn.Raw.
func ExampleArrowConn() {
	db, err := sql.Open("fluss", flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE DATABASE IF NOT EXISTS examples`,
		`DROP TABLE IF EXISTS examples.clicks`,
		`CREATE TABLE examples.clicks (id INT, page STRING) WITH ('bucket.num' = '1')`,
		`INSERT INTO examples.clicks VALUES (1, '/'), (2, '/docs'), (3, '/')`,
	} {
		if _, err := db.Exec(q); err != nil {
			log.Fatal(err)
		}
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, "SELECT page, COUNT(*) AS n FROM examples.clicks GROUP BY page ORDER BY n DESC")
		if err != nil {
			return err
		}
		defer r.Close()
		for {
			rec, err := r.Next(ctx)
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			pages, counts := rec.Column(0), rec.Column(1)
			for i := 0; i < int(rec.NumRows()); i++ {
				fmt.Println(pages.ValueStr(i), counts.ValueStr(i))
			}
		}
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// / 2
	// /docs 1
}

// Load Arrow record batches into a log table as one statement: they are compressed and sent
// while the next ones are read.
func ExampleArrowConn_appendArrowReader() {
	db, err := sql.Open("fluss", flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE DATABASE IF NOT EXISTS examples`,
		`DROP TABLE IF EXISTS examples.readings`,
		`CREATE TABLE examples.readings (sensor INT, celsius DOUBLE) WITH ('bucket.num' = '2')`,
	} {
		if _, err := db.Exec(q); err != nil {
			log.Fatal(err)
		}
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "sensor", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "celsius", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)
	var batches []arrow.RecordBatch
	for b := 0; b < 3; b++ { // e.g. batches read from a file or another system
		rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
		for i := 0; i < 1000; i++ {
			rb.Field(0).(*array.Int32Builder).Append(int32(i % 10))
			rb.Field(1).(*array.Float64Builder).Append(20 + float64(b))
		}
		batches = append(batches, rb.NewRecordBatch())
		rb.Release()
	}
	rdr, err := array.NewRecordReader(schema, batches)
	if err != nil {
		log.Fatal(err)
	}
	defer rdr.Release()

	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	var n int64
	err = conn.Raw(func(dc any) (err error) {
		n, err = dc.(flussql.ArrowConn).AppendArrowReader(ctx, "examples.readings", rdr)
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	var avg float64
	if err := db.QueryRow(`SELECT AVG(celsius) FROM examples.readings`).Scan(&avg); err != nil {
		log.Fatal(err)
	}
	fmt.Println(n, "rows appended, average", avg)
	// Output: 3000 rows appended, average 21
}

// Write and read ARRAY and MAP columns with Go slices and maps.
func ExampleArray() {
	db, err := sql.Open("fluss", flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE DATABASE IF NOT EXISTS examples`,
		`CREATE TABLE IF NOT EXISTS examples.user_prefs (id INT, tags ARRAY<STRING>, prefs MAP<STRING, INT>,
		   PRIMARY KEY (id) NOT ENFORCED)`,
	} {
		if _, err := db.Exec(q); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO examples.user_prefs VALUES (?, ?, ?)`,
		1, []string{"admin", "ops"}, map[string]int32{"theme": 2}); err != nil {
		log.Fatal(err)
	}
	var tags []string
	var prefs map[string]int32
	err = db.QueryRow(`SELECT tags, prefs FROM examples.user_prefs WHERE id = ?`, 1).
		Scan(flussql.Array(&tags), flussql.Map(&prefs))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tags, prefs)
	// Output: [admin ops] map[theme:2]
}

// Tell the three outcomes of a failed write apart: not written (safe to run again), unknown
// (the rows may be stored: check before appending again) and partially written.
func ExampleErrOutcomeUnknown() {
	db, err := sql.Open("fluss", flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE DATABASE IF NOT EXISTS examples`); err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, q := range []string{
		`INSERT INTO examples.no_such_table VALUES (42, 'click')`,
		`CREATE TABLE IF NOT EXISTS examples.events (id INT, kind STRING)`,
		`INSERT INTO examples.events VALUES (42, 'click')`,
	} {
		_, err = db.ExecContext(ctx, q)
		switch {
		case err == nil:
			fmt.Println("done")
		case errors.Is(err, flussql.ErrNotWritten):
			// nothing stored (also for errors found before sending, such as a missing table
			// or a bad value): safe to run again once the cause is fixed
			fmt.Println("not written")
		case errors.Is(err, flussql.ErrOutcomeUnknown):
			// may be stored (the request was sent, its answer lost): look it up before
			// writing it again to a log table
			fmt.Println("outcome unknown")
		case errors.Is(err, flussql.ErrPartiallyWritten):
			// some rows stored, the others not (fluss.WriteError counts them)
			fmt.Println("partially written")
		default:
			fmt.Println("failed:", err) // a statement that writes no rows, e.g. DDL
		}
	}
	// Output:
	// not written
	// done
	// done
}

// Run a procedure of the Fluss docs' Flink page as written: CALL sys.get_cluster_configs
// answers with Flink's columns config_key, config_value and config_source (ACL, cluster-config
// and rebalance procedures work the same way; Exec runs one and drops its rows).
func Example_callProcedure() {
	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/fluss")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query("CALL sys.get_cluster_configs(config_keys => 'datalake.format', 'kv.rocksdb.shared-rate-limiter.bytes-per-sec')")
	if err != nil {
		log.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var key, source string
		var value sql.NullString
		if err := rows.Scan(&key, &value, &source); err != nil {
			log.Fatal(err)
		}
		fmt.Println(key, value.String, source)
	}
	if err := rows.Err(); err != nil {
		log.Fatal(err)
	}
	if _, err := db.Exec("CALL sys.add_acl(resource => 'cluster.fluss.orders', permission => 'ALLOW', principal => 'User:alice', operation => 'READ')"); err != nil {
		log.Fatal(err) // needs a cluster with the authorizer on
	}
}
