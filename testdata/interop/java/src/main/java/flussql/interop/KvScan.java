package flussql.interop;

import org.apache.fluss.client.admin.Admin;
import org.apache.fluss.client.table.Table;
import org.apache.fluss.client.table.scanner.batch.BatchScanner;
import org.apache.fluss.metadata.PartitionInfo;
import org.apache.fluss.metadata.TableBucket;
import org.apache.fluss.metadata.TableInfo;
import org.apache.fluss.metadata.TablePath;
import org.apache.fluss.row.BinaryString;
import org.apache.fluss.row.InternalRow;
import org.apache.fluss.utils.CloseableIterator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code kv-scan DB TABLE} command: every row of a primary-key table read with the Java
 * client's batch scanner ({@code table.newScan().createBatchScanner(bucket)}, the server-side
 * KV scan of Fluss 1.0), bucket by bucket and partition by partition. Prints {@code count}
 * and {@code rows}, each row its column values in table order (INT and BIGINT as numbers,
 * STRING as strings, NULL as null).
 */
final class KvScan {

    private KvScan() {}

    static String run(Admin admin, Table table, TablePath path) throws Exception {
        TableInfo info = table.getTableInfo();
        List<Long> partitions = new ArrayList<>();
        if (info.isPartitioned()) {
            for (PartitionInfo p : admin.listPartitionInfos(path).get()) {
                partitions.add(p.getPartitionId());
            }
        } else {
            partitions.add(null);
        }
        InternalRow.FieldGetter[] getters = InternalRow.createFieldGetters(info.getRowType());
        StringBuilder rows = new StringBuilder();
        int count = 0;
        for (Long partition : partitions) {
            for (int b = 0; b < info.getNumBuckets(); b++) {
                TableBucket bucket = new TableBucket(info.getTableId(), partition, b);
                try (BatchScanner scanner = table.newScan().createBatchScanner(bucket)) {
                    CloseableIterator<InternalRow> batch;
                    while ((batch = scanner.pollBatch(Duration.ofSeconds(10))) != null) {
                        while (batch.hasNext()) {
                            InternalRow row = batch.next();
                            rows.append(count == 0 ? "" : ",").append('[');
                            for (int i = 0; i < getters.length; i++) {
                                rows.append(i == 0 ? "" : ",").append(json(getters[i].getFieldOrNull(row)));
                            }
                            rows.append(']');
                            count++;
                        }
                        batch.close();
                    }
                }
            }
        }
        return "{\"count\":" + count + ",\"rows\":[" + rows + "]}";
    }

    private static String json(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof BinaryString) {
            StringBuilder sb = new StringBuilder("\"");
            for (char c : v.toString().toCharArray()) {
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
        return v.toString();
    }
}
