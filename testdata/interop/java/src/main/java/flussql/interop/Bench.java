package flussql.interop;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java side of flussql's comparison harness (testdata/bench/compare_lookups.sh and
 * compare_rw.sh): point lookups with the official client's Lookuper from several threads, and
 * the writes and scans of the read/write workloads.
 *
 * <pre>
 * lookup DB TABLE KEYS CALLERS N   N lookups of ids (n * 7919) % KEYS from CALLERS threads, each
 *                                  checked (score = id * 7); prints lookups/s and latencies
 * append DB TABLE N                AppendWriter: row N (untimed warm-up, flushed), then rows
 *                                  0..N-1 one by one and a flush; prints rows/s
 * upsert DB TABLE N                the same with an UpsertWriter on a primary-key table
 * scan DB TABLE N                  a LogScanner over every bucket from the beginning until N
 *                                  rows are read; sums the value column; prints rows/s and the sum
 * </pre>
 *
 * <p>The lookup table is (id INT, name STRING, score BIGINT), primary key id, ids 0..KEYS-1
 * written. The read/write tables are (id INT, name STRING, value BIGINT) with row i = (i,
 * "name-" + i, i * 1000003); compare_rw.sh reads every written table back with flussql and
 * checks it.
 * Client options come as system properties (-Dclient.lookup.batch-timeout=1ms). The bootstrap
 * servers come from FLUSS_BOOTSTRAP_SERVERS. It is compiled with Interop (same classpath).
 */
public final class Bench {

    private Bench() {}

