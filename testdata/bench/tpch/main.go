// Command tpch is the TPC-H benchmark of flussql (make tpch): it generates the eight tables
// (internal/tpch) at scale TPCH_SF (default 1, ≈ 8.7 million rows), loads them once into a
// fresh database of the cluster FLUSS_BOOTSTRAP_SERVERS names and into an in-memory SQLite
// (with indexes on the keys), and runs each of the 22 queries (testdata/tpch/queries, as the
// specification writes them) TPCH_RUNS times (default 3), then the JOIN … ON spellings of
// testdata/tpch/joinon. Per query it prints the median time of flussql (database/sql, every
// row read), the median time ArrowConn.QueryArrow takes to read just the columns the query
// names from the tables it reads (one SELECT cols FROM t per table, summed: the cost of
// getting the data out of Fluss), their ratio, and SQLite's median time; then the totals.
// flussql's and QueryArrow's runs alternate, so that a machine busy with other work for a
// while slows both alike. A query flussql refuses prints "refused: <error>", one that fails
// otherwise (e.g. over the DSN's query_memory) "failed: <error>".
//
// Flags, for profiling the engine one query at a time: -db NAME runs against a database an
// earlier run kept (TPCH_KEEP=1; the database name is printed) instead of loading a new one,
// -queries 13,18,21 runs only those queries (of both spellings), -sqlite=false skips SQLite,
// -explain prints each query's plan, and -cpuprofile DIR writes one CPU profile per query
// of flussql's runs only (DIR/q18.pprof, DIR/q18-joinon.pprof; QueryArrow's and SQLite's
// runs are outside them, and do not alternate with flussql's), for go tool pprof (which
// merges several files given together).
//
// TPCH_LOAD=values loads with multi-row INSERT … VALUES in transactions instead of
// ArrowConn.AppendArrowReader (to compare the two); TPCH_LOAD=keyed makes the dimension
// tables primary-key tables (Fluss 1.0: their full scans need SCAN_KV); TPCH_KEEP=1 keeps
// the database; TPCH_QUERY_MEMORY sets the DSN's query_memory (512MiB at scale 1 for the
// JOIN … ON spellings of Q5, Q8 and Q9, which hold lineitem on the right of JOIN, over the
// default 256MiB).
// Run it from the repository root (it reads testdata/tpch).
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	_ "modernc.org/sqlite"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/internal/tpch"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "tpch:", err)
		os.Exit(1)
	}
}

func envFloat(name string, def float64) (float64, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f <= 0 {
		return 0, fmt.Errorf("%s must be a positive number, got %q", name, v)
	}
	return f, nil
}

