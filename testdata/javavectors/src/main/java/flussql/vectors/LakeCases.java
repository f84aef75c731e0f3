/*
 * flussql test-vector generator (our own code): the keys and buckets of tables with a datalake
 * format. For every key case of GenerateVectors.keyCases() it runs the key encoder and the
 * bucketing function Fluss 0.9.1 picks for a Paimon and an Iceberg table (KeyEncoder.of,
 * BucketingFunction.of); Iceberg keys have one column of the types IcebergKeyEncoder takes.
 */
package flussql.vectors;

import org.apache.fluss.bucketing.BucketingFunction;
import org.apache.fluss.metadata.DataLakeFormat;
import org.apache.fluss.row.GenericRow;
import org.apache.fluss.row.encode.KeyEncoder;
import org.apache.fluss.types.DataType;
import org.apache.fluss.types.DataTypes;
import org.apache.fluss.types.RowType;

import java.util.ArrayList;
import java.util.List;

import static flussql.vectors.GenerateVectors.BUCKET_COUNTS;
import static flussql.vectors.GenerateVectors.hex;
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
}
