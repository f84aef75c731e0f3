package flussql.interop;

import org.apache.fluss.bucketing.BucketingFunction;
import org.apache.fluss.client.Connection;
import org.apache.fluss.client.ConnectionFactory;
import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.admin.OffsetSpec;
import org.apache.fluss.client.lookup.LookupResult;
import org.apache.fluss.client.lookup.Lookuper;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.ScanRecord;
import org.apache.fluss.client.table.scanner.log.LogScanner;
import org.apache.fluss.client.table.scanner.log.ScanRecords;
import org.apache.fluss.client.table.writer.AppendWriter;
import org.apache.fluss.client.table.writer.UpsertWriter;
import org.apache.fluss.config.Configuration;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.encode.KeyEncoder;
import org.apache.fluss.utils.MathUtils;
import org.apache.fluss.utils.MurmurHashUtils;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Drives the official Fluss Java client (0.9.1-incubating or 1.0.0) for flussql's interop tests. Each
 * command prints one JSON object on stdout; failures go to stderr with a non-zero exit code.
 *
 * <pre>
 * append DB TABLE START COUNT PREFIX   rows (id INT, name STRING, value BIGINT): PREFIX-id, id*3
 * scan   DB TABLE                      the whole log (or changelog) up to the end offsets at start
 * upsert DB TABLE START COUNT PREFIX   rows (id INT, name STRING, score BIGINT): PREFIX-id, id*7
 * lookup DB TABLE START COUNT PREFIX   looks every id up and checks name and score
 * nested-write DB TABLE                the three rows of NESTED (below), appended or upserted
 * nested-read  DB TABLE                rows 1..3 of a NESTED table (scan or lookups) as JSON
 * part-write DB TABLE START COUNT PREFIX  PARTED rows: appended, or upserted on a primary-key table
 * part-read  DB TABLE START COUNT PREFIX  PARTED rows: every partition scanned, or every key looked up
 * kv-scan    DB TABLE                  every row of a primary-key table, by the batch scanner (KvScan)
 * </pre>
 *
 * <p>PARTED tables are (id INT, region STRING, name STRING, value BIGINT) partitioned by region,
 * with the primary key (id, region) when they have one; row id is (id, "r" + id % 3,
 * PREFIX-id, id * 11). Their partitions must exist.
 *
 * <p>NESTED tables are (id INT, tags ARRAY&lt;STRING&gt;, scores MAP&lt;STRING, INT&gt;,
 * addr ROW&lt;city STRING, zip INT&gt;, grid ARRAY&lt;ARRAY&lt;BIGINT&gt;&gt;).
 *
 * <p>The bootstrap servers come from FLUSS_BOOTSTRAP_SERVERS.
 */
public final class Interop {

    private static final int MAX_LISTED = 20;

