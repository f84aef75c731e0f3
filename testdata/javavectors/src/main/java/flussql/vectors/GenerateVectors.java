/*
 * flussql test-vector generator (our own code). It runs the real Fluss 0.9.1-incubating classes
 * from Maven Central on a fixed set of schemas and values and prints JSON vectors that the Go
 * table tests compare byte for byte. See README.md next to pom.xml.
 */
package flussql.vectors;

import org.apache.fluss.bucketing.FlussBucketingFunction;
import org.apache.fluss.client.table.getter.PartitionGetter;
import org.apache.fluss.memory.UnmanagedPagedOutputView;
import org.apache.fluss.metadata.KvFormat;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.record.DefaultValueRecordBatch;
import org.apache.fluss.record.KvRecordBatchBuilder;
import org.apache.fluss.record.bytesview.BytesView;
import org.apache.fluss.row.BinaryRow;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.Decimal;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.InternalArray;
import org.apache.fluss.row.InternalMap;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.row.encode.CompactedKeyEncoder;
import org.apache.fluss.row.encode.KeyEncoder;
import org.apache.fluss.row.encode.RowEncoder;
import org.apache.fluss.row.encode.ValueEncoder;
import org.apache.fluss.types.ArrayType;
import org.apache.fluss.types.DataField;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypeChecks;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.MapType;
import org.apache.fluss.types.RowType;
import org.apache.fluss.utils.MurmurHashUtils;
import org.apache.fluss.utils.PartitionUtils;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Prints vectors.json to stdout. */
public final class GenerateVectors {

    static final int[] BUCKET_COUNTS = {1, 3, 4, 16, 128};

    public static void main(String[] args) throws Exception {
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        StringBuilder sb = new StringBuilder();
        sb.append("{\n\"fluss_version\": \"0.9.1-incubating\",\n");
        sb.append("\"java_version\": ").append(str(System.getProperty("java.version"))).append(",\n");
        sb.append("\"hashes\": [\n").append(hashes()).append("\n],\n");
        sb.append("\"keys\": [\n").append(keys()).append("\n],\n");
        sb.append("\"rows\": [\n").append(rows()).append("\n],\n");
        sb.append("\"tables\": [\n").append(tables()).append("\n],\n");
        sb.append("\"kv_batches\": [\n").append(kvBatches()).append("\n],\n");
        sb.append("\"value_batches\": [\n").append(valueBatches()).append("\n],\n");
        sb.append("\"partition_values\": [\n").append(partitionValues()).append("\n],\n");
        sb.append("\"lake_keys\": [\n").append(LakeCases.lakeKeys()).append("\n],\n");
        sb.append("\"lake_tables\": [\n").append(LakeCases.lakeTables()).append("\n]\n}\n");
        out.print(sb);
    }

    // ------------------------------------------------------------------ raw murmur hash

    private static String hashes() {
        List<String> out = new ArrayList<>();
        List<byte[]> inputs = new ArrayList<>();
        for (int n = 1; n <= 9; n++) {
            byte[] b = new byte[n];
            for (int i = 0; i < n; i++) {
                b[i] = (byte) (0x7d + 17 * i); // crosses 0x80 so tails are sign-extended
            }
            inputs.add(b);
        }
        inputs.add(new byte[] {(byte) 0x80});
        inputs.add(new byte[] {(byte) 0xff, (byte) 0xfe});
        inputs.add("2bb87d68-baf9-4e64-90f9-f80910419fa6".getBytes(StandardCharsets.UTF_8));
        for (byte[] b : inputs) {
            int hash = MurmurHashUtils.hashBytes(b);
            StringBuilder s = new StringBuilder();
            s.append("{\"bytes\": ").append(str(hex(b))).append(", \"hash\": ").append(hash);
            s.append(", \"buckets\": ").append(buckets(b)).append("}");
            out.add(s.toString());
        }
        return String.join(",\n", out);
    }

    private static String buckets(byte[] key) {
        StringBuilder s = new StringBuilder("{");
        for (int i = 0; i < BUCKET_COUNTS.length; i++) {
            if (i > 0) {
                s.append(", ");
            }
            int n = BUCKET_COUNTS[i];
            s.append('"').append(n).append("\": ")
                    .append(FlussBucketingFunction.bucketForRowKey(key, n));
        }
        return s.append("}").toString();
    }

    // ------------------------------------------------------------------ keys

    static final class Case {
        final String name;
        final DataType[] types;
        final Object[] values;

        Case(String name, DataType[] types, Object... values) {
            this.name = name;
            this.types = types;
            this.values = values;
        }
    }

    static DataType[] t(DataType... types) {
        return types;
    }

