/*
 * flussql test-vector generator (our own code): the keys and buckets of tables with a datalake
 * format. For every key case of GenerateVectors.keyCases() it runs the key encoder and the
 * bucketing function Fluss 0.9.1 picks for a Paimon and an Iceberg table (KeyEncoder.of,
 * BucketingFunction.of); Iceberg keys have one column of the types IcebergKeyEncoder takes.
 */
package flussql.vectors;

import org.apache.fluss.bucketing.BucketingFunction;
import org.apache.fluss.metadata.DataLakeFormat;
import org.apache.fluss.metadata.Schema;
import org.apache.fluss.metadata.TableDescriptor;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.encode.KeyEncoder;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static flussql.vectors.GenerateVectors.BUCKET_COUNTS;
import static flussql.vectors.GenerateVectors.hex;
import static flussql.vectors.GenerateVectors.strList;
import static flussql.vectors.GenerateVectors.str;
import static flussql.vectors.GenerateVectors.typesJson;
import static flussql.vectors.GenerateVectors.valuesJson;

/** The lake_keys section of vectors.json. */
final class LakeCases {
    private LakeCases() {}

    @SuppressWarnings("deprecation")
    static String lakeKeys() {
        List<String> out = new ArrayList<>();
        for (DataLakeFormat format : new DataLakeFormat[] {DataLakeFormat.PAIMON, DataLakeFormat.ICEBERG}) {
            BucketingFunction fn = BucketingFunction.of(format);
            for (GenerateVectors.Case kc : GenerateVectors.keyCases()) {
                RowType rowType = DataTypes.ROW(kc.types);
                byte[] key;
                try {
                    key = KeyEncoder.of(rowType, rowType.getFieldNames(), format)
                            .encodeKey(GenericRow.of(kc.values));
                } catch (IllegalArgumentException e) {
                    // not a key this format takes: recorded so that Go refuses it too
                    key = null;
                }
                StringBuilder s = new StringBuilder();
                s.append("{\"format\": ").append(str(format.toString().toLowerCase()));
                s.append(", \"name\": ").append(str(kc.name));
                s.append(", \"types\": ").append(typesJson(kc.types));
                s.append(", \"values\": ").append(valuesJson(kc.types, kc.values));
                if (key == null) {
                    s.append(", \"refused\": true}");
                    out.add(s.toString());
                    continue;
                }
                s.append(", \"key\": ").append(str(hex(key)));
                if (key.length == 0) {
                    // IcebergBucketingFunction refuses an empty key (empty STRING/BYTES)
                    s.append(", \"bucket_refused\": true}");
                    out.add(s.toString());
                    continue;
                }
                s.append(", \"buckets\": {");
                for (int i = 0; i < BUCKET_COUNTS.length; i++) {
                    if (i > 0) {
                        s.append(", ");
                    }
                    int n = BUCKET_COUNTS[i];
                    s.append('"').append(n).append("\": ").append(fn.bucketing(key, n));
                }
                s.append("}}");
                out.add(s.toString());
            }
        }
        return String.join(",\n", out);
    }

    /**
     * The lake_tables section: for primary-key tables (id INT, name STRING, score BIGINT) of each
     * lake format and kv format version, with the default bucket key or bucket key (id) under
     * the primary key (id, name), the keys fluss-client sends for the row (7, "seven", 49):
     * UpsertWriterImpl's and PrimaryKeyLookuper's primary key and bucket key, the bucket, and
     * PrefixKeyLookuper's prefix key.
     */
    static String lakeTables() throws Exception {
        List<String> out = new ArrayList<>();
        for (DataLakeFormat format : new DataLakeFormat[] {DataLakeFormat.PAIMON, DataLakeFormat.ICEBERG, DataLakeFormat.LANCE}) {
            for (String version : new String[] {"1", "2"}) {
                for (boolean prefix : new boolean[] {false, true}) {
                    Schema.Builder sb = Schema.newBuilder()
                            .column("id", DataTypes.INT())
                            .column("name", DataTypes.STRING())
                            .column("score", DataTypes.BIGINT());
                    TableDescriptor.Builder b = TableDescriptor.builder()
                            .property("table.kv.format-version", version)
                            .property("table.datalake.format", format.toString().toLowerCase());
                    if (prefix) {
                        b.schema(sb.primaryKey("id", "name").build()).distributedBy(4, "id");
                    } else {
                        b.schema(sb.primaryKey("id").build()).distributedBy(4);
                    }
                    TableInfo info = TableInfo.of(TablePath.of("fluss", "t"), 1L, 1, b.build(), 0L, 0L);
                    RowType rowType = info.getRowType();
                    StringBuilder s = new StringBuilder();
                    s.append("{\"format\": ").append(str(format.toString().toLowerCase()));
                    s.append(", \"kv_format_version\": ").append(str(version));
                    s.append(", \"primary_key\": ").append(strList(info.getPrimaryKeys()));
                    s.append(", \"bucket_keys\": ").append(strList(info.getBucketKeys()));
                    KeyEncoder pk;
                    try {
                        pk = KeyEncoder.ofPrimaryKeyEncoder(rowType, info.getPhysicalPrimaryKeys(),
                                info.getTableConfig(), info.isDefaultBucketKey());
                    } catch (IllegalArgumentException e) {
                        // an Iceberg-encoded primary key of two columns
                        out.add(s.append(", \"refused\": true}").toString());
                        continue;
                    }
                    KeyEncoder bk = info.isDefaultBucketKey() ? pk
                            : KeyEncoder.ofBucketKeyEncoder(rowType, info.getBucketKeys(), format);
                    GenericRow row = GenericRow.of(7, BinaryString.fromString("seven"), 49L);
                    byte[] bkBytes = bk.encodeKey(row);
                    s.append(", \"key\": ").append(str(hex(pk.encodeKey(row))));
                    s.append(", \"bucket_key\": ").append(str(hex(bkBytes)));
                    s.append(", \"bucket\": ").append(BucketingFunction.of(format).bucketing(bkBytes, 4));
                    if (prefix) {
                        RowType lookupType = rowType.project(Arrays.asList("id"));
                        KeyEncoder pre = KeyEncoder.ofPrimaryKeyEncoder(lookupType, info.getBucketKeys(),
                                info.getTableConfig(), info.isDefaultBucketKey());
                        s.append(", \"prefix_key\": ").append(str(hex(pre.encodeKey(GenericRow.of(7)))));
                    }
                    out.add(s.append("}").toString());
                }
            }
        }
        return String.join(",\n", out);
    }
}
