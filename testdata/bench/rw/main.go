// Command rw is flussql's side of testdata/bench/compare_rw.sh: one write or scan workload per
// run, through database/sql or the wire API, so that its peak RSS is the workload's own; and
// the script's setup and checks (create, verify, drop).
//
//	rw MODE DB TABLE N
//
// Tables are (id INT, name STRING, value BIGINT) with 4 buckets; row i = (i, "name-"+i,
// i*1000003). Every writer first writes row N alone and waits for it (untimed warm-up:
// connections, metadata), then rows 0..N-1, timed until the last acknowledgement. Modes:
//
//	append-sql   prepared INSERT executed in transactions of 100,000 rows (database/sql)
//	values-sql   multi-row INSERT … VALUES (?, ?, ?), … of 1,000 rows per Exec, no transaction
//	             (each Exec waits for its acknowledgement; what sqlx's NamedExec of a slice sends)
//	append-wire  fluss.AppendWriter.Append row by row, then Close
//	arrow-sql    sql.Conn.Raw → flussql.ArrowConn.AppendArrowReader over batches of 65,536 rows
//	             (one statement, as pyfluss's write_arrow_batch … flush)
//	arrow-sql-each  the same with one AppendArrow per batch (each waits for its acknowledgement)
//	arrow-wire   fluss.AppendWriter.AppendRecordBatch, batches of 65,536 rows, then Close
//	upsert-sql   prepared INSERT into a primary-key table in one transaction
//	upsert-wire  fluss.UpsertWriter.Upsert row by row, then Close
//	scan-sql     SELECT id, name, value with Rows.Next + Scan, value summed
//	scan-arrow   the same SELECT through ArrowConn.QueryArrow, value summed
//	scan-wire    a bounded fluss.LogScanner over every bucket, value summed
//	create-log, create-pk   create the table (log, or primary key id)
//	verify-log   read the table back: N+1 rows, every id 0..N once, each row's name and value
//	             (on a fresh primary-key table: its changelog, N+1 inserts)
//	verify-kv    look every key 0..N up and check its row
//	drop-db      drop the database DB (TABLE is ignored)
//
// It prints one JSON object per workload: bench, rows, seconds, rows_per_s (and sum for scans).
// FLUSS_BOOTSTRAP_SERVERS names the cluster; RW_CPUPROFILE=file writes a CPU profile of the run;
// RW_DSN_QUERY=key=value&… adds DSN keys to the database/sql modes (e.g. write_connections=1).
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

const (
	txRows    = 100_000
	arrowRows = 65_536
	ddlCols   = `(id INT, name STRING, value BIGINT`
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: rw MODE DB TABLE N (see the package comment)")
		os.Exit(2)
	}
	n, err := strconv.Atoi(os.Args[4])
	if err != nil || n < 1 {
		fmt.Fprintf(os.Stderr, "rw: N must be a positive number, got %q\n", os.Args[4])
		os.Exit(2)
	}
	b := &bench{mode: os.Args[1], db: os.Args[2], table: os.Args[3], n: n, addr: os.Getenv("FLUSS_BOOTSTRAP_SERVERS")}
	if b.addr == "" {
		fmt.Fprintln(os.Stderr, "rw: set FLUSS_BOOTSTRAP_SERVERS")
		os.Exit(2)
	}
	if path := os.Getenv("RW_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "rw: RW_CPUPROFILE: %v\n", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	if err := b.run(context.Background()); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintf(os.Stderr, "rw %s %s.%s: %v\n", b.mode, b.db, b.table, err)
		os.Exit(1)
	}
}

type bench struct {
	mode, db, table, addr string
	n                     int
}

func (b *bench) full() string { return b.db + "." + b.table }

func (b *bench) run(ctx context.Context) error {
	switch b.mode {
	case "append-sql", "upsert-sql", "values-sql", "arrow-sql", "arrow-sql-each", "scan-sql", "scan-arrow", "create-log", "create-pk", "drop-db":
		dsn := "fluss://" + b.addr + "/fluss"
		if q := os.Getenv("RW_DSN_QUERY"); q != "" {
			dsn += "?" + q
		}
		db, err := sql.Open("fluss", dsn)
		if err != nil {
			return err
		}
		defer db.Close()
		return b.runSQL(ctx, db)
	}
	client, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{b.addr}})
	if err != nil {
		return err
	}
	defer client.Close()
	tbl, err := client.Table(ctx, fluss.TablePath{Database: b.db, Table: b.table})
	if err != nil {
		return err
	}
	switch b.mode {
	case "append-wire":
		return b.appendWire(ctx, tbl)
	case "arrow-wire":
		return b.arrowWire(ctx, tbl)
	case "upsert-wire":
		return b.upsertWire(ctx, tbl)
	case "scan-wire":
		return b.scanWire(ctx, tbl)
	case "verify-log":
		return b.verifyLog(ctx, tbl)
	case "verify-kv":
		return b.verifyKv(ctx, tbl)
	}
	return fmt.Errorf("unknown mode %q", b.mode)
}

