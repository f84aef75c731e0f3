/*
 * Golden-vector generator for flussql's fluss/internal/logbatch package.
 *
 * It uses the real Fluss 0.9.1 classes (fluss-common) to build log record batches
 * (ARROW and INDEXED), to project ARROW batches the way the tablet server does for a
 * projection-pushdown fetch, and to decode batches (ours or Java's) into a canonical
 * text form that the Go tests print the same way.
 *
 *   gen <dir>                                   write the golden .bin/.txt files
 *   decode <arrow|indexed> <schema> <file> [f,f] print the canonical text of a file
 *
 * Canonical text: one "batch ..." line per batch followed by one line per record:
 * "<offset> <change type> v|v|...". Values: null; true/false; integers in decimal; FLOAT and
 * DOUBLE as raw IEEE bits in hex; DECIMAL as the unscaled integer; CHAR/STRING/BINARY/BYTES
 * as hex; DATE days; TIME millis of day; TIMESTAMP/TIMESTAMP_LTZ as nanoseconds since the
 * epoch; ARRAY [a,b]; MAP {k=v,...}; ROW (a,b).
 */
package flussql.javagen;

import org.apache.fluss.compression.ArrowCompressionInfo;
import org.apache.fluss.compression.ArrowCompressionType;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.SchemaGetter;
import org.apache.fluss.metadata.SchemaInfo;
import org.apache.fluss.record.BytesViewLogRecords;
import org.apache.fluss.record.ChangeType;
import org.apache.fluss.record.DefaultLogRecordBatch;
import org.apache.fluss.record.FileLogProjection;
import org.apache.fluss.record.FileLogRecords;
import org.apache.fluss.record.LogRecord;
import org.apache.fluss.record.LogRecordBatch;
import org.apache.fluss.record.LogRecordReadContext;
import org.apache.fluss.record.MemoryLogRecords;
import org.apache.fluss.record.MemoryLogRecordsArrowBuilder;
import org.apache.fluss.record.MemoryLogRecordsIndexedBuilder;
import org.apache.fluss.record.ProjectionPushdownCache;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.arrow.ArrowWriter;
import org.apache.fluss.row.arrow.ArrowWriterPool;
import org.apache.fluss.row.encode.RowEncoder;
import org.apache.fluss.row.indexed.IndexedRow;
import org.apache.fluss.metadata.KvFormat;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.BufferAllocator;
import org.apache.fluss.shaded.arrow.org.apache.arrow.memory.RootAllocator;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.CloseableIterator;

import java.io.File;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

public final class Main {
    static final int SCHEMA_ID = 1;

