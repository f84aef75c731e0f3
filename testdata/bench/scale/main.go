// Command scale measures how flussql copes with many buckets and partitions (issue 16): for a
// primary-key and a log table each with 4 buckets (the baseline), 256 buckets, and
// PARTITIONS partitions × 8 buckets (partitioned by a STRING column), it writes N rows spread
// over every bucket and partition (wire API), then measures through database/sql:
//
//   - meta: the first statement on a fresh *sql.DB that touches the table (a lookup of one
//     key on a primary-key table, SELECT … LIMIT 1 on a log table), against the same
//     statement once warm — the cost of loading the cluster's and the table's metadata;
//   - steady (partitioned tables): the same statement again and again for 12 s on one
//     *sql.DB, longer than two of the catalog's 5 s refreshes of the partition list: p50,
//     p99 and the slowest statement, and how many took over 50 ms;
//   - scan: SELECT * FROM t, the time to its first row and its rows/s (median of 3);
//   - lookup: QueryRow … WHERE key = ? on a primary-key table, p50/p99 latency and lookups/s
//     at 1 and 16 goroutines.
//
// Every measurement also counts the requests the wire client sent per tablet server
// (fluss.Observer), which shows on a cluster of several tablet servers whether a scan or the
// lookups of one table reach all of them.
//
//	FLUSS_BOOTSTRAP_SERVERS=host:port go run ./testdata/bench/scale [flags]
//
//	-n 100000          rows per table
//	-partitions 1000   partitions of the partitioned tables (8 buckets each)
//	-buckets 256       buckets of the large non-partitioned tables
//	-lookups 2000      lookups per lookup measurement
//	-tables LIST       which tables, comma-separated, of pk4,pk256,pkpart,log4,log256,logpart
//	-keep              keep the tables (default: drop each table after measuring it, so that
//	                   at most one large table exists at a time)
//	-reuse             measure the tables a run with -keep left, without writing them again
//	-cpuprofile FILE   write a CPU profile of the run (go tool pprof -top -cum FILE)
//
// A table of 1,000 partitions × 8 buckets holds 8,000 buckets, more than Fluss 0.9.1 allows by
// default (max.bucket.num 4096 counts all partitions' buckets); start the cluster with
// `fluss-local-cluster run -server-option max.bucket.num=16384 -- …` (make bench-scale does).
// It prints one JSON object per measurement.
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
)

const db = "scale"

type table struct {
	name       string
	pk         bool
	buckets    int
	partitions int // 0: not partitioned
}

func (t table) full() string { return db + "." + t.name }

func main() {
	n := flag.Int("n", 100_000, "rows per table")
	parts := flag.Int("partitions", 1000, "partitions of the partitioned tables")
	buckets := flag.Int("buckets", 256, "buckets of the large non-partitioned tables")
	lookups := flag.Int("lookups", 2000, "lookups per lookup measurement")
	which := flag.String("tables", "pk4,pk256,pkpart,log4,log256,logpart", "tables to measure")
	keep := flag.Bool("keep", false, "keep the tables")
	reuse := flag.Bool("reuse", false, "measure the tables a run with -keep left (same flags), without writing them again")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "scale: -cpuprofile:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	addr := os.Getenv("FLUSS_BOOTSTRAP_SERVERS")
	if addr == "" {
		fmt.Fprintln(os.Stderr, "scale: set FLUSS_BOOTSTRAP_SERVERS")
		os.Exit(2)
	}
	all := map[string]table{
		"pk4": {"pk_b4", true, 4, 0}, "pk256": {"pk_b" + strconv.Itoa(*buckets), true, *buckets, 0},
		"pkpart": {"pk_p" + strconv.Itoa(*parts), true, 8, *parts},
		"log4":   {"log_b4", false, 4, 0}, "log256": {"log_b" + strconv.Itoa(*buckets), false, *buckets, 0},
		"logpart": {"log_p" + strconv.Itoa(*parts), false, 8, *parts},
	}
	b := &bench{addr: addr, n: *n, lookups: *lookups, reuse: *reuse}
	ctx := context.Background()
	var err error
	b.client, err = fluss.Connect(ctx, fluss.Config{BootstrapServers: []string{addr}})
	if err == nil {
		defer b.client.Close()
		err = b.client.Admin().CreateDatabase(ctx, db, fluss.DatabaseDescriptor{}, true)
	}
	if err == nil {
		err = b.servers(ctx)
	}
	for _, key := range strings.Split(*which, ",") {
		if err != nil {
			break
		}
		t, ok := all[strings.TrimSpace(key)]
		if !ok {
			err = fmt.Errorf("unknown table %q", key)
			break
		}
		if err = b.table(ctx, t); err != nil {
			err = fmt.Errorf("%s: %w", t.full(), err)
		}
		if !*keep {
			if derr := b.client.Admin().DropTable(ctx, fluss.TablePath{Database: db, Table: t.name}, true); derr != nil && err == nil {
				err = derr
			}
		}
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "scale:", err)
		os.Exit(1)
	}
}