    static List<Case> keyCases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("bool_true", t(DataTypes.BOOLEAN()), true));
        c.add(new Case("bool_false", t(DataTypes.BOOLEAN()), false));
        for (byte v : new byte[] {Byte.MIN_VALUE, -1, 0, 1, Byte.MAX_VALUE}) {
            c.add(new Case("tinyint_" + v, t(DataTypes.TINYINT()), v));
        }
        for (short v : new short[] {Short.MIN_VALUE, -1, 0, 1, 200, Short.MAX_VALUE}) {
            c.add(new Case("smallint_" + v, t(DataTypes.SMALLINT()), v));
        }
        for (int v :
                new int[] {
                    Integer.MIN_VALUE, -129, -1, 0, 1, 127, 128, 200, 16383, 16384, 2097152,
                    268435456, Integer.MAX_VALUE
                }) {
            c.add(new Case("int_" + v, t(DataTypes.INT()), v));
        }
        for (long v :
                new long[] {
                    Long.MIN_VALUE, -1L, 0L, 1L, 300L, 1L << 35, 1L << 62, Long.MAX_VALUE
                }) {
            c.add(new Case("bigint_" + v, t(DataTypes.BIGINT()), v));
        }
        float[] floats = {
            0f, -0f, 1.5f, -3.25f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.MIN_VALUE, Float.MAX_VALUE
        };
        for (int i = 0; i < floats.length; i++) {
            c.add(new Case("float_" + i, t(DataTypes.FLOAT()), floats[i]));
        }
        double[] doubles = {
            0d, -0d, 1.5d, -1e300, Double.NaN, Double.POSITIVE_INFINITY, Double.MIN_VALUE, Math.PI
        };
        for (int i = 0; i < doubles.length; i++) {
            c.add(new Case("double_" + i, t(DataTypes.DOUBLE()), doubles[i]));
        }
        c.add(new Case("decimal_10_2_pos", t(DataTypes.DECIMAL(10, 2)), dec("123.45", 10, 2)));
        c.add(new Case("decimal_10_2_neg", t(DataTypes.DECIMAL(10, 2)), dec("-0.01", 10, 2)));
        c.add(new Case("decimal_10_2_zero", t(DataTypes.DECIMAL(10, 2)), dec("0.00", 10, 2)));
        c.add(new Case("decimal_18_0_max", t(DataTypes.DECIMAL(18, 0)),
                dec("999999999999999999", 18, 0)));
        c.add(new Case("decimal_18_4_min", t(DataTypes.DECIMAL(18, 4)),
                dec("-99999999999999.9999", 18, 4)));
        c.add(new Case("decimal_19_0", t(DataTypes.DECIMAL(19, 0)),
                dec("9223372036854775808", 19, 0)));
        c.add(new Case("decimal_38_10_pos", t(DataTypes.DECIMAL(38, 10)),
                dec("1234567890123456789012345678.0123456789", 38, 10)));
        c.add(new Case("decimal_38_10_neg", t(DataTypes.DECIMAL(38, 10)),
                dec("-0.0000000001", 38, 10)));
        c.add(new Case("decimal_38_0_zero", t(DataTypes.DECIMAL(38, 0)), dec("0", 38, 0)));
        c.add(new Case("decimal_20_2_128", t(DataTypes.DECIMAL(20, 2)), dec("1.28", 20, 2)));
        c.add(new Case("decimal_20_2_m129", t(DataTypes.DECIMAL(20, 2)), dec("-1.29", 20, 2)));
        c.add(new Case("char_5", t(DataTypes.CHAR(5)), s("abc")));
        for (String v :
                new String[] {
                    "", "a", "hello", "\u00e9", "\u65e5\u672c\u8a9e", "\ud83d\ude00 emoji",
                    repeat("x", 130)
                }) {
            c.add(new Case("string_" + c.size(), t(DataTypes.STRING()), s(v)));
        }
        c.add(new Case("binary_4", t(DataTypes.BINARY(4)), new byte[] {0, (byte) 0xff, 1, 2}));
        c.add(new Case("bytes_empty", t(DataTypes.BYTES()), new byte[0]));
        c.add(new Case("bytes_hi", t(DataTypes.BYTES()), new byte[] {(byte) 0x80, 0, (byte) 0xfe}));
        for (int v : new int[] {-719162, -1, 0, 19000, 2932896}) {
            c.add(new Case("date_" + v, t(DataTypes.DATE()), v));
        }
        c.add(new Case("time0_0", t(DataTypes.TIME(0)), 0));
        c.add(new Case("time3_max", t(DataTypes.TIME(3)), 86399999));
        c.add(new Case("time9", t(DataTypes.TIME(9)), 45296789));
        c.add(new Case("ts0", t(DataTypes.TIMESTAMP(0)), TimestampNtz.fromMillis(1700000000000L)));
        c.add(new Case("ts3_neg", t(DataTypes.TIMESTAMP(3)), TimestampNtz.fromMillis(-1L)));
        c.add(new Case("ts6", t(DataTypes.TIMESTAMP(6)),
                TimestampNtz.fromMillis(1700000000123L, 456000)));
        c.add(new Case("ts9", t(DataTypes.TIMESTAMP(9)),
                TimestampNtz.fromMillis(-86400001L, 999999)));
        c.add(new Case("ts9_zero_nanos", t(DataTypes.TIMESTAMP(9)), TimestampNtz.fromMillis(5L, 0)));
        c.add(new Case("ltz3", t(DataTypes.TIMESTAMP_LTZ(3)),
                TimestampLtz.fromEpochMillis(1700000000000L)));
        c.add(new Case("ltz6", t(DataTypes.TIMESTAMP_LTZ(6)),
                TimestampLtz.fromEpochMillis(1700000000123L, 456000)));
        c.add(new Case("ltz9_neg", t(DataTypes.TIMESTAMP_LTZ(9)),
                TimestampLtz.fromEpochMillis(-1L, 1)));
        c.add(new Case("multi_int_bigint_int", t(DataTypes.INT(), DataTypes.BIGINT(), DataTypes.INT()),
                1, 3L, 2));
        c.add(new Case("multi_int_string_bigint",
                t(DataTypes.INT(), DataTypes.STRING(), DataTypes.BIGINT()), -5, s("k\u00e9y"), -7L));
        c.add(new Case("multi_string_ts6_dec20",
                t(DataTypes.STRING(), DataTypes.TIMESTAMP(6), DataTypes.DECIMAL(20, 3)),
                s("order-42"), TimestampNtz.fromMillis(1234567890123L, 1000),
                dec("-12345678901234567.891", 20, 3)));
        c.add(new Case("multi_all_small",
                t(DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.SMALLINT(), DataTypes.DATE(),
                        DataTypes.TIME(3), DataTypes.FLOAT(), DataTypes.DOUBLE(), DataTypes.BYTES(),
                        DataTypes.BINARY(2), DataTypes.CHAR(3), DataTypes.TIMESTAMP_LTZ(9)),
                true, (byte) -2, (short) 300, 19723, 3723004, 2.5f, -0.125d,
                new byte[] {9, 8}, new byte[] {(byte) 0xaa, (byte) 0xbb}, s("xyz"),
                TimestampLtz.fromEpochMillis(1704067200000L, 123456)));
        return c;
    }

    private static String keys() {
        List<String> out = new ArrayList<>();
        for (Case kc : keyCases()) {
            RowType rowType = DataTypes.ROW(kc.types);
            byte[] key = new CompactedKeyEncoder(rowType).encodeKey(GenericRow.of(kc.values));
            StringBuilder s = new StringBuilder();
            s.append("{\"name\": ").append(str(kc.name));
            s.append(", \"types\": ").append(typesJson(kc.types));
            s.append(", \"values\": ").append(valuesJson(kc.types, kc.values));
            s.append(", \"key\": ").append(str(hex(key)));
            s.append(", \"hash\": ").append(MurmurHashUtils.hashBytes(key));
            s.append(", \"buckets\": ").append(buckets(key)).append("}");
            out.add(s.toString());
        }
        return String.join(",\n", out);
    }

    // ------------------------------------------------------------------ rows

    private static List<Case> rowCases() {
        List<Case> c = new ArrayList<>();
        DataType[] all =
                t(
                        DataTypes.BOOLEAN(), DataTypes.TINYINT(), DataTypes.SMALLINT(),
                        DataTypes.INT(), DataTypes.BIGINT(), DataTypes.FLOAT(), DataTypes.DOUBLE(),
                        DataTypes.DECIMAL(10, 2), DataTypes.DECIMAL(38, 6), DataTypes.CHAR(4),
                        DataTypes.STRING(), DataTypes.BINARY(3), DataTypes.BYTES(), DataTypes.DATE(),
                        DataTypes.TIME(3), DataTypes.TIMESTAMP(3), DataTypes.TIMESTAMP(9),
                        DataTypes.TIMESTAMP_LTZ(0), DataTypes.TIMESTAMP_LTZ(6));
        c.add(new Case("all_types", all,
                true, (byte) 7, (short) -300, -123456, 9876543210L, 3.5f, -2.25d,
                dec("-1234.56", 10, 2), dec("-98765432109876543210.123456", 38, 6), s("ab"),
                s("h\u00e9llo \u4e16\u754c"), new byte[] {1, 0, 2}, new byte[] {(byte) 0xde, (byte) 0xad},
                -1, 61200500, TimestampNtz.fromMillis(-1000L),
                TimestampNtz.fromMillis(1700000000999L, 999999),
                TimestampLtz.fromEpochMillis(1700000000000L),
                TimestampLtz.fromEpochMillis(-1L, 500000)));
        Object[] nulls = new Object[all.length];
        c.add(new Case("all_null", all, nulls));
        Object[] mixed = new Object[all.length];
        mixed[0] = false;
        mixed[3] = Integer.MIN_VALUE;
        mixed[8] = dec("0", 38, 6);
        mixed[10] = s("");
        mixed[12] = new byte[0];
        mixed[16] = TimestampNtz.fromMillis(0L, 1);
        c.add(new Case("mixed_nulls", all, mixed));
        c.add(new Case("pk_row",
                t(DataTypes.INT().copy(false), DataTypes.STRING(), DataTypes.BIGINT()),
                1, s("a"), null));
        DataType nested =
                DataTypes.ROW(
                        DataTypes.FIELD("x", DataTypes.INT()),
                        DataTypes.FIELD("y", DataTypes.STRING()),
                        DataTypes.FIELD("z", DataTypes.ROW(DataTypes.FIELD("w", DataTypes.BIGINT()))));
        c.add(new Case("nested_row", t(DataTypes.INT(), nested, nested),
                42, GenericRow.of(-1, s("in"), GenericRow.of(5L)), GenericRow.of(null, null, null)));
        ComplexCases.addRowCases(c);
        return c;
    }

    private static String rows() throws Exception {
        List<String> out = new ArrayList<>();
        for (Case rc : rowCases()) {
            StringBuilder s = new StringBuilder();
            s.append("{\"name\": ").append(str(rc.name));
            s.append(", \"types\": ").append(typesJson(rc.types));
            s.append(", \"values\": ").append(valuesJson(rc.types, rc.values));
            s.append(", \"compacted\": ")
                    .append(str(hex(encodeRow(KvFormat.COMPACTED, rc.types, rc.values))));
            s.append(", \"indexed\": ")
                    .append(str(hex(encodeRow(KvFormat.INDEXED, rc.types, rc.values))));
            s.append("}");
            out.add(s.toString());
        }
        return String.join(",\n", out);
    }

    private static BinaryRow encodeRowObj(KvFormat format, DataType[] types, Object[] values)
            throws Exception {
        RowEncoder enc = RowEncoder.create(format, types);
        enc.startNewRow();
        for (int i = 0; i < types.length; i++) {
            enc.encodeField(i, values[i]);
        }
        return enc.finishRow();
    }

    private static byte[] encodeRow(KvFormat format, DataType[] types, Object[] values)
            throws Exception {
        BinaryRow row = encodeRowObj(format, types, values);
        byte[] b = new byte[row.getSizeInBytes()];
        row.copyTo(b, 0);
        return b;
    }

    // ------------------------------------------------------------------ tables

    private static String tables() throws Exception {
        List<String> out = new ArrayList<>();
        // PK (region, id, dt), partitioned by (region, dt) -> physical PK (id), bucket key (id).
        Schema s1 =
                Schema.newBuilder()
                        .column("region", DataTypes.STRING())
                        .column("id", DataTypes.BIGINT())
                        .column("name", DataTypes.STRING())
                        .column("dt", DataTypes.DATE())
                        .column("amount", DataTypes.DECIMAL(10, 2))
                        .primaryKey("region", "id", "dt")
                        .build();
        out.add(table("partitioned_two_keys", s1, Arrays.asList("region", "dt"), null, 4,
                new Object[][] {
                    {s("eu"), 1L, s("alice"), 19723, dec("10.50", 10, 2)},
                    {s("us-west"), -9L, null, -1, null},
                    {s("\u00e9"), 200L, s(""), 0, dec("-0.01", 10, 2)},
                }));
        // PK (a, b, c) with bucket key (a): prefix-lookup table.
        Schema s2 =
                Schema.newBuilder()
                        .column("a", DataTypes.INT())
                        .column("b", DataTypes.STRING())
                        .column("c", DataTypes.TIMESTAMP(6))
                        .column("v", DataTypes.DOUBLE())
                        .primaryKey("a", "b", "c")
                        .build();
        out.add(table("bucket_key_prefix", s2, new ArrayList<>(), Arrays.asList("a"), 16,
                new Object[][] {
                    {7, s("x"), TimestampNtz.fromMillis(1000L, 5), 1.0d},
                    {-7, s("y\u00fc"), TimestampNtz.fromMillis(-1000L, 0), null},
                }));
        // Partitioned by (p) with a tinyint + timestamp_ltz key.
        Schema s3 =
                Schema.newBuilder()
                        .column("p", DataTypes.TIMESTAMP_LTZ(9))
                        .column("k1", DataTypes.TINYINT())
                        .column("k2", DataTypes.CHAR(2))
                        .column("v", DataTypes.BYTES())
                        .primaryKey("k1", "p", "k2")
                        .build();
        out.add(table("partitioned_ltz", s3, Arrays.asList("p"), null, 3,
                new Object[][] {
                    {TimestampLtz.fromEpochMillis(1748662955428L, 99988), (byte) -1, s("ok"),
                        new byte[] {1}},
                    {TimestampLtz.fromEpochMillis(0L, 0), (byte) 100, s(""), null},
                }));
        return String.join(",\n", out);
    }

    private static String table(
            String name,
            Schema schema,
            List<String> partitionKeys,
            List<String> bucketKeys,
            int numBuckets,
            Object[][] rows)
            throws Exception {
        TableDescriptor.Builder b =
                TableDescriptor.builder()
                        .schema(schema)
                        .partitionedBy(partitionKeys)
                        .property("table.kv.format-version", "2");
        if (bucketKeys == null) {
            b.distributedBy(numBuckets);
        } else {
            b.distributedBy(numBuckets, bucketKeys.toArray(new String[0]));
        }
        TableInfo info = TableInfo.of(TablePath.of("fluss", name), 1L, 1, b.build(), 0L, 0L);
        RowType rowType = info.getRowType();
        DataType[] types = rowType.getChildren().toArray(new DataType[0]);
        // what fluss-client's UpsertWriterImpl and PrimaryKeyLookuper do
        KeyEncoder pkEncoder =
                KeyEncoder.ofPrimaryKeyEncoder(
                        rowType, info.getPhysicalPrimaryKeys(), info.getTableConfig(),
                        info.isDefaultBucketKey());
        KeyEncoder bkEncoder =
                info.isDefaultBucketKey()
                        ? pkEncoder
                        : KeyEncoder.ofBucketKeyEncoder(rowType, info.getBucketKeys(), null);
        PartitionGetter partitionGetter =
                info.isPartitioned() ? new PartitionGetter(rowType, info.getPartitionKeys()) : null;

        StringBuilder s = new StringBuilder();
        s.append("{\"name\": ").append(str(name));
        s.append(", \"columns\": [");
        List<DataField> fields = rowType.getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append("{\"name\": ").append(str(fields.get(i).getName()));
            s.append(", \"type\": ").append(typeJson(fields.get(i).getType())).append("}");
        }
        s.append("], \"primary_key\": ").append(strList(info.getPrimaryKeys()));
        s.append(", \"partition_keys\": ").append(strList(info.getPartitionKeys()));
        s.append(", \"bucket_keys\": ").append(strList(info.getBucketKeys()));
        s.append(", \"physical_primary_key\": ").append(strList(info.getPhysicalPrimaryKeys()));
        s.append(", \"num_buckets\": ").append(numBuckets);
        s.append(", \"rows\": [");
        for (int r = 0; r < rows.length; r++) {
            GenericRow row = GenericRow.of(rows[r]);
            byte[] pk = pkEncoder.encodeKey(row);
            byte[] bk = bkEncoder.encodeKey(row);
            if (r > 0) {
                s.append(",");
            }
            s.append("\n  {\"values\": ").append(valuesJson(types, rows[r]));
            s.append(", \"key\": ").append(str(hex(pk)));
            s.append(", \"bucket_key\": ").append(str(hex(bk)));
            s.append(", \"bucket\": ")
                    .append(FlussBucketingFunction.bucketForRowKey(bk, numBuckets));
            s.append(", \"partition\": ")
                    .append(partitionGetter == null ? "null" : str(partitionGetter.getPartition(row)));
            s.append(", \"value\": ")
                    .append(str(hex(encodeRow(KvFormat.COMPACTED, types, rows[r]))));
            s.append("}");
        }
        s.append("]}");
        return s.toString();
    }

    // ------------------------------------------------------------------ KV and value batches

    private static String kvBatches() throws Exception {
        List<String> out = new ArrayList<>();
        DataType[] types = t(DataTypes.INT().copy(false), DataTypes.STRING(), DataTypes.BIGINT());
        Object[][] recs = {{1, s("a"), 10L}, {2, null, null}, {300, s("\u00e9t\u00e9"), -1L}};
        boolean[] deletes = {false, true, false};
        for (KvFormat format : new KvFormat[] {KvFormat.COMPACTED, KvFormat.INDEXED}) {
            for (long[] ws : new long[][] {{-1L, -1L}, {12345L, 0L}, {Long.MAX_VALUE, 7L}}) {
                int schemaId = ws[0] == -1L ? 1 : 3;
                KvRecordBatchBuilder builder =
                        KvRecordBatchBuilder.builder(
                                schemaId, Integer.MAX_VALUE, new UnmanagedPagedOutputView(64), format);
                if (ws[0] != -1L) {
                    builder.setWriterState(ws[0], (int) ws[1]);
                }
                StringBuilder s = new StringBuilder();
                s.append("{\"format\": ").append(str(format.name()));
                s.append(", \"schema_id\": ").append(schemaId);
                s.append(", \"writer_id\": ").append(str(Long.toString(ws[0])));
                s.append(", \"batch_sequence\": ").append(ws[0] == -1L ? -1 : ws[1]);
                s.append(", \"types\": ").append(typesJson(types));
                s.append(", \"records\": [");
                for (int i = 0; i < recs.length; i++) {
                    byte[] key =
                            new CompactedKeyEncoder(DataTypes.ROW(types), new int[] {0})
                                    .encodeKey(GenericRow.of(recs[i]));
                    BinaryRow value = deletes[i] ? null : encodeRowObj(format, types, recs[i]);
                    builder.append(key, value);
                    if (i > 0) {
                        s.append(", ");
                    }
                    s.append("{\"key\": ").append(str(hex(key)));
                    s.append(", \"values\": ")
                            .append(deletes[i] ? "null" : valuesJson(types, recs[i]));
                    s.append(", \"value\": ")
                            .append(deletes[i] ? "null" : str(hex(rowBytes(value)))).append("}");
                }
                BytesView built = builder.build();
                byte[] batch = new byte[built.getBytesLength()];
                built.getByteBuf().getBytes(0, batch);
                s.append("], \"batch\": ").append(str(hex(batch))).append("}");
                out.add(s.toString());
            }
        }
        // an empty batch
        KvRecordBatchBuilder empty =
                KvRecordBatchBuilder.builder(
                        2, Integer.MAX_VALUE, new UnmanagedPagedOutputView(64), KvFormat.COMPACTED);
        BytesView built = empty.build();
        byte[] batch = new byte[built.getBytesLength()];
        built.getByteBuf().getBytes(0, batch);
        out.add("{\"format\": \"COMPACTED\", \"schema_id\": 2, \"writer_id\": \"-1\", "
                + "\"batch_sequence\": -1, \"types\": " + typesJson(types)
                + ", \"records\": [], \"batch\": " + str(hex(batch)) + "}");
        return String.join(",\n", out);
    }

    private static byte[] rowBytes(BinaryRow row) {
        byte[] b = new byte[row.getSizeInBytes()];
        row.copyTo(b, 0);
        return b;
    }

    private static String valueBatches() throws Exception {
        DataType[] types = t(DataTypes.INT().copy(false), DataTypes.STRING(), DataTypes.BIGINT());
        Object[][] recs = {{1, s("a"), 10L}, {2, null, null}};
        short[] schemaIds = {1, 2};
        DefaultValueRecordBatch.Builder builder = DefaultValueRecordBatch.builder();
        StringBuilder s = new StringBuilder("{\"format\": \"COMPACTED\", \"types\": ");
        s.append(typesJson(types)).append(", \"records\": [");
        for (int i = 0; i < recs.length; i++) {
            BinaryRow row = encodeRowObj(KvFormat.COMPACTED, types, recs[i]);
            builder.append(schemaIds[i], row);
            if (i > 0) {
                s.append(", ");
            }
            s.append("{\"schema_id\": ").append(schemaIds[i]);
            s.append(", \"values\": ").append(valuesJson(types, recs[i]));
            s.append(", \"lookup_value\": ")
                    .append(str(hex(ValueEncoder.encodeValue(schemaIds[i], row)))).append("}");
        }
        DefaultValueRecordBatch batch = builder.build();
        byte[] b = new byte[batch.sizeInBytes()];
        batch.getSegment().get(batch.getPosition(), b, 0, b.length);
        s.append("], \"batch\": ").append(str(hex(b))).append("}");
        return s.toString();
    }

    // ------------------------------------------------------------------ partition values

    private static String partitionValues() {
        List<String> out = new ArrayList<>();
        Object[][] cases = {
            {DataTypes.STRING(), s("20240101")},
            {DataTypes.CHAR(3), s("abc")},
            {DataTypes.BOOLEAN(), true},
            {DataTypes.BOOLEAN(), false},
            {DataTypes.TINYINT(), (byte) -128},
            {DataTypes.SMALLINT(), (short) 32767},
            {DataTypes.INT(), -42},
            {DataTypes.BIGINT(), Long.MIN_VALUE},
            {DataTypes.BYTES(), new byte[] {0, 15, (byte) 0xab, (byte) 0xff}},
            {DataTypes.BINARY(2), new byte[] {1, 2}},
            {DataTypes.DATE(), 0},
            {DataTypes.DATE(), 20239},
            {DataTypes.DATE(), -1},
            {DataTypes.DATE(), -719528},
            {DataTypes.DATE(), 2932896},
            {DataTypes.TIME(3), 0},
            {DataTypes.TIME(3), 7322199},
            {DataTypes.TIME(3), 86399999},
            {DataTypes.FLOAT(), 5.73f},
            {DataTypes.FLOAT(), -0.0f},
            {DataTypes.FLOAT(), 100f},
            {DataTypes.FLOAT(), 1.0e7f},
            {DataTypes.FLOAT(), 1.0e-3f},
            {DataTypes.FLOAT(), 9.99e-4f},
            {DataTypes.FLOAT(), 1.17549435E-38f},
            {DataTypes.FLOAT(), 3.4028235e38f},
            {DataTypes.FLOAT(), Float.NaN},
            {DataTypes.FLOAT(), Float.NEGATIVE_INFINITY},
            {DataTypes.DOUBLE(), 5.73d},
            {DataTypes.DOUBLE(), 0.1d + 0.2d},
            {DataTypes.DOUBLE(), 1234567.0d},
            {DataTypes.DOUBLE(), 12345678.9d},
            {DataTypes.DOUBLE(), -1.5e-10d},
            {DataTypes.DOUBLE(), 1e21d},
            {DataTypes.DOUBLE(), Double.MIN_VALUE},
            {DataTypes.DOUBLE(), Double.POSITIVE_INFINITY},
            {DataTypes.TIMESTAMP(3), TimestampNtz.fromMillis(1748662955000L)},
            {DataTypes.TIMESTAMP(3), TimestampNtz.fromMillis(1748662955428L)},
            {DataTypes.TIMESTAMP(9), TimestampNtz.fromMillis(1748662955428L, 99988)},
            {DataTypes.TIMESTAMP(9), TimestampNtz.fromMillis(1748662955000L, 99988)},
            {DataTypes.TIMESTAMP(6), TimestampNtz.fromMillis(-1L, 0)},
            {DataTypes.TIMESTAMP(3), TimestampNtz.fromMillis(0L)},
            {DataTypes.TIMESTAMP_LTZ(9), TimestampLtz.fromEpochMillis(1748662955428L, 99988)},
            {DataTypes.TIMESTAMP_LTZ(3), TimestampLtz.fromEpochMillis(-62135596800000L)},
        };
        for (Object[] c : cases) {
            DataType type = (DataType) c[0];
            String name = PartitionUtils.convertValueOfType(c[1], type.getTypeRoot());
            out.add("{\"type\": " + typeJson(type) + ", \"value\": "
                    + valueJson(type, c[1]) + ", \"name\": " + str(name) + "}");
        }
        return String.join(",\n", out);
    }

    // ------------------------------------------------------------------ JSON helpers

    static Decimal dec(String v, int p, int s) {
        return Decimal.fromBigDecimal(new BigDecimal(v), p, s);
    }

    static BinaryString s(String v) {
        return BinaryString.fromString(v);
    }

    static String repeat(String s, int n) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(s);
        }
        return b.toString();
    }

    static String typesJson(DataType[] types) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append(typeJson(types[i]));
        }
        return s.append("]").toString();
    }

    /** Type as {"root": DataTypeRoot name, params..., "nullable": bool}. */
    private static String typeJson(DataType type) {
        StringBuilder s = new StringBuilder("{\"root\": ").append(str(type.getTypeRoot().name()));
        switch (type.getTypeRoot()) {
            case CHAR:
            case BINARY:
                s.append(", \"length\": ").append(DataTypeChecks.getLength(type));
                break;
            case DECIMAL:
                s.append(", \"precision\": ").append(DataTypeChecks.getPrecision(type));
                s.append(", \"scale\": ").append(DataTypeChecks.getScale(type));
                break;
            case TIME_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                s.append(", \"precision\": ").append(DataTypeChecks.getPrecision(type));
                break;
            case ARRAY:
                s.append(", \"element\": ").append(typeJson(((ArrayType) type).getElementType()));
                break;
            case MAP:
                s.append(", \"key\": ").append(typeJson(((MapType) type).getKeyType()));
                s.append(", \"value\": ").append(typeJson(((MapType) type).getValueType()));
                break;
            case ROW:
                s.append(", \"fields\": [");
                List<DataField> fields = ((RowType) type).getFields();
                for (int i = 0; i < fields.size(); i++) {
                    if (i > 0) {
                        s.append(", ");
                    }
                    s.append("{\"name\": ").append(str(fields.get(i).getName()));
                    s.append(", \"type\": ").append(typeJson(fields.get(i).getType())).append("}");
                }
                s.append("]");
                break;
            default:
                break;
        }
        return s.append(", \"nullable\": ").append(type.isNullable()).append("}").toString();
    }

    static String valuesJson(DataType[] types, Object[] values) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < types.length; i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append(valueJson(types[i], values[i]));
        }
        return s.append("]").toString();
    }

    /**
     * Value text per type: JSON bool / number for BOOLEAN, TINYINT, SMALLINT, INT, DATE, TIME; a
     * decimal string for BIGINT; raw IEEE bits as hex for FLOAT/DOUBLE; the unscaled value as a
     * decimal string for DECIMAL; a JSON string for CHAR/STRING; hex for BINARY/BYTES;
     * "millis:nanoOfMilli" for timestamps; a JSON array for ROW and ARRAY; a JSON array of [key,
     * value] pairs in stored order for MAP.
     */
    private static String valueJson(DataType type, Object v) {
        if (v == null) {
            return "null";
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return v.toString();
            case BIGINT:
                return str(v.toString());
            case FLOAT:
                return str(String.format("%08x", Float.floatToRawIntBits((Float) v)));
            case DOUBLE:
                return str(String.format("%016x", Double.doubleToRawLongBits((Double) v)));
            case DECIMAL:
                BigInteger unscaled = ((Decimal) v).toBigDecimal().unscaledValue();
                return str(unscaled.toString());
            case CHAR:
            case STRING:
                return str(v.toString());
            case BINARY:
            case BYTES:
                return str(hex((byte[]) v));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                TimestampNtz ntz = (TimestampNtz) v;
                return str(ntz.getMillisecond() + ":" + ntz.getNanoOfMillisecond());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                TimestampLtz ltz = (TimestampLtz) v;
                return str(ltz.getEpochMillisecond() + ":" + ltz.getNanoOfMillisecond());
            case ROW:
                List<DataType> fts = ((RowType) type).getChildren();
                InternalRow row = (InternalRow) v;
                Object[] nested = new Object[fts.size()];
                for (int i = 0; i < nested.length; i++) {
                    nested[i] = InternalRow.createFieldGetter(fts.get(i), i).getFieldOrNull(row);
                }
                return valuesJson(fts.toArray(new DataType[0]), nested);
            case ARRAY:
                return arrayJson(((ArrayType) type).getElementType(), (InternalArray) v);
            case MAP:
                MapType mt = (MapType) type;
                InternalMap map = (InternalMap) v;
                InternalArray keys = map.keyArray();
                InternalArray vals = map.valueArray();
                InternalArray.ElementGetter kg = InternalArray.createElementGetter(mt.getKeyType());
                InternalArray.ElementGetter vg = InternalArray.createElementGetter(mt.getValueType());
                StringBuilder m = new StringBuilder("[");
                for (int i = 0; i < map.size(); i++) {
                    if (i > 0) {
                        m.append(", ");
                    }
                    m.append("[").append(valueJson(mt.getKeyType(), kg.getElementOrNull(keys, i)));
                    m.append(", ").append(valueJson(mt.getValueType(), vg.getElementOrNull(vals, i)));
                    m.append("]");
                }
                return m.append("]").toString();
            default:
                throw new IllegalArgumentException("no JSON form for " + type);
        }
    }

    /** An ARRAY as a JSON array of its elements (null for NULL elements). */
    private static String arrayJson(DataType elementType, InternalArray a) {
        InternalArray.ElementGetter g = InternalArray.createElementGetter(elementType);
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < a.size(); i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append(valueJson(elementType, g.getElementOrNull(a, i)));
        }
        return s.append("]").toString();
    }

    static String strList(List<String> l) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < l.size(); i++) {
            if (i > 0) {
                s.append(", ");
            }
            s.append(str(l.get(i)));
        }
        return s.append("]").toString();
    }

    static String str(String v) {
        StringBuilder s = new StringBuilder("\"");
        for (int i = 0; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '"' || c == '\\') {
                s.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                s.append(String.format("\\u%04x", (int) c));
            } else {
                s.append(c);
            }
        }
        return s.append('"').toString();
    }

    static String hex(byte[] b) {
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(String.format("%02x", x & 0xff));
        }
        return s.toString();
    }
}
