SELECT * FROM logs /*+ OPTIONS('scan.startup.mode' = 'latest') */
====
SELECT * FROM logs /*+ OPTIONS('scan.startup.mode' = 'earliest', 'scan.bounded' = 'false') */ LIMIT 10
====
SELECT * FROM logs /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = '1678883047356') */
====
SELECT * FROM logs /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = '2024-01-02T03:04:05Z') */
====
SELECT * FROM logs /*+ OPTIONS('scan.startup.mode' = 'timestamp') */
====
SELECT * FROM logs /*+ OPTIONS('scan.startup.timestamp' = '1') */
====
SELECT * FROM logs /*+ OPTIONS('scan.startup.mode' = 'timestamp', 'scan.startup.timestamp' = 'yesterday') */
====
SELECT * FROM logs /*+ OPTIONS('scan.startup.mode' = 'group-offsets') */
====
SELECT * FROM logs /*+ OPTIONS('scan.bounded' = 'maybe') */
====
SELECT * FROM logs /*+ OPTIONS('scan.partition.discovery' = '1s') */
====
SELECT COUNT(*) FROM logs /*+ OPTIONS('scan.bounded' = 'false') */