func (b *bench) runSQL(ctx context.Context, db *sql.DB) error {
	switch b.mode {
	case "create-log":
		if _, err := db.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS "+b.db); err != nil {
			return err
		}
		_, err := db.ExecContext(ctx, "CREATE TABLE "+b.full()+" "+ddlCols+") WITH ('bucket.num' = '4')")
		return err
	case "create-pk":
		if _, err := db.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS "+b.db); err != nil {
			return err
		}
		_, err := db.ExecContext(ctx, "CREATE TABLE "+b.full()+" "+ddlCols+", PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4')")
		return err
	case "drop-db":
		_, err := db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+b.db+" CASCADE")
		return err
	case "append-sql", "upsert-sql":
		return b.insertSQL(ctx, db)
	case "values-sql":
		return b.valuesSQL(ctx, db)
	case "arrow-sql", "arrow-sql-each":
		return b.arrowSQL(ctx, db)
	case "scan-sql":
		return b.scanSQL(ctx, db)
	case "scan-arrow":
		return b.scanArrow(ctx, db)
	}
	return fmt.Errorf("unknown mode %q", b.mode)
}

func name(i int) string { return "name-" + strconv.Itoa(i) }

func value(i int) int64 { return int64(i) * 1000003 }

// wantSum is the sum of the value column over rows 0..n-1.
func wantSum(n int) int64 { return 1000003 * int64(n) * int64(n-1) / 2 }