type bench struct {
	addr       string
	n, lookups int
	reuse      bool
	client     *fluss.Client
	tablets    map[string]int32 // tablet server address → id
}

func emit(m map[string]any) {
	line, _ := json.Marshal(m)
	fmt.Println(string(line))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// servers reports the tablet servers, so that the request counts can be read per server.
func (b *bench) servers(ctx context.Context) error {
	nodes, err := b.client.Admin().ServerNodes(ctx)
	if err != nil {
		return err
	}
	b.tablets = map[string]int32{}
	for _, nd := range nodes {
		if nd.Type == fluss.TabletServer {
			b.tablets[nd.Addr()] = nd.ID
		}
	}
	emit(map[string]any{"bench": "cluster", "tablet_servers": len(b.tablets)})
	return nil
}

// counter is an Observer counting the requests per server and API.
type counter struct {
	fluss.NopObserver
	mu sync.Mutex
	n  map[string]map[string]int
}

func (c *counter) RequestDone(ev fluss.RequestEvent) {
	c.mu.Lock()
	if c.n == nil {
		c.n = map[string]map[string]int{}
	}
	if c.n[ev.Server] == nil {
		c.n[ev.Server] = map[string]int{}
	}
	c.n[ev.Server][ev.API]++
	c.mu.Unlock()
}

// take returns the counts since the last take, keyed "ts<id>" for tablet servers (the
// coordinator and the bootstrap address by their address), and resets them.
func (c *counter) take(tablets map[string]int32) map[string]map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := map[string]map[string]int{}
	for srv, apis := range c.n {
		key := srv
		if id, ok := tablets[srv]; ok {
			key = "ts" + strconv.Itoa(int(id))
		}
		out[key] = apis
	}
	c.n = nil
	return out
}

// open returns a fresh *sql.DB (its own wire client, empty metadata cache) and its counter.
func (b *bench) open() (*sql.DB, *counter, error) {
	cfg, err := flussql.ParseDSN("fluss://" + b.addr + "/fluss")
	if err != nil {
		return nil, nil, err
	}
	obs := &counter{}
	cfg.Observer = obs
	conn, err := flussql.NewConnector(cfg)
	if err != nil {
		return nil, nil, err
	}
	return sql.OpenDB(conn), obs, nil
}

func partName(i, parts int) string { return fmt.Sprintf("p%04d", i%parts) }

func (t table) row(i int) []any {
	r := []any{int32(i), "name-" + strconv.Itoa(i), int64(i) * 1000003}
	if t.partitions > 0 {
		r = append([]any{partName(i, t.partitions)}, r...)
	}
	return r
}

// key is the lookup key of row i as SQL arguments.
func (t table) key(i int) []any {
	if t.partitions > 0 {
		return []any{partName(i, t.partitions), i}
	}
	return []any{i}
}

