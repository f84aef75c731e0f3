/*
 * flussql test-vector generator (our own code): the row cases with ARRAY and MAP columns. Each
 * case is encoded by the real Fluss 0.9.1-incubating RowEncoder as COMPACTED and as INDEXED (see
 * GenerateVectors.rows).
 */
package flussql.vectors;

import static flussql.vectors.GenerateVectors.dec;
import static flussql.vectors.GenerateVectors.repeat;
import static flussql.vectors.GenerateVectors.s;
import static flussql.vectors.GenerateVectors.t;

import org.apache.fluss.row.GenericArray;
import org.apache.fluss.row.GenericMap;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.TimestampLtz;
import org.apache.fluss.row.TimestampNtz;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Row cases holding ARRAY and MAP values. */
final class ComplexCases {

    private ComplexCases() {}

    private static GenericArray arr(Object... elements) {
        return new GenericArray(elements);
    }

    /** A map in the given key, value, key, value… order (LinkedHashMap keeps it). */
    private static GenericMap map(Object... kv) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return new GenericMap(m);
    }

    static void addRowCases(List<GenerateVectors.Case> c) {
        c.add(new GenerateVectors.Case("array_fixed_width",
                t(DataTypes.ARRAY(DataTypes.INT()), DataTypes.ARRAY(DataTypes.BIGINT()),
                        DataTypes.ARRAY(DataTypes.BOOLEAN()), DataTypes.ARRAY(DataTypes.DOUBLE()),
                        DataTypes.ARRAY(DataTypes.TINYINT()), DataTypes.ARRAY(DataTypes.SMALLINT()),
                        DataTypes.ARRAY(DataTypes.FLOAT()), DataTypes.ARRAY(DataTypes.DATE()),
                        DataTypes.ARRAY(DataTypes.TIME(3))),
                arr(1, null, -1, Integer.MAX_VALUE, Integer.MIN_VALUE),
                arr(1L, null, Long.MIN_VALUE),
                arr(true, false, null),
                arr(1.5d, null, -0.0d, Double.POSITIVE_INFINITY),
                arr((byte) -1, (byte) 2, null),
                arr((short) -300, null),
                arr(2.5f, Float.NEGATIVE_INFINITY, null, 0f),
                arr(19000, -1, null),
                arr(0, 86399999)));
        c.add(new GenerateVectors.Case("array_var_width",
                t(DataTypes.ARRAY(DataTypes.STRING()), DataTypes.ARRAY(DataTypes.BYTES()),
                        DataTypes.ARRAY(DataTypes.CHAR(3)), DataTypes.ARRAY(DataTypes.BINARY(2))),
                arr(s(""), s("short"), null, s("1234567"), s("12345678"),
                        s("a longer string h\u00e9llo \u4e16\u754c"), s("\u00e9")),
                arr(new byte[0], new byte[] {1, 2, 3, 4, 5, 6, 7}, null,
                        new byte[] {(byte) 0x80, 0, 0, 0, 0, 0, 0, (byte) 0xff}),
                arr(s("ab"), s("abc"), null),
                arr(new byte[] {1}, null, new byte[] {(byte) 0xfe, 0})));
        c.add(new GenerateVectors.Case("array_decimal_timestamp",
                t(DataTypes.ARRAY(DataTypes.DECIMAL(10, 2)), DataTypes.ARRAY(DataTypes.DECIMAL(30, 5)),
                        DataTypes.ARRAY(DataTypes.TIMESTAMP(3)), DataTypes.ARRAY(DataTypes.TIMESTAMP(6)),
                        DataTypes.ARRAY(DataTypes.TIMESTAMP_LTZ(9)),
                        DataTypes.ARRAY(DataTypes.TIMESTAMP_LTZ(0))),
                arr(dec("123.45", 10, 2), null, dec("-0.01", 10, 2)),
                arr(dec("1234567890123456789012345.12345", 30, 5), null, dec("-0.00001", 30, 5),
                        dec("0", 30, 5), dec("-9999999999999999999999999.99999", 30, 5)),
                arr(TimestampNtz.fromMillis(1700000000123L), null, TimestampNtz.fromMillis(-1L)),
                arr(TimestampNtz.fromMillis(1700000000123L, 456000), null,
                        TimestampNtz.fromMillis(-86400001L, 999000)),
                arr(TimestampLtz.fromEpochMillis(-1L, 1), TimestampLtz.fromEpochMillis(0L, 0), null),
                arr(TimestampLtz.fromEpochMillis(1700000000000L))));
        DataType rowAB =
                DataTypes.ROW(
                        DataTypes.FIELD("a", DataTypes.INT()), DataTypes.FIELD("b", DataTypes.STRING()));
        c.add(new GenerateVectors.Case("array_nested",
                t(DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.INT())), DataTypes.ARRAY(rowAB),
                        DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.STRING())),
                        DataTypes.ARRAY(DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()))),
                arr(arr(1, 2), arr(), null, arr(null, 3)),
                arr(GenericRow.of(1, s("x")), null, GenericRow.of(null, s("a string of 24 bytes...."))),
                arr(arr(s("a long first string"), null), arr(s("c"))),
                arr(map(s("k"), 1), map(), null)));
        // Inner arrays of the same size: Java reuses its inner BinaryArrayWriter, whose reset()
        // clears the null bits but not the slots, so a NULL STRING element keeps the previous
        // array's slot bytes. The Go test expects exactly those slots to differ (we write zeros).
        c.add(new GenerateVectors.Case("array_java_stale_null_slots",
                t(DataTypes.ARRAY(DataTypes.ARRAY(DataTypes.STRING()))),
                arr(arr(s("a long first string"), s("b")), arr(null, s("c")), arr(s("d"), null))));
        c.add(new GenerateVectors.Case("maps",
                t(DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
                        DataTypes.MAP(DataTypes.INT(), DataTypes.ARRAY(DataTypes.STRING())),
                        DataTypes.MAP(DataTypes.BIGINT(), rowAB),
                        DataTypes.MAP(DataTypes.STRING(), DataTypes.DECIMAL(30, 5))),
                map(s("a"), 1, s("bb"), null, s("a long key, 20 bytes"), 3),
                map(1, arr(s("x"), null, s("a longer value")), 2, null, 3, arr()),
                map(-5L, GenericRow.of(7, null), 9L, null),
                map(s("d"), dec("-1.5", 30, 5))));
        c.add(new GenerateVectors.Case("empty_and_null",
                t(DataTypes.ARRAY(DataTypes.INT()), DataTypes.ARRAY(DataTypes.STRING()),
                        DataTypes.MAP(DataTypes.STRING(), DataTypes.INT()),
                        DataTypes.ARRAY(DataTypes.INT()),
                        DataTypes.MAP(DataTypes.INT(), DataTypes.ARRAY(DataTypes.STRING())),
                        DataTypes.INT()),
                arr(), arr(), map(), null, null, 5));
        Object[] forty = new Object[40];
        Object[] bools = new Object[33];
        for (int i = 0; i < forty.length; i++) {
            forty[i] = i == 0 || i == 33 || i == 39 ? null : i * 1000;
        }
        for (int i = 0; i < bools.length; i++) {
            bools[i] = i == 32 ? null : i % 3 == 0;
        }
        c.add(new GenerateVectors.Case("array_two_null_words",
                t(DataTypes.ARRAY(DataTypes.INT()), DataTypes.ARRAY(DataTypes.BOOLEAN()),
                        DataTypes.ARRAY(DataTypes.STRING())),
                new GenericArray(forty), new GenericArray(bools),
                arr(s(repeat("y", 200)), null)));
        c.add(new GenerateVectors.Case("not_null_and_row_with_array",
                t(DataTypes.ARRAY(DataTypes.INT().copy(false)).copy(false),
                        DataTypes.ROW(
                                DataTypes.FIELD("id", DataTypes.INT()),
                                DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING())),
                                DataTypes.FIELD("attrs",
                                        DataTypes.MAP(DataTypes.STRING(), DataTypes.STRING()))),
                        DataTypes.STRING()),
                arr(4, 5, 6),
                GenericRow.of(1, arr(s("t1"), s("tag two is long")), map(s("k"), s("v"))),
                s("after")));
    }
}