func report(bench string, rows int, start time.Time, sum *int64) {
	secs := time.Since(start).Seconds()
	out := map[string]any{"bench": bench, "rows": rows, "seconds": secs, "rows_per_s": float64(rows) / secs}
	if sum != nil {
		out["sum"] = *sum
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}

func (b *bench) insertSQL(ctx context.Context, db *sql.DB) error {
	text := "INSERT INTO " + b.full() + " VALUES (?, ?, ?)"
	if _, err := db.ExecContext(ctx, text, b.n, name(b.n), value(b.n)); err != nil {
		return err
	}
	per := txRows
	if b.mode == "upsert-sql" {
		per = b.n
	}
	start := time.Now()
	for lo := 0; lo < b.n; lo += per {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		st, err := tx.PrepareContext(ctx, text)
		if err != nil {
			_ = tx.Rollback()
			return err
		}
		for i := lo; i < min(lo+per, b.n); i++ {
			if _, err := st.ExecContext(ctx, i, name(i), value(i)); err != nil {
				_ = tx.Rollback()
				return err
			}
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	report(b.mode, b.n, start, nil)
	return nil
}

// valuesRows is the number of rows of one multi-row INSERT of values-sql.
const valuesRows = 1_000

func (b *bench) valuesSQL(ctx context.Context, db *sql.DB) error {
	if _, err := db.ExecContext(ctx, "INSERT INTO "+b.full()+" VALUES (?, ?, ?)", b.n, name(b.n), value(b.n)); err != nil {
		return err
	}
	text := "INSERT INTO " + b.full() + " VALUES (?, ?, ?)" + strings.Repeat(", (?, ?, ?)", valuesRows-1)
	args := make([]any, 0, 3*valuesRows)
	start := time.Now()
	for lo := 0; lo < b.n; lo += valuesRows {
		hi := min(lo+valuesRows, b.n)
		if hi-lo < valuesRows { // the last, shorter statement
			text = "INSERT INTO " + b.full() + " VALUES (?, ?, ?)" + strings.Repeat(", (?, ?, ?)", hi-lo-1)
		}
		args = args[:0]
		for i := lo; i < hi; i++ {
			args = append(args, i, name(i), value(i))
		}
		if _, err := db.ExecContext(ctx, text, args...); err != nil {
			return err
		}
	}
	report(b.mode, b.n, start, nil)
	return nil
}

var schema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "value", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

func record(lo, hi int) arrow.RecordBatch {
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	for i := lo; i < hi; i++ {
		rb.Field(0).(*array.Int32Builder).Append(int32(i))
		rb.Field(1).(*array.StringBuilder).Append(name(i))
		rb.Field(2).(*array.Int64Builder).Append(value(i))
	}
	return rb.NewRecordBatch()
}

// records builds the batches before the clock starts, as the other sides do.
func (b *bench) records() []arrow.RecordBatch {
	var out []arrow.RecordBatch
	for lo := 0; lo < b.n; lo += arrowRows {
		out = append(out, record(lo, min(lo+arrowRows, b.n)))
	}
	return out
}

func (b *bench) arrowSQL(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	warm := record(b.n, b.n+1)
	recs := b.records()
	return conn.Raw(func(dc any) error {
		ac := dc.(flussql.ArrowConn)
		if err := ac.AppendArrow(ctx, b.full(), warm); err != nil {
			return err
		}
		start := time.Now()
		if b.mode == "arrow-sql-each" {
			for _, rec := range recs {
				if err := ac.AppendArrow(ctx, b.full(), rec); err != nil {
					return err
				}
			}
		} else {
			rdr, err := array.NewRecordReader(schema, recs)
			if err != nil {
				return err
			}
			defer rdr.Release()
			n, err := ac.AppendArrowReader(ctx, b.full(), rdr)
			if err != nil {
				return err
			}
			if n != int64(b.n) {
				return fmt.Errorf("AppendArrowReader appended %d rows, want %d", n, b.n)
			}
		}
		report(b.mode, b.n, start, nil)
		return nil
	})
}

func (b *bench) appendWire(ctx context.Context, tbl *fluss.Table) error {
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	if err != nil {
		return err
	}
	if err := w.Append(ctx, []any{int32(b.n), name(b.n), value(b.n)}); err != nil {
		return err
	}
	if err := w.Flush(ctx); err != nil {
		return err
	}
	start := time.Now()
	for i := 0; i < b.n; i++ {
		if err := w.Append(ctx, []any{int32(i), name(i), value(i)}); err != nil {
			return err
		}
	}
	if err := w.Close(ctx); err != nil {
		return err
	}
	report(b.mode, b.n, start, nil)
	return nil
}

func (b *bench) arrowWire(ctx context.Context, tbl *fluss.Table) error {
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	if err != nil {
		return err
	}
	if err := w.AppendRecordBatch(ctx, record(b.n, b.n+1)); err != nil {
		return err
	}
	if err := w.Flush(ctx); err != nil {
		return err
	}
	recs := b.records()
	start := time.Now()
	for _, rec := range recs {
		if err := w.AppendRecordBatch(ctx, rec); err != nil {
			return err
		}
	}
	if err := w.Close(ctx); err != nil {
		return err
	}
	report(b.mode, b.n, start, nil)
	return nil
}

func (b *bench) upsertWire(ctx context.Context, tbl *fluss.Table) error {
	w, err := tbl.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{})
	if err != nil {
		return err
	}
	if err := w.Upsert(ctx, []any{int32(b.n), name(b.n), value(b.n)}); err != nil {
		return err
	}
	if err := w.Flush(ctx); err != nil {
		return err
	}
	start := time.Now()
	for i := 0; i < b.n; i++ {
		if err := w.Upsert(ctx, []any{int32(i), name(i), value(i)}); err != nil {
			return err
		}
	}
	if err := w.Close(ctx); err != nil {
		return err
	}
	report(b.mode, b.n, start, nil)
	return nil
}

func (b *bench) scanSQL(ctx context.Context, db *sql.DB) error {
	start := time.Now()
	rows, err := db.QueryContext(ctx, "SELECT id, name, value FROM "+b.full())
	if err != nil {
		return err
	}
	defer rows.Close()
	// Destinations of the Go types the driver hands out (every integer column as int64,
	// as database/sql's driver.Value has it; sql.NullInt64 is the ScanType of a nullable
	// INT): database/sql then assigns the values directly. An int or int32 destination
	// takes database/sql's own string round trip (strconv) per value, whatever a driver
	// does.
	var (
		id, v, sum int64
		count      int
		s          string
	)
	for rows.Next() {
		if err := rows.Scan(&id, &s, &v); err != nil {
			return err
		}
		sum += v
		count++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	report(b.mode, count, start, &sum)
	return nil
}

func (b *bench) scanArrow(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		start := time.Now()
		r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, "SELECT id, name, value FROM "+b.full())
		if err != nil {
			return err
		}
		defer r.Close()
		var sum int64
		count := 0
		for {
			rec, err := r.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return err
			}
			sum += sumInt64(rec.Column(2))
			count += int(rec.NumRows())
		}
		report(b.mode, count, start, &sum)
		return nil
	})
}