    public static void main(String[] args) throws Exception {
        boolean rw = args.length == 4 && List.of("append", "upsert", "scan").contains(args[0]);
        if (!rw && (args.length != 6 || !args[0].equals("lookup"))) {
            System.err.println(
                    "usage: Bench lookup DB TABLE KEYS CALLERS N | append|upsert|scan DB TABLE N");
            System.exit(2);
        }
        String servers = System.getenv("FLUSS_BOOTSTRAP_SERVERS");
        if (servers == null || servers.isEmpty()) {
            throw new IllegalStateException("FLUSS_BOOTSTRAP_SERVERS is unset");
        }
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", servers);
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("client.")) {
                conf.setString(name, System.getProperty(name));
            }
        }
        TablePath path = TablePath.of(args[1], args[2]);
        if (rw) {
            try (Connection conn = ConnectionFactory.createConnection(conf);
                    Table table = conn.getTable(path)) {
                int n = Integer.parseInt(args[3]);
                switch (args[0]) {
                    case "append":
                        append(table, n);
                        break;
                    case "upsert":
                        upsert(table, n);
                        break;
                    default:
                        scan(table, n);
                }
            }
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
        long keys = Long.parseLong(args[3]);
        int callers = Integer.parseInt(args[4]);
        long n = Long.parseLong(args[5]);
        try (Connection conn = ConnectionFactory.createConnection(conf);
                Table table = conn.getTable(path)) {
            // A Lookuper is not thread-safe: one per thread; they share the connection's lookup
            // client, which batches their keys per leader.
            Lookuper warm = table.newLookup().createLookuper();
            // Warm-up lookups (connections, metadata, the JIT), untimed, as the Go benchmarks
            // have them: a quarter of N, at most 500.
            for (int i = 0; i < Math.min(n / 4, 500) + 1; i++) {
                warm.lookup(GenericRow.of((int) ((i * 7919L) % keys))).get();
            }
            AtomicLong next = new AtomicLong();
            AtomicReference<String> failure = new AtomicReference<>();
            List<long[]> lat = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            long start = System.nanoTime();
            for (int g = 0; g < callers; g++) {
                long[] mine = new long[(int) n + 1]; // latencies, then their count
                Lookuper lookuper = table.newLookup().createLookuper();
                lat.add(mine);
                Thread t =
                        new Thread(
                                () -> {
                                    int k = 0;
                                    while (true) {
                                        long i = next.incrementAndGet();
                                        if (i > n || failure.get() != null) {
                                            break;
                                        }
                                        int id = (int) ((i * 7919) % keys);
                                        long t0 = System.nanoTime();
                                        try {
                                            InternalRow row =
                                                    lookuper.lookup(GenericRow.of(id))
                                                            .get()
                                                            .getSingletonRow();
                                            if (row == null || row.getLong(2) != id * 7L) {
                                                failure.compareAndSet(
                                                        null, "id " + id + ": wrong row " + row);
                                            }
                                        } catch (Exception e) {
                                            failure.compareAndSet(null, "id " + id + ": " + e);
                                        }
                                        if (k < mine.length - 1) {
                                            mine[k++] = System.nanoTime() - t0;
                                        }
                                    }
                                    mine[mine.length - 1] = k; // how many were recorded
                                });
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            double secs = (System.nanoTime() - start) / 1e9;
            if (failure.get() != null) {
                throw new IllegalStateException(failure.get());
            }
            long total = 0;
            for (long[] l : lat) {
                total += l[l.length - 1];
            }
            long[] all = new long[(int) total];
            int at = 0;
            for (long[] l : lat) {
                int k = (int) l[l.length - 1];
                System.arraycopy(l, 0, all, at, k);
                at += k;
            }
            Arrays.sort(all);
            System.out.printf(
                    "{\"lookups\": %d, \"lookups_per_s\": %.1f, \"p50_ms\": %.3f, \"p99_ms\": %.3f}%n",
                    n,
                    n / secs,
                    all[all.length / 2] / 1e6,
                    all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1e6);
        }
        System.out.flush();
        // The client's threads may linger; the answer is out.
        Runtime.getRuntime().halt(0);
    }

    /** Row i of the read/write workloads. */
    private static GenericRow row(int i) {
        return GenericRow.of(i, BinaryString.fromString("name-" + i), i * 1000003L);
    }

    private static void report(String what, long rows, long startNanos, String extra) {
        double secs = (System.nanoTime() - startNanos) / 1e9;
        System.out.printf(
                "{\"bench\": \"%s\", \"rows\": %d, \"seconds\": %.4f, \"rows_per_s\": %.1f%s}%n",
                what, rows, secs, rows / secs, extra);
    }

    /** Counts the writes whose future failed and keeps the first error. */
    private static final class Failures {
        final AtomicLong count = new AtomicLong();
        final AtomicReference<Throwable> first = new AtomicReference<>();

        void watch(CompletableFuture<?> f) {
            f.whenComplete(
                    (ok, e) -> {
                        if (e != null) {
                            count.incrementAndGet();
                            first.compareAndSet(null, e);
                        }
                    });
        }

        /** Fails the run when a write failed: flush() does not say so itself. */
        void check() {
            if (count.get() > 0) {
                throw new IllegalStateException(
                        count.get() + " writes failed; the first: " + first.get());
            }
        }
    }

    private static void append(Table table, int n) throws Exception {
        AppendWriter w = table.newAppend().createWriter();
        w.append(row(n)).get(); // warm-up: connections, metadata, the JIT's first pass
        Failures failed = new Failures();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            failed.watch(w.append(row(i)));
        }
        w.flush();
        report("append", n, start, "");
        failed.check();
    }

    private static void upsert(Table table, int n) throws Exception {
        UpsertWriter w = table.newUpsert().createWriter();
        w.upsert(row(n)).get();
        Failures failed = new Failures();
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            failed.watch(w.upsert(row(i)));
        }
        w.flush();
        report("upsert", n, start, "");
        failed.check();
    }

    private static void scan(Table table, int n) throws Exception {
        int buckets = table.getTableInfo().getNumBuckets();
        long start = System.nanoTime();
        long sum = 0;
        int count = 0;
        long deadline = start + Duration.ofSeconds(300).toNanos();
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            for (int b = 0; b < buckets; b++) {
                scanner.subscribeFromBeginning(b);
            }
            while (count < n) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("read " + count + " of " + n + " rows in 300 s");
                }
                ScanRecords records = scanner.poll(Duration.ofMillis(500));
                for (TableBucket tb : records.buckets()) {
                    for (ScanRecord r : records.records(tb)) {
                        sum += r.getRow().getLong(2);
                        count++;
                    }
                }
            }
        }
        report("scan", count, start, ", \"sum\": " + sum);
    }
}
