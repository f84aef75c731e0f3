package flussql_test

import (
	"context"
	"database/sql"
	"fmt"
	"log"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/csv"

	"github.com/flussql/flussql"
)

// COPY from Go: load CSV into a log table with CopyFrom, batch by batch, and write a
// query's result out with CopyTo. arrow-go's csv reader is made with the table's schema,
// which TableArrowSchema gives.
func ExampleCopyFrom() {
	ctx := context.Background()
	db, err := sql.Open("fluss", flussql.DSNFromEnv())
	if err != nil {
		log.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{
		`CREATE DATABASE IF NOT EXISTS examples`,
		`DROP TABLE IF EXISTS examples.copied`,
		`CREATE TABLE examples.copied (id INT, name STRING) WITH ('bucket.num' = '1')`,
	} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			log.Fatal(err)
		}
	}
	schema, err := flussql.TableArrowSchema(ctx, conn, "examples.copied")
	if err != nil {
		log.Fatal(err)
	}
	file := strings.NewReader("id,name\n1,ada\n2,grace\n3,edsger\n")
	rdr := csv.NewReader(file, schema, csv.WithHeader(true), csv.WithChunk(2))
	defer rdr.Release()
	n, err := flussql.CopyFrom(ctx, conn, "examples.copied", rdr)
	if err != nil {
		log.Fatalf("%v (%d rows written)", err, n)
	}
	fmt.Println("loaded", n, "rows")

	var out strings.Builder
	w := csv.NewWriter(&out, arrow.NewSchema([]arrow.Field{{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true}}, nil), csv.WithHeader(true))
	n, err = flussql.CopyTo(ctx, conn, "SELECT name FROM examples.copied WHERE id > 1 ORDER BY id", func(rec arrow.RecordBatch) error {
		return w.Write(rec)
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	fmt.Print(out.String())
	fmt.Println(n, "rows out")
	// Output:
	// loaded 3 rows
	// name
	// grace
	// edsger
	// 2 rows out
}