func run() error {
	keptDB := flag.String("db", "", "run against this database (kept by an earlier run with TPCH_KEEP=1) instead of loading a new one")
	only := flag.String("queries", "", "comma-separated query numbers to run (default: all 22)")
	withSQLite := flag.Bool("sqlite", true, "also load and time SQLite")
	explain := flag.Bool("explain", false, "print each query's EXPLAIN before timing it")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of flussql's runs of each query into this directory")
	flag.Parse()
	selected, err := querySet(*only)
	if err != nil {
		return err
	}
	addr := os.Getenv("FLUSS_BOOTSTRAP_SERVERS")
	if addr == "" {
		return errors.New("set FLUSS_BOOTSTRAP_SERVERS (make tpch starts a cluster)")
	}
	sf, err := envFloat("TPCH_SF", 1)
	if err != nil {
		return err
	}
	runsF, err := envFloat("TPCH_RUNS", 3)
	if err != nil {
		return err
	}
	runs := int(runsF)
	ctx := context.Background()

	dbName := *keptDB
	admin, err := sql.Open("fluss", "fluss://"+addr+"/fluss")
	if err != nil {
		return err
	}
	defer admin.Close()
	gen := tpch.NewGenerator(sf, tpch.DefaultSeed)
	if dbName == "" {
		dbName = fmt.Sprintf("tpch_%d", time.Now().Unix())
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+dbName); err != nil {
			return err
		}
		if os.Getenv("TPCH_KEEP") == "" {
			defer admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+dbName+" CASCADE")
		} else {
			fmt.Printf("database %s is kept (rerun with -db %s)\n", dbName, dbName)
		}
	}
	dsn := "fluss://" + addr + "/" + dbName
	if m := os.Getenv("TPCH_QUERY_MEMORY"); m != "" {
		dsn += "?query_memory=" + m
	}
	db, err := sql.Open("fluss", dsn)
	if err != nil {
		return err
	}
	defer db.Close()

	if *keptDB == "" {
		start := time.Now()
		how, layout := "log tables, ArrowConn.AppendArrowReader", tpch.LogTables
		switch os.Getenv("TPCH_LOAD") {
		case "values":
			how, layout = "log tables, INSERT … VALUES of 1,000 rows in transactions", tpch.LogValues
		case "keyed":
			how, layout = "primary-key dimension tables by INSERT … VALUES, the others by AppendArrowReader", tpch.KeyedDimensions
		}
		n, err := gen.LoadFluss(ctx, db, dbName, layout)
		if err != nil {
			return err
		}
		took := time.Since(start)
		fmt.Printf("TPC-H scale %g: %d rows loaded into Fluss (%s) in %.1f s, %.0f rows/s\n", sf, n, how, took.Seconds(), float64(n)/took.Seconds())
	}

	var ref *sql.DB
	if *withSQLite {
		ref, err = sql.Open("sqlite", ":memory:")
		if err != nil {
			return err
		}
		defer ref.Close()
		ref.SetMaxOpenConns(1)
		if _, err := ref.Exec(`PRAGMA case_sensitive_like = ON`); err != nil {
			return err
		}
		start := time.Now()
		if err := gen.LoadSQL(ctx, ref); err != nil {
			return err
		}
		fmt.Printf("SQLite (in memory, keys indexed) loaded in %.1f s\n", time.Since(start).Seconds())
	}
	fmt.Println()

	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if *cpuProfile != "" {
		if err := os.MkdirAll(*cpuProfile, 0o755); err != nil {
			return err
		}
	}
	b := &bench{db: db, conn: conn, ref: ref, runs: runs, profileDir: *cpuProfile, explain: *explain}
	fmt.Printf("%-18s %12s %12s %8s %12s\n", "query", "flussql", "QueryArrow", "ratio", "SQLite")
	for _, dir := range []string{"queries", "joinon"} {
		for q := 1; q <= tpch.QueryCount; q++ {
			if selected != nil && !selected[q] {
				continue
			}
			name := fmt.Sprintf("q%d", q)
			if dir == "joinon" {
				name += " (JOIN … ON)"
			}
			text, err := tpch.ReadQuery("testdata/tpch/"+dir, q)
			if errors.Is(err, os.ErrNotExist) && dir == "joinon" {
				continue
			} else if err != nil {
				return err
			}
			refText, err := tpch.ReadQuery("testdata/tpch/sqlite", q)
			if err != nil {
				return err
			}
			profile := fmt.Sprintf("q%d", q)
			if dir == "joinon" {
				profile += "-joinon"
			}
			if err := b.query(ctx, name, profile, text, refText); err != nil {
				return err
			}
		}
	}
	fmt.Printf("\ntotal of the %d queries flussql runs: flussql %s, QueryArrow %s (%.1f×), SQLite %s; SQLite, all 22: %s\n",
		b.ran, fmtDur(b.total), fmtDur(b.arrowTotal), b.total.Seconds()/b.arrowTotal.Seconds(), fmtDur(b.refRan), fmtDur(b.refAll))
	return nil
}

type bench struct {
	db                *sql.DB
	conn              *sql.Conn
	ref               *sql.DB
	runs              int
	ran               int
	total, arrowTotal time.Duration
	refRan, refAll    time.Duration
	refDone           map[string]time.Duration
	profileDir        string
	explain           bool
}

// querySet parses -queries: nil for all.
func querySet(list string) (map[int]bool, error) {
	if list == "" {
		return nil, nil
	}
	set := map[int]bool{}
	for _, f := range strings.Split(list, ",") {
		q, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(f), "q")))
		if err != nil || q < 1 || q > tpch.QueryCount {
			return nil, fmt.Errorf("-queries takes query numbers 1 to %d separated by commas, got %q", tpch.QueryCount, f)
		}
		set[q] = true
	}
	return set, nil
}