    private Interop() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            usage();
        }
        String servers = System.getenv("FLUSS_BOOTSTRAP_SERVERS");
        if (servers == null || servers.isEmpty()) {
            throw new IllegalStateException("FLUSS_BOOTSTRAP_SERVERS is unset");
        }
        Configuration conf = new Configuration();
        conf.setString("bootstrap.servers", servers);
        // Client options may be given as system properties, e.g. -Dclient.writer.batch-size=16kb.
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith("client.")) {
                conf.setString(name, System.getProperty(name));
            }
        }
        TablePath path = TablePath.of(args[1], args[2]);
        String out;
        try (Connection conn = ConnectionFactory.createConnection(conf);
                Table table = conn.getTable(path)) {
            switch (args[0]) {
                case "append":
                    need(args, 6);
                    out =
                            append(
                                    conn.getAdmin(),
                                    table,
                                    path,
                                    intArg(args[3]),
                                    intArg(args[4]),
                                    args[5]);
                    break;
                case "upsert":
                    need(args, 6);
                    out = upsert(table, intArg(args[3]), intArg(args[4]), args[5]);
                    break;
                case "lookup":
                    need(args, 6);
                    out = lookup(table, intArg(args[3]), intArg(args[4]), args[5]);
                    break;
                case "scan":
                    out = scan(conn.getAdmin(), table, path);
                    break;
                case "nested-write":
                    out = nestedWrite(table);
                    break;
                case "nested-read":
                    out = nestedRead(conn.getAdmin(), table, path);
                    break;
                case "schema":
                    out = schema(table);
                    break;
                case "kv-scan":
                    out = KvScan.run(conn.getAdmin(), table, path);
                    break;
                case "part-write":
                    need(args, 6);
                    out = partWrite(table, intArg(args[3]), intArg(args[4]), args[5]);
                    break;
                case "part-read":
                    need(args, 6);
                    out =
                            partRead(
                                    conn.getAdmin(),
                                    table,
                                    path,
                                    intArg(args[3]),
                                    intArg(args[4]),
                                    args[5]);
                    break;
                default:
                    usage();
                    return;
            }
        }
        System.out.println(out);
        System.out.flush();
        // The client leaves non-daemon threads behind on some paths; the answer is out.
        System.exit(0);
    }

    /**
     * Appends the rows and prints how many were written and the latest offset of every bucket
     * afterwards (on a fresh table: how the client spread the rows).
     */
    private static String append(
            Admin admin, Table table, TablePath path, int start, int count, String prefix)
            throws Exception {
        AppendWriter writer = table.newAppend().createWriter();
        List<CompletableFuture<?>> acks = new ArrayList<>(count);
        for (int id = start; id < start + count; id++) {
            acks.add(
                    writer.append(
                            GenericRow.of(
                                    id, BinaryString.fromString(prefix + "-" + id), id * 3L)));
        }
        writer.flush();
        CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
        return "{\"written\":" + count + ",\"end_offsets\":" + str(endOffsets(admin, table, path)) + "}";
    }

    private static String upsert(Table table, int start, int count, String prefix) {
        UpsertWriter writer = table.newUpsert().createWriter();
        List<CompletableFuture<?>> acks = new ArrayList<>(count);
        for (int id = start; id < start + count; id++) {
            acks.add(
                    writer.upsert(
                            GenericRow.of(
                                    id, BinaryString.fromString(prefix + "-" + id), id * 7L)));
        }
        writer.flush();
        CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
        return "{\"written\":" + count + "}";
    }

    /**
     * Looks every id up with the client's Lookuper and checks the row. For every key it also
     * notes the bucket the Java client chose and whether a Murmur hash that zero-extends the tail
     * bytes (fluss-rust's variant) would choose another one, so a run shows how many keys tell
     * the two apart.
     */
    private static String lookup(Table table, int start, int count, String prefix) {
        TableInfo info = table.getTableInfo();
        Lookuper lookuper = table.newLookup().createLookuper();
        List<CompletableFuture<LookupResult>> results = new ArrayList<>(count);
        for (int id = start; id < start + count; id++) {
            results.add(lookuper.lookup(GenericRow.of(id)));
        }
        // The same encoder and bucketing function PrimaryKeyLookuper and UpsertWriterImpl use.
        KeyEncoder keyEncoder =
                KeyEncoder.ofPrimaryKeyEncoder(
                        info.getRowType().project(info.getPrimaryKeys()),
                        info.getPhysicalPrimaryKeys(),
                        info.getTableConfig(),
                        info.isDefaultBucketKey());
        BucketingFunction bucketing =
                BucketingFunction.of(info.getTableConfig().getDataLakeFormat().orElse(null));
        int buckets = info.getNumBuckets();
        // Our Murmur re-implementation is Fluss's own bucketing; a table with a datalake
        // format hashes with the lake's function (Paimon, Iceberg), which it does not model.
        boolean flussHash = !info.getTableConfig().getDataLakeFormat().isPresent();

        int found = 0, missing = 0, wrong = 0, signSensitive = 0, zeroExtDiffers = 0;
        int[] perBucket = new int[buckets];
        StringBuilder missingList = new StringBuilder();
        StringBuilder wrongList = new StringBuilder();
        for (int i = 0; i < count; i++) {
            int id = start + i;
            byte[] key = keyEncoder.encodeKey(GenericRow.of(id));
            int bucket = bucketing.bucketing(key, buckets);
            perBucket[bucket]++;
            if (flussHash && MathUtils.murmurHash(murmur(key, true)) % buckets != bucket) {
                throw new IllegalStateException("own bucketing differs from the client's");
            }
            int zeroExtBucket =
                    flussHash ? MathUtils.murmurHash(murmur(key, false)) % buckets : bucket;
            if (tailHasHighByte(key)) {
                signSensitive++;
            }
            if (zeroExtBucket != bucket) {
                zeroExtDiffers++;
            }
            InternalRow row = results.get(i).join().getSingletonRow();
            if (row == null) {
                if (missing++ < MAX_LISTED) {
                    sep(missingList)
                            .append("{\"id\":")
                            .append(id)
                            .append(",\"java_bucket\":")
                            .append(bucket)
                            .append(",\"zero_extended_bucket\":")
                            .append(zeroExtBucket)
                            .append(",\"key_hex\":\"")
                            .append(hex(key))
                            .append("\"}");
                }
                continue;
            }
            String name = row.getString(1).toString();
            long score = row.getLong(2);
            if (row.getInt(0) != id || !name.equals(prefix + "-" + id) || score != id * 7L) {
                if (wrong++ < MAX_LISTED) {
                    sep(wrongList)
                            .append("{\"id\":")
                            .append(id)
                            .append(",\"got\":[")
                            .append(row.getInt(0))
                            .append(',')
                            .append(quote(name))
                            .append(',')
                            .append(score)
                            .append("]}");
                }
                continue;
            }
            found++;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("{\"found\":").append(found);
        sb.append(",\"missing\":").append(missing);
        sb.append(",\"wrong\":").append(wrong);
        sb.append(",\"first_missing\":[").append(missingList).append(']');
        sb.append(",\"first_wrong\":[").append(wrongList).append(']');
        sb.append(",\"buckets\":").append(buckets);
        sb.append(",\"keys_per_bucket\":[");
        for (int b = 0; b < buckets; b++) {
            sb.append(b == 0 ? "" : ",").append(perBucket[b]);
        }
        sb.append("],\"keys_with_tail_byte_ge_0x80\":").append(signSensitive);
        sb.append(",\"keys_zero_extension_would_move\":").append(zeroExtDiffers);
        sb.append('}');
        return sb.toString();
    }

    /**
     * Reads the whole table from the beginning of every bucket up to the latest offsets listed
     * when the command starts (LogScanner has no bounded mode in 0.9.1). Rows are printed as
     * [id, name, value, bucket, offset]; change types are counted.
     */
    /**
     * Prints the table's columns as the Java client sees them: name, type and, for an
     * aggregation merge-engine table, each column's aggregate function and its parameters.
     */
    private static String schema(Table table) {
        StringBuilder cols = new StringBuilder();
        for (org.apache.fluss.metadata.Schema.Column c :
                table.getTableInfo().getSchema().getColumns()) {
            sep(cols).append("{\"name\":").append(quote(c.getName()));
            cols.append(",\"type\":").append(quote(c.getDataType().toString()));
            if (c.getAggFunction().isPresent()) {
                org.apache.fluss.metadata.AggFunction f = c.getAggFunction().get();
                cols.append(",\"agg\":").append(quote(f.getType().toString()));
                StringBuilder params = new StringBuilder();
                for (Map.Entry<String, String> e : new TreeMap<>(f.getParameters()).entrySet()) {
                    sep(params).append(quote(e.getKey())).append(':').append(quote(e.getValue()));
                }
                cols.append(",\"params\":{").append(params).append('}');
            }
            cols.append('}');
        }
        return "{\"columns\":[" + cols + "]}";
    }

    private static String scan(Admin admin, Table table, TablePath path) throws Exception {
        int buckets = table.getTableInfo().getNumBuckets();
        long[] end = endOffsets(admin, table, path);
        long[] next = new long[buckets];
        StringBuilder rows = new StringBuilder();
        Map<String, Integer> changeTypes = new TreeMap<>();
        int count = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        try (LogScanner scanner = table.newScan().createLogScanner()) {
            for (int b = 0; b < buckets; b++) {
                if (end[b] > 0) {
                    scanner.subscribeFromBeginning(b);
                }
            }
            while (!reached(next, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(
                            "scan did not reach the end offsets "
                                    + str(end)
                                    + " in 120 s; at "
                                    + str(next));
                }
                ScanRecords records = scanner.poll(Duration.ofMillis(500));
                for (TableBucket tb : records.buckets()) {
                    int b = tb.getBucket();
                    for (ScanRecord r : records.records(tb)) {
                        if (r.logOffset() >= end[b]) {
                            continue; // written after the scan started
                        }
                        next[b] = Math.max(next[b], r.logOffset() + 1);
                        InternalRow row = r.getRow();
                        sep(rows)
                                .append('[')
                                .append(row.getInt(0))
                                .append(',')
                                .append(quote(row.getString(1).toString()))
                                .append(',')
                                .append(row.getLong(2))
                                .append(',')
                                .append(b)
                                .append(',')
                                .append(r.logOffset())
                                .append(']');
                        changeTypes.merge(r.getChangeType().shortString(), 1, Integer::sum);
                        count++;
                    }
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        sb.append("{\"count\":").append(count);
        sb.append(",\"end_offsets\":").append(str(end));
        sb.append(",\"change_types\":{");
        boolean first = true;
        for (Map.Entry<String, Integer> e : changeTypes.entrySet()) {
            sb.append(first ? "" : ",").append(quote(e.getKey())).append(':').append(e.getValue());
            first = false;
        }
        sb.append("},\"rows\":[").append(rows).append("]}");
        return sb.toString();
    }

    /** Row id of a PARTED table. */
    private static GenericRow partRow(int id, String prefix) {
        return GenericRow.of(
                id,
                BinaryString.fromString("r" + (id % 3)),
                BinaryString.fromString(prefix + "-" + id),
                id * 11L);
    }

    /** Writes PARTED rows start..start+count-1: upserts on a primary-key table, else appends. */
    private static String partWrite(Table table, int start, int count, String prefix) {
        List<CompletableFuture<?>> acks = new ArrayList<>(count);
        if (table.getTableInfo().hasPrimaryKey()) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (int id = start; id < start + count; id++) {
                acks.add(writer.upsert(partRow(id, prefix)));
            }
            writer.flush();
        } else {
            AppendWriter writer = table.newAppend().createWriter();
            for (int id = start; id < start + count; id++) {
                acks.add(writer.append(partRow(id, prefix)));
            }
            writer.flush();
        }
        CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
        return "{\"written\":" + count + "}";
    }

    /**
     * Reads a PARTED table: a log table is scanned in every partition and bucket from the
     * beginning up to the latest offsets listed at start; on a primary-key table every key
     * (id, "r" + id % 3) of start..start+count-1 is looked up. Prints the rows as
     * [id, region, name, value, partition name] and how many keys were missing.
     */
    private static String partRead(
            Admin admin, Table table, TablePath path, int start, int count, String prefix)
            throws Exception {
        TableInfo info = table.getTableInfo();
        StringBuilder rows = new StringBuilder();
        int found = 0, missing = 0;
        if (info.hasPrimaryKey()) {
            Lookuper lookuper = table.newLookup().createLookuper();
            List<CompletableFuture<LookupResult>> results = new ArrayList<>(count);
            for (int id = start; id < start + count; id++) {
                results.add(
                        lookuper.lookup(
                                GenericRow.of(id, BinaryString.fromString("r" + (id % 3)))));
            }
            for (CompletableFuture<LookupResult> f : results) {
                InternalRow row = f.join().getSingletonRow();
                if (row == null) {
                    missing++;
                    continue;
                }
                partJson(sep(rows), row, row.getString(1).toString());
                found++;
            }
        } else {
            int buckets = info.getNumBuckets();
            List<Integer> all = new ArrayList<>();
            for (int b = 0; b < buckets; b++) {
                all.add(b);
            }
            Map<Long, String> names = new TreeMap<>();
            Map<Long, long[]> end = new TreeMap<>();
            Map<Long, long[]> next = new TreeMap<>();
            for (PartitionInfo p : admin.listPartitionInfos(path).get()) {
                Map<Integer, Long> latest =
                        admin.listOffsets(
                                        path,
                                        p.getPartitionName(),
                                        all,
                                        new OffsetSpec.LatestSpec())
                                .all()
                                .get();
                long[] e = new long[buckets];
                for (int b = 0; b < buckets; b++) {
                    e[b] = latest.get(b);
                }
                names.put(p.getPartitionId(), p.getPartitionName());
                end.put(p.getPartitionId(), e);
                next.put(p.getPartitionId(), new long[buckets]);
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            try (LogScanner scanner = table.newScan().createLogScanner()) {
                for (Map.Entry<Long, long[]> e : end.entrySet()) {
                    for (int b = 0; b < buckets; b++) {
                        if (e.getValue()[b] > 0) {
                            scanner.subscribeFromBeginning(e.getKey(), b);
                        }
                    }
                }
                while (!allReached(next, end)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(
                                "scan did not reach the end offsets in 120 s");
                    }
                    ScanRecords records = scanner.poll(Duration.ofMillis(500));
                    for (TableBucket tb : records.buckets()) {
                        long pid = tb.getPartitionId();
                        int b = tb.getBucket();
                        for (ScanRecord r : records.records(tb)) {
                            if (r.logOffset() >= end.get(pid)[b]) {
                                continue; // written after the scan started
                            }
                            next.get(pid)[b] = Math.max(next.get(pid)[b], r.logOffset() + 1);
                            partJson(sep(rows), r.getRow(), names.get(pid));
                            found++;
                        }
                    }
                }
            }
        }
        return "{\"count\":"
                + found
                + ",\"missing\":"
                + missing
                + ",\"rows\":["
                + rows
                + "]}";
    }

    private static void partJson(StringBuilder sb, InternalRow row, String partition) {
        sb.append('[')
                .append(row.getInt(0))
                .append(',')
                .append(quote(row.getString(1).toString()))
                .append(',')
                .append(quote(row.getString(2).toString()))
                .append(',')
                .append(row.getLong(3))
                .append(',')
                .append(quote(partition))
                .append(']');
    }

    private static boolean allReached(Map<Long, long[]> next, Map<Long, long[]> end) {
        for (Map.Entry<Long, long[]> e : end.entrySet()) {
            if (!reached(next.get(e.getKey()), e.getValue())) {
                return false;
            }
        }
        return true;
    }

    /** The rows of a NESTED table: values of every shape, NULLs inside and out, empty ones. */
    private static List<GenericRow> nestedRows() {
        LinkedHashMap<Object, Object> scores = new LinkedHashMap<>();
        scores.put(BinaryString.fromString("x"), 1);
        scores.put(BinaryString.fromString("y"), null);
        List<GenericRow> rows = new ArrayList<>();
        rows.add(
                GenericRow.of(
                        1,
                        new GenericArray(
                                new Object[] {
                                    BinaryString.fromString("a"),
                                    null,
                                    BinaryString.fromString("a string longer than seven")
                                }),
                        new GenericMap(scores),
                        GenericRow.of(BinaryString.fromString("Paris"), 75001),
                        new GenericArray(
                                new Object[] {
                                    new GenericArray(new long[] {1, 2}),
                                    new GenericArray(new long[] {})
                                })));
        rows.add(GenericRow.of(2, null, null, null, null));
        rows.add(
                GenericRow.of(
                        3,
                        new GenericArray(new Object[] {}),
                        new GenericMap(new LinkedHashMap<>()),
                        GenericRow.of(null, null),
                        new GenericArray(new Object[] {null})));
        return rows;
    }

    private static String nestedWrite(Table table) {
        List<CompletableFuture<?>> acks = new ArrayList<>();
        if (table.getTableInfo().hasPrimaryKey()) {
            UpsertWriter writer = table.newUpsert().createWriter();
            for (GenericRow row : nestedRows()) {
                acks.add(writer.upsert(row));
            }
            writer.flush();
        } else {
            AppendWriter writer = table.newAppend().createWriter();
            for (GenericRow row : nestedRows()) {
                acks.add(writer.append(row));
            }
            writer.flush();
        }
        CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).join();
        return "{\"written\":" + acks.size() + "}";
    }

    /** Rows 1..3 of a NESTED table as JSON, by lookups (PK table) or a scan (log table). */
    private static String nestedRead(Admin admin, Table table, TablePath path) throws Exception {
        Map<Integer, String> byId = new TreeMap<>();
        if (table.getTableInfo().hasPrimaryKey()) {
            Lookuper lookuper = table.newLookup().createLookuper();
            for (int id = 1; id <= 3; id++) {
                InternalRow row = lookuper.lookup(GenericRow.of(id)).get().getSingletonRow();
                if (row != null) {
                    byId.put(id, nestedJson(row));
                }
            }
        } else {
            int buckets = table.getTableInfo().getNumBuckets();
            long[] end = endOffsets(admin, table, path);
            long[] next = new long[buckets];
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            try (LogScanner scanner = table.newScan().createLogScanner()) {
                for (int b = 0; b < buckets; b++) {
                    if (end[b] > 0) {
                        scanner.subscribeFromBeginning(b);
                    }
                }
                while (!reached(next, end)) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("nested scan did not reach " + str(end));
                    }
                    ScanRecords records = scanner.poll(Duration.ofMillis(500));
                    for (TableBucket tb : records.buckets()) {
                        for (ScanRecord r : records.records(tb)) {
                            int b = tb.getBucket();
                            next[b] = Math.max(next[b], r.logOffset() + 1);
                            byId.put(r.getRow().getInt(0), nestedJson(r.getRow()));
                        }
                    }
                }
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String row : byId.values()) {
            sep(sb).append(row);
        }
        return "{\"rows\":[" + sb + "]}";
    }

    /** [id, tags, scores, addr, grid] with JSON arrays, objects (maps) and nulls. */
    private static String nestedJson(InternalRow row) {
        StringBuilder sb = new StringBuilder("[").append(row.getInt(0)).append(',');
        if (row.isNullAt(1)) {
            sb.append("null");
        } else {
            InternalArray tags = row.getArray(1);
            sb.append('[');
            for (int i = 0; i < tags.size(); i++) {
                sb.append(i == 0 ? "" : ",")
                        .append(tags.isNullAt(i) ? "null" : quote(tags.getString(i).toString()));
            }
            sb.append(']');
        }
        sb.append(',');
        if (row.isNullAt(2)) {
            sb.append("null");
        } else {
            InternalMap scores = row.getMap(2);
            InternalArray keys = scores.keyArray();
            InternalArray values = scores.valueArray();
            sb.append('{');
            for (int i = 0; i < scores.size(); i++) {
                sb.append(i == 0 ? "" : ",")
                        .append(quote(keys.getString(i).toString()))
                        .append(':')
                        .append(values.isNullAt(i) ? "null" : String.valueOf(values.getInt(i)));
            }
            sb.append('}');
        }
        sb.append(',');
        if (row.isNullAt(3)) {
            sb.append("null");
        } else {
            InternalRow addr = row.getRow(3, 2);
            sb.append('[')
                    .append(addr.isNullAt(0) ? "null" : quote(addr.getString(0).toString()))
                    .append(',')
                    .append(addr.isNullAt(1) ? "null" : String.valueOf(addr.getInt(1)))
                    .append(']');
        }
        sb.append(',');
        if (row.isNullAt(4)) {
            sb.append("null");
        } else {
            InternalArray grid = row.getArray(4);
            sb.append('[');
            for (int i = 0; i < grid.size(); i++) {
                sb.append(i == 0 ? "" : ",");
                if (grid.isNullAt(i)) {
                    sb.append("null");
                    continue;
                }
                InternalArray inner = grid.getArray(i);
                sb.append('[');
                for (int j = 0; j < inner.size(); j++) {
                    sb.append(j == 0 ? "" : ",")
                            .append(inner.isNullAt(j) ? "null" : String.valueOf(inner.getLong(j)));
                }
                sb.append(']');
            }
            sb.append(']');
        }
        return sb.append(']').toString();
    }

    /** The latest offset of every bucket (ListOffsets with OffsetSpec.LatestSpec). */
    private static long[] endOffsets(Admin admin, Table table, TablePath path) throws Exception {
        int buckets = table.getTableInfo().getNumBuckets();
        List<Integer> all = new ArrayList<>();
        for (int b = 0; b < buckets; b++) {
            all.add(b);
        }
        Map<Integer, Long> latest =
                admin.listOffsets(path, all, new OffsetSpec.LatestSpec()).all().get();
        long[] end = new long[buckets];
        for (int b = 0; b < buckets; b++) {
            end[b] = latest.get(b);
        }
        return end;
    }

    private static boolean reached(long[] next, long[] end) {
        for (int b = 0; b < next.length; b++) {
            if (next[b] < end[b]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Murmur3 x86_32 with seed 42 over the key, as MurmurHashUtils.hashBytes does: little-endian
     * 4-byte words, then each tail byte on its own, sign-extended (Java's byte) when signed is
     * true, zero-extended otherwise. Checked against MurmurHashUtils for the signed case.
     */
    private static int murmur(byte[] key, boolean signed) {
        int h = 42;
        int aligned = key.length - key.length % 4;
        for (int i = 0; i < aligned; i += 4) {
            int word =
                    (key[i] & 0xff)
                            | (key[i + 1] & 0xff) << 8
                            | (key[i + 2] & 0xff) << 16
                            | (key[i + 3] & 0xff) << 24;
            h = mix(h, word);
        }
        for (int i = aligned; i < key.length; i++) {
            h = mix(h, signed ? key[i] : key[i] & 0xff);
        }
        int result = MurmurHashUtils.fmix(h ^ key.length);
        if (signed && result != MurmurHashUtils.hashBytes(key)) {
            throw new IllegalStateException("own Murmur differs from MurmurHashUtils for " + hex(key));
        }
        return result;
    }

    private static int mix(int h, int k) {
        k *= 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        k *= 0x1b873593;
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    private static boolean tailHasHighByte(byte[] key) {
        for (int i = key.length - key.length % 4; i < key.length; i++) {
            if (key[i] < 0) {
                return true;
            }
        }
        return false;
    }

    private static StringBuilder sep(StringBuilder sb) {
        return sb.length() == 0 ? sb : sb.append(',');
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 0x20) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    private static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x & 0xff));
        }
        return sb.toString();
    }

    private static String str(long[] v) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            sb.append(i == 0 ? "" : ",").append(v[i]);
        }
        return sb.append(']').toString();
    }

    private static int intArg(String s) {
        return Integer.parseInt(s);
    }

    private static void need(String[] args, int n) {
        if (args.length != n) {
            usage();
        }
    }

    private static void usage() {
        System.err.println(
                "usage: Interop append|upsert|lookup|part-write|part-read DB TABLE START COUNT PREFIX | scan|nested-write|nested-read|schema DB TABLE");
        System.exit(2);
    }
}
