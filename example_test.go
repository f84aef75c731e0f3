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

	"github.com/flussql/flussql"
)

// Open a database handle and run the seed's partitioned-table flow. The DSN comes from
// FLUSS_DSN (or FLUSS_BOOTSTRAP_SERVERS) when set.
func Example() {
	dsn := flussql.DSNFromEnv()
	if dsn == "" {
		dsn = "fluss://127.0.0.1:9123/fluss"
	}
	db, err := sql.Open("fluss", dsn)
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`CREATE TABLE IF NOT EXISTS partitioned_events (id INT, region STRING, value BIGINT)
		   PARTITIONED BY (region) WITH ('bucket.num' = '1')`,
		`ALTER TABLE partitioned_events ADD IF NOT EXISTS PARTITION (region = 'US')`,
		`INSERT INTO partitioned_events VALUES (1, 'US', 100)`,
	} {
		if _, err := db.Exec(q); err != nil {
			log.Fatal(err)
		}
	}
	rows, err := db.Query(`SELECT id, value FROM partitioned_events WHERE region = ?`, "US")
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
	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/fluss")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, "SELECT id, value FROM partitioned_events WHERE region = 'US'")
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
			fmt.Println(rec.NumRows(), "rows of", r.Schema())
		}
	})
	if err != nil {
		log.Fatal(err)
	}
}

// Write and read ARRAY and MAP columns with Go slices and maps.
func ExampleArray() {
	db, err := sql.Open("fluss", flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS user_prefs (id INT, tags ARRAY<STRING>, prefs MAP<STRING, INT>,
		PRIMARY KEY (id) NOT ENFORCED)`); err != nil {
		log.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO user_prefs VALUES (?, ?, ?)`,
		1, []string{"admin", "ops"}, map[string]int32{"theme": 2}); err != nil {
		log.Fatal(err)
	}
	var tags []string
	var prefs map[string]int32
	err = db.QueryRow(`SELECT tags, prefs FROM user_prefs WHERE id = ?`, 1).
		Scan(flussql.Array(&tags), flussql.Map(&prefs))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tags, prefs)
}

// Tell the three outcomes of a failed write apart: not written (safe to run again), unknown
// (the rows may be stored: check before appending again) and partially written.
func ExampleErrOutcomeUnknown() {
	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/fluss")
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	_, err = db.ExecContext(ctx, `INSERT INTO events VALUES (?, ?)`, 42, "click")
	switch {
	case err == nil:
		// stored
	case errors.Is(err, flussql.ErrNotWritten):
		// nothing stored (also for errors found before sending, such as a bad value): safe
		// to run again once the cause is fixed
	case errors.Is(err, flussql.ErrOutcomeUnknown):
		// may be stored: look it up before writing it again to a log table
	case errors.Is(err, flussql.ErrPartiallyWritten):
		// some rows stored, the others not (fluss.WriteError counts them)
	}
}