func sumInt64(a arrow.Array) int64 {
	var s int64
	col := a.(*array.Int64)
	for i, v := range col.Int64Values() {
		if col.IsValid(i) {
			s += v
		}
	}
	return s
}

func (b *bench) buckets(tbl *fluss.Table) map[fluss.TableBucket]int64 {
	subs := map[fluss.TableBucket]int64{}
	for k := range int32(tbl.Info().NumBuckets()) {
		subs[fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: k}] = fluss.EarliestOffset
	}
	return subs
}

// scanAll reads every row of a log table once, handing each batch to f.
func (b *bench) scanAll(ctx context.Context, tbl *fluss.Table, f func(rec arrow.RecordBatch) error) error {
	s, err := tbl.NewLogScanner(fluss.ScannerOptions{Bounded: true})
	if err != nil {
		return err
	}
	defer s.Close()
	if err := s.SubscribeBuckets(ctx, b.buckets(tbl)); err != nil {
		return err
	}
	for {
		batch, err := s.Poll(ctx)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		err = f(batch.Record)
		batch.Release()
		if err != nil {
			return err
		}
	}
}

func (b *bench) scanWire(ctx context.Context, tbl *fluss.Table) error {
	start := time.Now()
	var sum int64
	count := 0
	err := b.scanAll(ctx, tbl, func(rec arrow.RecordBatch) error {
		sum += sumInt64(rec.Column(2))
		count += int(rec.NumRows())
		return nil
	})
	if err != nil {
		return err
	}
	report(b.mode, count, start, &sum)
	return nil
}

// verifyLog checks that the table holds rows 0..N, each once, with their values.
func (b *bench) verifyLog(ctx context.Context, tbl *fluss.Table) error {
	seen := make([]bool, b.n+1)
	count := 0
	err := b.scanAll(ctx, tbl, func(rec arrow.RecordBatch) error {
		ids := rec.Column(0).(*array.Int32)
		names := rec.Column(1).(*array.String)
		values := rec.Column(2).(*array.Int64)
		for r := 0; r < int(rec.NumRows()); r++ {
			i := int(ids.Value(r))
			if i < 0 || i > b.n {
				return fmt.Errorf("row with id %d, outside 0..%d", i, b.n)
			}
			if seen[i] {
				return fmt.Errorf("id %d stored twice", i)
			}
			seen[i] = true
			if names.Value(r) != name(i) || values.Value(r) != value(i) {
				return fmt.Errorf("id %d: row (%q, %d), want (%q, %d)", i, names.Value(r), values.Value(r), name(i), value(i))
			}
			count++
		}
		return nil
	})
	if err != nil {
		return err
	}
	if count != b.n+1 {
		return fmt.Errorf("%d rows stored, want %d (ids 0..%d)", count, b.n+1, b.n)
	}
	fmt.Printf(`{"verified": %d, "sum": %d}`+"\n", count, wantSum(b.n+1))
	return nil
}

// verifyKv looks every key 0..N up and checks its row.
func (b *bench) verifyKv(ctx context.Context, tbl *fluss.Table) error {
	lk, err := tbl.NewLookuper()
	if err != nil {
		return err
	}
	const chunk = 1000
	for lo := 0; lo <= b.n; lo += chunk {
		var keys [][]any
		for i := lo; i < min(lo+chunk, b.n+1); i++ {
			keys = append(keys, []any{int32(i)})
		}
		rows, err := lk.LookupMany(ctx, keys)
		if err != nil {
			return err
		}
		for k, row := range rows {
			i := lo + k
			if row == nil {
				return b.missing(ctx, lk, i)
			}
			if row[1] != name(i) || row[2] != value(i) {
				return fmt.Errorf("key %d: row %v, want (%q, %d)", i, row, name(i), value(i))
			}
		}
	}
	fmt.Printf(`{"verified": %d}`+"\n", b.n+1)
	return nil
}

// missing reports a key a lookup did not find, saying whether it shows up a second later (the
// write was acknowledged before it could be read) or not (it was lost).
func (b *bench) missing(ctx context.Context, lk *fluss.Lookuper, i int) error {
	time.Sleep(time.Second)
	_, found, err := lk.Lookup(ctx, []any{int32(i)})
	switch {
	case err != nil:
		return fmt.Errorf("key %d not found; looked up again a second later: %w", i, err)
	case found:
		return fmt.Errorf("key %d not found at first, found a second later (acknowledged before it was readable)", i)
	}
	return fmt.Errorf("key %d not found, also a second later", i)
}
