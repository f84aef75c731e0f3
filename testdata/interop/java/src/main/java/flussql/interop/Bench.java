package flussql.interop;

import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalRow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java side of flussql's comparison harness (testdata/bench/compare_lookups.sh): point
 * lookups with the official client's Lookuper from several threads.
 *
 * <pre>
 * lookup DB TABLE KEYS CALLERS N   N lookups of ids (n * 7919) % KEYS from CALLERS threads, each
 *                                  checked (score = id * 7); prints lookups/s and latencies
 * </pre>
 *
 * <p>The table is (id INT, name STRING, score BIGINT), primary key id, ids 0..KEYS-1 written.
 * Client options come as system properties (-Dclient.lookup.batch-timeout=1ms). The bootstrap
 * servers come from FLUSS_BOOTSTRAP_SERVERS. It is compiled with Interop (same classpath).
 */
public final class Bench {

    private Bench() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 6 || !args[0].equals("lookup")) {
            System.err.println("usage: Bench lookup DB TABLE KEYS CALLERS N");
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
}