// query times one query on flussql, QueryArrow and SQLite and prints its line; with a
// profile directory, flussql's runs are profiled into profile.pprof there.
func (b *bench) query(ctx context.Context, name, profile, text, refText string) error {
	if b.refDone == nil {
		b.refDone = map[string]time.Duration{}
	}
	refTime, ok := b.refDone[refText]
	if !ok && b.ref != nil {
		var err error
		refTime, err = b.median(func() error { return drain(b.ref.QueryContext(ctx, refText)) })
		if err != nil {
			return fmt.Errorf("SQLite %s: %w", name, err)
		}
		b.refDone[refText] = refTime
		b.refAll += refTime
	}
	if b.explain {
		if err := b.printPlan(ctx, name, text); err != nil {
			return err
		}
	}
	flussqlRun := func() error { return drain(b.db.QueryContext(ctx, text)) }
	arrowRun := func() error { return b.readColumns(ctx, text) }
	var flTime, arrowTime time.Duration
	var flErr, arrowErr error
	if b.profileDir != "" { // flussql's runs alone in the profile
		stop, err := b.startProfile(profile)
		if err != nil {
			return err
		}
		flTime, flErr = b.median(flussqlRun)
		stop()
		if flErr == nil {
			arrowTime, arrowErr = b.median(arrowRun)
		}
	} else {
		flTime, arrowTime, flErr, arrowErr = b.interleaved(flussqlRun, arrowRun)
	}
	if flErr != nil {
		msg, _, _ := strings.Cut(flErr.Error(), "\n")
		what := "failed"
		// The parser's refusals do not wrap ErrNotSupported (yet): known by their text.
		if errors.Is(flErr, flussql.ErrNotSupported) || strings.Contains(msg, "syntax error") || strings.Contains(msg, "is not supported") {
			what = "refused"
		}
		fmt.Printf("%-18s %s: %s\n", name, what, msg)
		return nil
	}
	if arrowErr != nil {
		return fmt.Errorf("QueryArrow for %s: %w", name, arrowErr)
	}
	b.ran++
	b.total += flTime
	b.arrowTotal += arrowTime
	b.refRan += refTime
	refCol := "-"
	if b.ref != nil {
		refCol = fmtDur(refTime)
	}
	fmt.Printf("%-18s %12s %12s %7.1f× %12s\n", name, fmtDur(flTime), fmtDur(arrowTime), flTime.Seconds()/arrowTime.Seconds(), refCol)
	return nil
}

// printPlan prints the EXPLAIN of a query (nothing when flussql refuses it: timing it says
// why).
func (b *bench) printPlan(ctx context.Context, name, text string) error {
	rows, err := b.db.QueryContext(ctx, "EXPLAIN "+text)
	if err != nil {
		return nil
	}
	defer rows.Close()
	fmt.Printf("-- %s\n", name)
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return err
		}
		fmt.Println(line)
	}
	return rows.Err()
}

// startProfile starts a CPU profile into name.pprof of the profile directory, if there is
// one; the function it returns stops it.
func (b *bench) startProfile(name string) (func(), error) {
	if b.profileDir == "" {
		return func() {}, nil
	}
	f, err := os.Create(filepath.Join(b.profileDir, name+".pprof"))
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// readColumns reads, with QueryArrow, the columns the query names from each table it reads.
func (b *bench) readColumns(ctx context.Context, text string) error {
	for table, cols := range tpch.TablesOf(text) {
		err := b.conn.Raw(func(dc any) error {
			r, err := dc.(flussql.ArrowConn).QueryArrow(ctx, "SELECT "+strings.Join(cols, ", ")+" FROM "+table)
			if err != nil {
				return err
			}
			defer r.Close()
			for {
				if _, err := r.Next(ctx); err == io.EOF {
					return nil
				} else if err != nil {
					return err
				}
			}
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// interleaved runs f and g one after the other b.runs times and returns the median time
// of each, so that a machine busy with something else for a while slows both alike; the
// first error of either stops it.
func (b *bench) interleaved(f, g func() error) (tf, tg time.Duration, errF, errG error) {
	var fs, gs []time.Duration
	for range b.runs {
		start := time.Now()
		if errF = f(); errF != nil {
			return 0, 0, errF, nil
		}
		fs = append(fs, time.Since(start))
		start = time.Now()
		if errG = g(); errG != nil {
			return 0, 0, nil, errG
		}
		gs = append(gs, time.Since(start))
	}
	slices.Sort(fs)
	slices.Sort(gs)
	return fs[len(fs)/2], gs[len(gs)/2], nil, nil
}

// median runs f b.runs times and returns the median time; the first error stops it.
func (b *bench) median(f func() error) (time.Duration, error) {
	var times []time.Duration
	for range b.runs {
		start := time.Now()
		if err := f(); err != nil {
			return 0, err
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	return times[len(times)/2], nil
}

// drain reads every row of a query's result.
func drain(rows *sql.Rows, err error) error {
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
	}
	return rows.Err()
}

func fmtDur(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	default:
		return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
	}
}