    static RowType scalars() {
        return DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.INT().copy(false)),
                DataTypes.FIELD("b", DataTypes.BOOLEAN()),
                DataTypes.FIELD("ti", DataTypes.TINYINT()),
                DataTypes.FIELD("si", DataTypes.SMALLINT()),
                DataTypes.FIELD("i", DataTypes.INT()),
                DataTypes.FIELD("bi", DataTypes.BIGINT()),
                DataTypes.FIELD("f", DataTypes.FLOAT()),
                DataTypes.FIELD("d", DataTypes.DOUBLE()),
                DataTypes.FIELD("dec_s", DataTypes.DECIMAL(10, 2)),
                DataTypes.FIELD("dec_l", DataTypes.DECIMAL(38, 10)),
                DataTypes.FIELD("ch", DataTypes.CHAR(5)),
                DataTypes.FIELD("s", DataTypes.STRING()),
                DataTypes.FIELD("bin", DataTypes.BINARY(4)),
                DataTypes.FIELD("by", DataTypes.BYTES()),
                DataTypes.FIELD("dt", DataTypes.DATE()),
                DataTypes.FIELD("t0", DataTypes.TIME(0)),
                DataTypes.FIELD("t3", DataTypes.TIME(3)),
                DataTypes.FIELD("t6", DataTypes.TIME(6)),
                DataTypes.FIELD("t9", DataTypes.TIME(9)),
                DataTypes.FIELD("ts0", DataTypes.TIMESTAMP(0)),
                DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
                DataTypes.FIELD("ts6", DataTypes.TIMESTAMP(6)),
                DataTypes.FIELD("ts9", DataTypes.TIMESTAMP(9)),
                DataTypes.FIELD("ltz0", DataTypes.TIMESTAMP_LTZ(0)),
                DataTypes.FIELD("ltz3", DataTypes.TIMESTAMP_LTZ(3)),
                DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
                DataTypes.FIELD("ltz9", DataTypes.TIMESTAMP_LTZ(9)));
    }

    static RowType nested() {
        return DataTypes.ROW(
                DataTypes.FIELD("id", DataTypes.INT().copy(false)),
                DataTypes.FIELD("arr", DataTypes.ARRAY(DataTypes.INT())),
                DataTypes.FIELD("strs", DataTypes.ARRAY(DataTypes.STRING())),
                DataTypes.FIELD("m", DataTypes.MAP(DataTypes.STRING().copy(false), DataTypes.BIGINT())),
                DataTypes.FIELD(
                        "r",
                        DataTypes.ROW(
                                DataTypes.FIELD("x", DataTypes.INT()),
                                DataTypes.FIELD("y", DataTypes.STRING()))));
    }

    static RowType schema(String name) {
        switch (name) {
            case "scalars":
                return scalars();
            case "nested":
                return nested();
            default:
                throw new IllegalArgumentException("unknown schema " + name);
        }
    }

    /** Row r of the scalar schema; row 1 is all NULL except id. */
    static GenericRow scalarRow(int r) {
        GenericRow row = new GenericRow(27);
        row.setField(0, r);
        if (r == 1) {
            return row;
        }
        boolean extreme = r == 2;
        row.setField(1, r % 2 == 0);
        row.setField(2, extreme ? Byte.MIN_VALUE : (byte) (r * 37 - 100));
        row.setField(3, extreme ? Short.MAX_VALUE : (short) (r * 1000 - 3000));
        row.setField(4, extreme ? Integer.MIN_VALUE : r * 100000 - 250000);
        row.setField(5, extreme ? Long.MAX_VALUE : r * 1_000_000_000_000L - 5);
        row.setField(6, r == 4 ? Float.NaN : (r == 5 ? -0.0f : r * 1.5f - 2.25f));
        row.setField(7, extreme ? Double.MIN_VALUE : r * 2.5e100 - 1e-3);
        row.setField(8, Decimal.fromBigDecimal(extreme ? new BigDecimal("-99999999.99") : BigDecimal.valueOf(r * 12345L - 30000, 2), 10, 2));
        row.setField(9, Decimal.fromBigDecimal(extreme
                ? new BigDecimal("9999999999999999999999999999.9999999999")
                : new BigDecimal("12345678901234567890.1234567890").multiply(BigDecimal.valueOf(r - 3)), 38, 10));
        row.setField(10, BinaryString.fromString(extreme ? "x" : "ab" + r));
        row.setField(11, BinaryString.fromString(r == 3 ? "" : "row-" + r + "-\u00e9\u2713"));
        row.setField(12, new byte[] {(byte) (r + 1), (byte) 0xff, 0, (byte) 0x80});
        byte[] bytes = new byte[r == 0 ? 0 : r + 2];
        for (int k = 0; k < bytes.length; k++) {
            bytes[k] = (byte) (r * 7 + k * 31);
        }
        row.setField(13, bytes);
        row.setField(14, r * 1000 - 3000);
        int timeMillis = 3_723_456 + r * 1001; // 01:02:03.456 + r s
        for (int c = 15; c <= 18; c++) {
            row.setField(c, timeMillis);
        }
        // Row 3 is before 1970 with a whole millisecond: Fluss 0.9.1's Java Arrow reader throws
        // on pre-epoch values with a sub-millisecond part (negative nano-of-milli).
        long ms = r == 3 ? -1_000_000_000_123L : r * 31_536_000_000L + 1_000_000_000_123L;
        int nanos = r == 3 ? 0 : (extreme ? 999_999 : 456_789);
        for (int c = 19; c <= 22; c++) {
            row.setField(c, TimestampNtz.fromMillis(ms, nanos));
        }
        for (int c = 23; c <= 26; c++) {
            row.setField(c, TimestampLtz.fromEpochMillis(ms + 17, nanos));
        }
        return row;
    }

    static GenericRow nestedRow(int r) {
        GenericRow row = new GenericRow(5);
        row.setField(0, r);
        if (r == 1) {
            return row;
        }
        row.setField(1, r == 3 ? new GenericArray(new Object[0]) : new GenericArray(new Object[] {r, null, -r * 1000}));
        row.setField(2, new GenericArray(new Object[] {BinaryString.fromString("a" + r), null, BinaryString.fromString("")}));
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(BinaryString.fromString("k" + r), (long) r * 1_000_000_007L);
        if (r % 2 == 0) {
            m.put(BinaryString.fromString("n"), null);
        }
        row.setField(3, new GenericMap(m));
        row.setField(4, GenericRow.of(r == 2 ? null : r * 3, BinaryString.fromString("y" + r)));
        return row;
    }

    static List<InternalRow> rows(String schema, int from, int n) {
        List<InternalRow> out = new ArrayList<>();
        for (int r = from; r < from + n; r++) {
            out.add(schema.equals("scalars") ? scalarRow(r) : nestedRow(r));
        }
        return out;
    }

    static final ChangeType[] CHANGES = {
        ChangeType.INSERT, ChangeType.UPDATE_BEFORE, ChangeType.UPDATE_AFTER, ChangeType.DELETE
    };

    static ArrowCompressionInfo compression(String name) {
        switch (name) {
            case "none":
                return ArrowCompressionInfo.NO_COMPRESSION;
            case "lz4":
                return new ArrowCompressionInfo(ArrowCompressionType.LZ4_FRAME, -1);
            case "zstd":
                return new ArrowCompressionInfo(ArrowCompressionType.ZSTD, 3);
            default:
                throw new IllegalArgumentException(name);
        }
    }

    /** Builds one ARROW batch the way the Java writer does and sets the server-side fields. */
    static byte[] arrowBatch(String schema, List<InternalRow> rows, ArrowCompressionInfo comp, boolean appendOnly,
            byte magic, long baseOffset, long commitTs, long writerId, int seq) throws Exception {
        try (BufferAllocator allocator = new RootAllocator(Long.MAX_VALUE);
                ArrowWriterPool pool = new ArrowWriterPool(allocator)) {
            ArrowWriter writer = pool.getOrCreateWriter(1L, SCHEMA_ID, Integer.MAX_VALUE, schema(schema), comp);
            UnmanagedPagedOutputView out = new UnmanagedPagedOutputView(64 * 1024);
            MemoryLogRecordsArrowBuilder builder = magic == 0
                    ? MemoryLogRecordsArrowBuilder.builder(SCHEMA_ID, writer, out, appendOnly)
                    : MemoryLogRecordsArrowBuilder.builder(0L, magic, SCHEMA_ID, writer, out);
            for (int i = 0; i < rows.size(); i++) {
                builder.append(appendOnly ? ChangeType.APPEND_ONLY : CHANGES[i % CHANGES.length], rows.get(i));
            }
            builder.setWriterState(writerId, seq);
            builder.close();
            byte[] bytes = toBytes(builder.build().getByteBuf());
            return serverStamp(bytes, magic, baseOffset, commitTs);
        }
    }

    static byte[] indexedBatch(String schema, List<InternalRow> rows, boolean appendOnly, long baseOffset,
            long commitTs, long writerId, int seq) throws Exception {
        RowType rt = schema(schema);
        UnmanagedPagedOutputView out = new UnmanagedPagedOutputView(64 * 1024);
        MemoryLogRecordsIndexedBuilder builder = MemoryLogRecordsIndexedBuilder.builder(SCHEMA_ID, Integer.MAX_VALUE, out, appendOnly);
        RowEncoder enc = RowEncoder.create(KvFormat.INDEXED, rt);
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[rt.getFieldCount()];
        for (int c = 0; c < getters.length; c++) {
            getters[c] = InternalRow.createFieldGetter(rt.getTypeAt(c), c);
        }
        for (int i = 0; i < rows.size(); i++) {
            enc.startNewRow();
            for (int c = 0; c < getters.length; c++) {
                enc.encodeField(c, getters[c].getFieldOrNull(rows.get(i)));
            }
            IndexedRow row = (IndexedRow) enc.finishRow();
            builder.append(appendOnly ? ChangeType.APPEND_ONLY : CHANGES[i % CHANGES.length], row);
        }
        builder.setWriterState(writerId, seq);
        byte[] bytes = toBytes(builder.build().getByteBuf());
        builder.close();
        return serverStamp(bytes, (byte) 0, baseOffset, commitTs);
    }

    static byte[] toBytes(org.apache.fluss.shaded.netty4.io.netty.buffer.ByteBuf buf) {
        byte[] b = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), b);
        return b;
    }

    /** Assigns base offset and commit timestamp outside the CRC, as LogTablet does. */
    static byte[] serverStamp(byte[] bytes, byte magic, long baseOffset, long commitTs) {
        MemoryLogRecords recs = MemoryLogRecords.pointToBytes(bytes);
        for (LogRecordBatch b : recs.batches()) {
            ((DefaultLogRecordBatch) b).setBaseLogOffset(baseOffset);
            ((DefaultLogRecordBatch) b).setCommitTimestamp(commitTs);
            if (magic >= 1) {
                ((DefaultLogRecordBatch) b).setLeaderEpoch(5);
            }
            b.ensureValid();
        }
        return bytes;
    }

    static byte[] concat(byte[]... parts) {
        int n = 0;
        for (byte[] p : parts) {
            n += p.length;
        }
        ByteBuffer bb = ByteBuffer.allocate(n);
        for (byte[] p : parts) {
            bb.put(p);
        }
        return bb.array();
    }

    static final class Getter implements SchemaGetter {
        final Schema schema;

        Getter(RowType rt) {
            this.schema = Schema.newBuilder().fromRowType(rt).build();
        }

        public Schema getSchema(int id) {
            return schema;
        }

        public CompletableFuture<SchemaInfo> getSchemaInfoAsync(int id) {
            return CompletableFuture.completedFuture(new SchemaInfo(schema, SCHEMA_ID));
        }

        public SchemaInfo getLatestSchemaInfo() {
            return new SchemaInfo(schema, SCHEMA_ID);
        }

        public void release() {}
    }

    /** Projects ARROW batches exactly as the tablet server does for a pushdown fetch. */
    static byte[] project(String schema, byte[] batches, int[] fields, ArrowCompressionInfo tableComp) throws Exception {
        File tmp = File.createTempFile("javagen", ".log");
        tmp.delete();
        try {
            FileLogRecords file = FileLogRecords.open(tmp);
            file.append(MemoryLogRecords.pointToBytes(batches));
            file.flush();
            FileLogProjection p = new FileLogProjection(new ProjectionPushdownCache());
            p.setCurrentProjection(1L, new Getter(schema(schema)), tableComp, fields);
            BytesViewLogRecords out = p.project(file.channel(), 0, file.sizeInBytes(), Integer.MAX_VALUE);
            byte[] b = toBytes(out.getBytesView().getByteBuf());
            file.close();
            return b;
        } finally {
            tmp.delete();
        }
    }

    static String decode(String format, String schema, byte[] bytes, int[] projection) {
        RowType full = schema(schema);
        RowType rt = projection == null ? full : full.project(projection);
        Getter getter = new Getter(full);
        StringBuilder sb = new StringBuilder();
        LogRecordReadContext ctx = format.equals("arrow")
                ? LogRecordReadContext.createArrowReadContext(rt, SCHEMA_ID, getter, projection != null)
                : LogRecordReadContext.createIndexedReadContext(rt, SCHEMA_ID, getter);
        try {
            for (LogRecordBatch b : MemoryLogRecords.pointToBytes(bytes).batches()) {
                if (projection == null) {
                    b.ensureValid();
                }
                sb.append(String.format("batch base=%d last=%d count=%d magic=%d schema=%d writer=%d seq=%d ts=%d%n",
                        b.baseLogOffset(), b.lastLogOffset(), b.getRecordCount(), b.magic(), b.schemaId(),
                        b.writerId(), b.batchSequence(), b.commitTimestamp()));
                try (CloseableIterator<LogRecord> it = b.records(ctx)) {
                    while (it.hasNext()) {
                        LogRecord rec = it.next();
                        sb.append(rec.logOffset()).append(' ').append(rec.getChangeType().shortString()).append(' ');
                        InternalRow row = rec.getRow();
                        for (int c = 0; c < rt.getFieldCount(); c++) {
                            if (c > 0) {
                                sb.append('|');
                            }
                            sb.append(fmt(InternalRow.createFieldGetter(rt.getTypeAt(c), c).getFieldOrNull(row), rt.getTypeAt(c)));
                        }
                        sb.append('\n');
                    }
                }
            }
        } finally {
            ctx.close();
        }
        return sb.toString();
    }

    static String hex(byte[] b) {
        StringBuilder sb = new StringBuilder();
        for (byte x : b) {
            sb.append(String.format("%02x", x));
        }
        return sb.toString();
    }

    static String fmt(Object v, DataType t) {
        if (v == null) {
            return "null";
        }
        switch (t.getTypeRoot()) {
            case FLOAT:
                return String.format("%08x", Float.floatToRawIntBits((Float) v));
            case DOUBLE:
                return String.format("%016x", Double.doubleToRawLongBits((Double) v));
            case DECIMAL:
                return ((Decimal) v).toBigDecimal().unscaledValue().toString();
            case CHAR:
            case STRING:
                return hex(((BinaryString) v).toString().getBytes(StandardCharsets.UTF_8));
            case BINARY:
            case BYTES:
                return hex((byte[]) v);
            case TIMESTAMP_WITHOUT_TIME_ZONE: {
                TimestampNtz ts = (TimestampNtz) v;
                return Long.toString(ts.getMillisecond() * 1_000_000L + ts.getNanoOfMillisecond());
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                TimestampLtz ts = (TimestampLtz) v;
                return Long.toString(ts.getEpochMillisecond() * 1_000_000L + ts.getNanoOfMillisecond());
            }
            case ARRAY: {
                DataType et = ((ArrayType) t).getElementType();
                return "[" + fmtArray((InternalArray) v, et) + "]";
            }
            case MAP: {
                MapType mt = (MapType) t;
                InternalMap m = (InternalMap) v;
                InternalArray ks = m.keyArray();
                InternalArray vs = m.valueArray();
                InternalArray.ElementGetter kg = InternalArray.createElementGetter(mt.getKeyType());
                InternalArray.ElementGetter vg = InternalArray.createElementGetter(mt.getValueType());
                StringBuilder sb = new StringBuilder("{");
                for (int i = 0; i < m.size(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    sb.append(fmt(kg.getElementOrNull(ks, i), mt.getKeyType())).append('=')
                            .append(fmt(vg.getElementOrNull(vs, i), mt.getValueType()));
                }
                return sb.append('}').toString();
            }
            case ROW: {
                RowType rt = (RowType) t;
                InternalRow r = (InternalRow) v;
                StringBuilder sb = new StringBuilder("(");
                for (int i = 0; i < rt.getFieldCount(); i++) {
                    if (i > 0) {
                        sb.append(',');
                    }
                    sb.append(fmt(InternalRow.createFieldGetter(rt.getTypeAt(i), i).getFieldOrNull(r), rt.getTypeAt(i)));
                }
                return sb.append(')').toString();
            }
            default:
                return v.toString();
        }
    }

    static String fmtArray(InternalArray a, DataType et) {
        InternalArray.ElementGetter g = InternalArray.createElementGetter(et);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < a.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(fmt(g.getElementOrNull(a, i), et));
        }
        return sb.toString();
    }

    static void write(File dir, String name, byte[] bin, String format, String schema, int[] projection) throws Exception {
        Files.write(new File(dir, name + ".bin").toPath(), bin);
        Files.write(new File(dir, name + ".txt").toPath(), decode(format, schema, bin, projection).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Writes an INDEXED golden plus "<name>.arrow.txt": the same rows and header values sent
     * through the ARROW writer and reader, i.e. the Arrow shape (units by precision) that the Go
     * INDEXED decoder produces.
     */
    static void writeIndexed(File dir, String name, List<InternalRow> rows, boolean appendOnly, long base, long ts,
            long writerId, int seq) throws Exception {
        write(dir, name, indexedBatch("scalars", rows, appendOnly, base, ts, writerId, seq), "indexed", "scalars", null);
        byte[] arrow = arrowBatch("scalars", rows, ArrowCompressionInfo.NO_COMPRESSION, appendOnly, (byte) 0, base, ts,
                writerId, seq);
        Files.write(new File(dir, name + ".arrow.txt").toPath(),
                decode("arrow", "scalars", arrow, null).getBytes(StandardCharsets.UTF_8));
    }

    static void gen(File dir) throws Exception {
        long ts = 1_700_000_000_123L;
        for (String c : new String[] {"none", "lz4", "zstd"}) {
            ArrowCompressionInfo comp = compression(c);
            write(dir, "arrow_scalars_" + c,
                    arrowBatch("scalars", rows("scalars", 0, 6), comp, true, (byte) 0, 100, ts, 42, 7), "arrow", "scalars", null);
            write(dir, "arrow_nested_" + c,
                    arrowBatch("nested", rows("nested", 0, 5), comp, true, (byte) 0, 0, ts, -1, -1), "arrow", "nested", null);
        }
        write(dir, "arrow_changelog_zstd",
                arrowBatch("scalars", rows("scalars", 0, 6), compression("zstd"), false, (byte) 0, 7, ts, 3, 0), "arrow", "scalars", null);
        write(dir, "arrow_v1_lz4",
                arrowBatch("scalars", rows("scalars", 0, 4), compression("lz4"), false, (byte) 1, 9, ts, 11, 2), "arrow", "scalars", null);
        write(dir, "arrow_empty",
                arrowBatch("scalars", rows("scalars", 0, 0), compression("zstd"), true, (byte) 0, 5, ts, -1, -1), "arrow", "scalars", null);
        // Three batches in a row, as a fetch returns them.
        byte[] multi = concat(
                arrowBatch("scalars", rows("scalars", 0, 3), compression("zstd"), true, (byte) 0, 0, ts, 42, 0),
                arrowBatch("scalars", rows("scalars", 3, 2), compression("zstd"), true, (byte) 0, 3, ts + 1, 42, 1),
                arrowBatch("scalars", rows("scalars", 5, 1), compression("zstd"), true, (byte) 0, 5, ts + 2, 42, 2));
        write(dir, "arrow_multi_zstd", multi, "arrow", "scalars", null);
        int[] fields = {0, 4, 11, 21};
        write(dir, "arrow_projected_zstd", project("scalars", multi, fields, compression("zstd")), "arrow", "scalars", fields);
        writeIndexed(dir, "indexed_scalars", rows("scalars", 0, 6), true, 200, ts, 42, 3);
        writeIndexed(dir, "indexed_changelog", rows("scalars", 0, 5), false, 0, ts, -1, -1);
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("gen")) {
            File dir = new File(args[1]);
            dir.mkdirs();
            gen(dir);
            return;
        }
        if (args.length >= 4 && args[0].equals("decode")) {
            int[] projection = null;
            if (args.length >= 5) {
                String[] parts = args[4].split(",");
                projection = new int[parts.length];
                for (int i = 0; i < parts.length; i++) {
                    projection[i] = Integer.parseInt(parts[i]);
                }
            }
            byte[] bytes = Files.readAllBytes(new File(args[3]).toPath());
            System.out.print(decode(args[1], args[2], bytes, projection));
            return;
        }
        System.err.println("usage: gen <dir> | decode <arrow|indexed> <scalars|nested> <file> [projection]");
        System.exit(2);
    }
}