func (t table) lookupSQL() string {
	if t.partitions > 0 {
		return "SELECT * FROM " + t.full() + " WHERE p = ? AND id = ?"
	}
	return "SELECT * FROM " + t.full() + " WHERE id = ?"
}

func (b *bench) table(ctx context.Context, t table) error {
	if !b.reuse {
		if err := b.setup(ctx, t); err != nil {
			return err
		}
	}
	if err := b.meta(ctx, t); err != nil {
		return err
	}
	if t.partitions > 0 {
		if err := b.steady(ctx, t); err != nil {
			return err
		}
	}
	if err := b.scan(ctx, t); err != nil {
		return err
	}
	if t.pk {
		for _, g := range []int{1, 16} {
			if err := b.lookup(ctx, t, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// setup creates the table and its partitions and writes rows 0..N-1.
func (b *bench) setup(ctx context.Context, t table) error {
	path := fluss.TablePath{Database: db, Table: t.name}
	adm := b.client.Admin()
	if err := adm.DropTable(ctx, path, true); err != nil {
		return err
	}
	cols := "(id INT, name STRING, value BIGINT"
	if t.partitions > 0 {
		cols = "(p STRING, id INT, name STRING, value BIGINT"
	}
	ddl := "CREATE TABLE " + t.full() + " " + cols
	switch {
	case t.pk && t.partitions > 0:
		ddl += ", PRIMARY KEY (p, id) NOT ENFORCED)"
	case t.pk:
		ddl += ", PRIMARY KEY (id) NOT ENFORCED)"
	default:
		ddl += ")"
	}
	if t.partitions > 0 {
		ddl += " PARTITIONED BY (p)"
	}
	ddl += fmt.Sprintf(" WITH ('bucket.num' = '%d'", t.buckets)
	if !t.pk {
		// Without a bucket key a writer fills one bucket after the other (sticky): the
		// rows would sit in a few buckets.
		ddl += ", 'bucket.key' = 'id'"
	}
	ddl += ")"
	sdb, _, err := b.open()
	if err != nil {
		return err
	}
	defer sdb.Close()
	start := time.Now()
	if _, err := sdb.ExecContext(ctx, ddl); err != nil {
		return err
	}
	created := time.Since(start)
	start = time.Now()
	if err := b.createPartitions(ctx, path, t.partitions); err != nil {
		return err
	}
	partsTook := time.Since(start)
	start = time.Now()
	if err := b.waitReady(ctx, path, t.partitions); err != nil {
		return err
	}
	readyTook := time.Since(start)
	tbl, err := b.client.Table(ctx, path)
	if err != nil {
		return err
	}
	start = time.Now()
	if err := b.write(ctx, tbl, t); err != nil {
		return err
	}
	wrote := time.Since(start)
	emit(map[string]any{"bench": "setup", "table": t.name, "pk": t.pk, "buckets": t.buckets, "partitions": t.partitions,
		"create_ms": ms(created), "partitions_s": partsTook.Seconds(), "ready_s": readyTook.Seconds(), "rows": b.n, "write_s": wrote.Seconds(),
		"write_rows_per_s": float64(b.n) / wrote.Seconds()})
	return nil
}

// createPartitions creates p0000…, 8 at a time.
func (b *bench) createPartitions(ctx context.Context, path fluss.TablePath, parts int) error {
	if parts == 0 {
		return nil
	}
	return inParallel(parts, func(i int) error {
		if err := b.client.Admin().CreatePartition(ctx, path, fluss.PartitionSpec{"p": partName(i, parts)}, true); err != nil {
			return fmt.Errorf("partition %s: %w", partName(i, parts), err)
		}
		return nil
	})
}

// waitReady waits until every bucket of the table (of each partition) answers ListOffsets:
// a tablet server takes leadership of thousands of new buckets only gradually, and a writer
// that starts at once gives up on a bucket whose leader is not ready yet
// (NOT_LEADER_OR_FOLLOWER after its retries).
func (b *bench) waitReady(ctx context.Context, path fluss.TablePath, parts int) error {
	names := []string{""}
	if parts > 0 {
		names = names[:0]
		for i := range parts {
			names = append(names, partName(i, parts))
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	return inParallel(len(names), func(i int) error {
		for {
			_, err := b.client.Admin().ListOffsets(ctx, path, names[i], nil, fluss.OffsetLatest())
			if err == nil {
				return nil
			}
			if ctx.Err() != nil {
				return fmt.Errorf("partition %q not ready: %w", names[i], err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	})
}

// inParallel runs f(0) … f(n-1) on 8 goroutines and returns the first error; after one,
// no further f is started.
func inParallel(n int, f func(i int) error) error {
	next := make(chan int)
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := f(i); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var err error
loop:
	for i := range n {
		select {
		case next <- i:
		case err = <-errs:
			break loop
		}
	}
	close(next)
	wg.Wait()
	if err == nil && len(errs) > 0 {
		err = <-errs
	}
	return err
}

func (b *bench) write(ctx context.Context, tbl *fluss.Table, t table) error {
	if t.pk {
		w, err := tbl.NewUpsertWriter(ctx, fluss.UpsertWriterOptions{})
		if err != nil {
			return err
		}
		for i := range b.n {
			if err := w.Upsert(ctx, t.row(i)); err != nil {
				return err
			}
		}
		return w.Close(ctx)
	}
	w, err := tbl.NewAppendWriter(ctx, fluss.AppendWriterOptions{})
	if err != nil {
		return err
	}
	for i := range b.n {
		if err := w.Append(ctx, t.row(i)); err != nil {
			return err
		}
	}
	return w.Close(ctx)
}

// probe is the first statement that touches the table: a lookup of one key, or the first
// row of a scan.
func (b *bench) probe(ctx context.Context, sdb *sql.DB, t table, i int) error {
	var (
		query string
		args  []any
	)
	if t.pk {
		query, args = t.lookupSQL(), t.key(i)
	} else {
		query = "SELECT * FROM " + t.full() + " LIMIT 1"
	}
	rows, err := sdb.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return errors.New("the probe found no row")
	}
	return rows.Close()
}

// meta measures the first statement on a fresh *sql.DB against the same statement warm,
// three fresh DBs, medians.
func (b *bench) meta(ctx context.Context, t table) error {
	var first, warm []time.Duration
	var reqs map[string]map[string]int
	for r := range 3 {
		sdb, obs, err := b.open()
		if err != nil {
			return err
		}
		start := time.Now()
		err = b.probe(ctx, sdb, t, 7+r)
		first = append(first, time.Since(start))
		if r == 0 {
			reqs = obs.take(b.tablets)
		}
		for w := range 3 {
			if err != nil {
				break
			}
			start = time.Now()
			err = b.probe(ctx, sdb, t, 11+w)
			warm = append(warm, time.Since(start))
		}
		sdb.Close()
		if err != nil {
			return err
		}
	}
	emit(map[string]any{"bench": "meta", "table": t.name, "first_ms": ms(median(first)), "warm_ms": ms(median(warm)),
		"first_requests": reqs})
	return nil
}

// openWarm opens a *sql.DB, runs the probe statement once (loading the metadata) and
// forgets the requests counted so far.
func (b *bench) openWarm(ctx context.Context, t table) (*sql.DB, *counter, error) {
	sdb, obs, err := b.open()
	if err != nil {
		return nil, nil, err
	}
	if err := b.probe(ctx, sdb, t, 3); err != nil {
		sdb.Close()
		return nil, nil, err
	}
	obs.take(b.tablets)
	return sdb, obs, nil
}

// steady runs the probe statement for 12 s on one *sql.DB (warmed by one untimed statement)
// and reports its latencies: whether refreshing the partition list stalls statements.
func (b *bench) steady(ctx context.Context, t table) error {
	sdb, obs, err := b.openWarm(ctx, t)
	if err != nil {
		return err
	}
	defer sdb.Close()
	var lat []time.Duration
	slow := 0
	for end := time.Now().Add(12 * time.Second); time.Now().Before(end); {
		start := time.Now()
		if err := b.probe(ctx, sdb, t, 5+len(lat)%100); err != nil {
			return err
		}
		d := time.Since(start)
		lat = append(lat, d)
		if d > 50*time.Millisecond {
			slow++
		}
	}
	slices.Sort(lat)
	emit(map[string]any{"bench": "steady", "table": t.name, "statements": len(lat), "p50_ms": ms(lat[len(lat)/2]),
		"p99_ms": ms(lat[len(lat)*99/100]), "max_ms": ms(lat[len(lat)-1]), "over_50ms": slow, "requests": obs.take(b.tablets)})
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// scan runs SELECT * three times on one *sql.DB (after one untimed statement that loads the
// metadata) and reports the medians.
func (b *bench) scan(ctx context.Context, t table) error {
	sdb, obs, err := b.openWarm(ctx, t)
	if err != nil {
		return err
	}
	defer sdb.Close()
	var firstRow, total []time.Duration
	var reqs map[string]map[string]int
	for r := range 3 {
		start := time.Now()
		rows, err := sdb.QueryContext(ctx, "SELECT * FROM "+t.full())
		if err != nil && t.pk && strings.Contains(err.Error(), "needs Fluss 1.0") {
			emit(map[string]any{"bench": "scan", "table": t.name, "skipped": err.Error()})
			return nil
		}
		if err != nil {
			return err
		}
		count := 0
		var first time.Duration
		for rows.Next() {
			if count == 0 {
				first = time.Since(start)
			}
			count++
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return err
		}
		if count != b.n {
			return fmt.Errorf("the scan returned %d rows, want %d", count, b.n)
		}
		firstRow, total = append(firstRow, first), append(total, time.Since(start))
		if r == 0 {
			reqs = obs.take(b.tablets)
		}
	}
	tot := median(total)
	emit(map[string]any{"bench": "scan", "table": t.name, "rows": b.n, "first_row_ms": ms(median(firstRow)),
		"seconds": tot.Seconds(), "rows_per_s": float64(b.n) / tot.Seconds(), "requests": reqs})
	return nil
}

// lookup runs b.lookups QueryRow lookups of keys spread over the table from g goroutines.
func (b *bench) lookup(ctx context.Context, t table, g int) error {
	sdb, obs, err := b.open()
	if err != nil {
		return err
	}
	defer sdb.Close()
	sdb.SetMaxIdleConns(g)
	if err := b.probe(ctx, sdb, t, 3); err != nil {
		return err
	}
	obs.take(b.tablets)
	lat := make([]time.Duration, b.lookups)
	var wg sync.WaitGroup
	errs := make([]error, g)
	start := time.Now()
	for w := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p string
			var id int32
			var name string
			var v int64
			for k := w; k < b.lookups; k += g {
				i := (k * 7919) % b.n // spread over every bucket and partition
				s := time.Now()
				dest := []any{&id, &name, &v}
				if t.partitions > 0 {
					dest = append([]any{&p}, dest...)
				}
				if err := sdb.QueryRowContext(ctx, t.lookupSQL(), t.key(i)...).Scan(dest...); err != nil {
					errs[w] = fmt.Errorf("key %d: %w", i, err)
					return
				}
				lat[k] = time.Since(s)
				if int(id) != i {
					errs[w] = fmt.Errorf("key %d: got row %d", i, id)
					return
				}
			}
		}()
	}
	wg.Wait()
	took := time.Since(start)
	if err := errors.Join(errs...); err != nil {
		return err
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	emit(map[string]any{"bench": "lookup", "table": t.name, "goroutines": g, "lookups": b.lookups,
		"p50_ms": ms(lat[len(lat)/2]), "p99_ms": ms(lat[len(lat)*99/100]), "lookups_per_s": float64(b.lookups) / took.Seconds(),
		"requests": obs.take(b.tablets)})
	return nil
}
