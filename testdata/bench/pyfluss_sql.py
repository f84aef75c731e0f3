#!/usr/bin/env python3
"""The SQL driver's benchmark workload (bench_test.go in the repository root), run with pyfluss.

  pyfluss_sql.py [--rows N] [--scan-rows N] [--lookups N]

Tables as in bench_test.go: (id INT, name STRING, value BIGINT) log tables of 4 buckets and a
(id INT, name STRING, score BIGINT) primary-key table of 4 buckets with 10,000 keys. Measured:
  insert_exec   one row appended and flushed at a time (what one INSERT per Exec does)
  insert_batch  rows appended, flushed every 10,000 (a prepared INSERT in a transaction)
  insert_arrow  Arrow record batches of 10,000 rows (write_arrow_batch), flushed each
  select_scan   a bounded read of a --scan-rows table (to_arrow, then every value touched)
  lookup        point lookups from 16 concurrent callers, each with its own Lookuper
Prints one JSON object per measurement: bench, rows, seconds, rows_per_s.
"""
import argparse
import asyncio
import json
import os
import sys
import time
import uuid

import fluss
import pyarrow as pa

BOOTSTRAP = os.environ.get("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:9123")
SCHEMA = pa.schema([("id", pa.int32()), ("name", pa.string()), ("value", pa.int64())])


def emit(bench, rows, seconds):
    print(json.dumps({"bench": bench, "rows": rows, "seconds": round(seconds, 4),
                      "rows_per_s": round(rows / seconds, 1)}))
    sys.stdout.flush()


async def new_table(admin, db, name, pk=False):
    fields = SCHEMA if not pk else pa.schema([("id", pa.int32()), ("name", pa.string()), ("score", pa.int64())])
    schema = fluss.Schema(fields, primary_keys=["id"]) if pk else fluss.Schema(fields)
    path = fluss.TablePath(db, name)
    await admin.create_table(path, fluss.TableDescriptor(schema, bucket_count=4), ignore_if_exists=False)
    return path


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("--rows", type=int, default=50000)
    p.add_argument("--exec-rows", type=int, default=500)
    p.add_argument("--scan-rows", type=int, default=200000)
    p.add_argument("--lookups", type=int, default=2000)
    args = p.parse_args()
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": BOOTSTRAP}))
    admin = conn.get_admin()
    db = "pybench_" + uuid.uuid4().hex[:8]
    await admin.create_database(db, ignore_if_exists=True)
    try:
        # insert_exec
        t = await conn.get_table(await new_table(admin, db, "exec"))
        w = t.new_append().create_writer()
        start = time.perf_counter()
        for i in range(args.exec_rows):
            w.append({"id": i, "name": "name", "value": i})
            await w.flush()
        emit("insert_exec", args.exec_rows, time.perf_counter() - start)

        # insert_batch
        t = await conn.get_table(await new_table(admin, db, "batch"))
        w = t.new_append().create_writer()
        start = time.perf_counter()
        for i in range(args.rows):
            w.append({"id": i, "name": "name", "value": i})
            if (i + 1) % 10000 == 0:
                await w.flush()
        await w.flush()
        emit("insert_batch", args.rows, time.perf_counter() - start)

        # insert_arrow
        t = await conn.get_table(await new_table(admin, db, "arrow"))
        w = t.new_append().create_writer()
        batch = pa.record_batch([pa.array(range(10000), pa.int32()), pa.array(["name"] * 10000),
                                 pa.array(range(10000), pa.int64())], schema=SCHEMA)
        n = max(1, args.rows // 10000)
        start = time.perf_counter()
        for _ in range(n):
            w.write_arrow_batch(batch)
            await w.flush()
        emit("insert_arrow", n * 10000, time.perf_counter() - start)

        # select_scan: fill with Arrow, then read it all back.
        path = await new_table(admin, db, "scan")
        t = await conn.get_table(path)
        w = t.new_append().create_writer()
        for _ in range(args.scan_rows // 10000):
            w.write_arrow_batch(batch)
        await w.flush()
        start = time.perf_counter()
        sc = await t.new_scan().create_record_batch_log_scanner()
        sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(4)})
        tbl = await sc.to_arrow()
        total = 0
        for row in tbl.to_pylist():  # touch every value, as Rows.Next + Scan does
            total += 1
        assert total == (args.scan_rows // 10000) * 10000, total
        emit("select_scan", total, time.perf_counter() - start)

        # lookup
        path = await new_table(admin, db, "kv", pk=True)
        t = await conn.get_table(path)
        w = t.new_upsert().create_writer()
        for i in range(10000):
            w.upsert({"id": i, "name": "name", "score": i * 7})
        await w.flush()
        lookupers = [t.new_lookup().create_lookuper() for _ in range(16)]

        async def worker(k):
            for i in range(k, args.lookups, 16):
                row = await lookupers[k].lookup({"id": i % 10000})
                assert row is not None and row["score"] == (i % 10000) * 7, row

        start = time.perf_counter()
        await asyncio.gather(*(worker(k) for k in range(16)))
        emit("lookup", args.lookups, time.perf_counter() - start)
    finally:
        await admin.drop_database(db, ignore_if_not_exists=True, cascade=True)
    os._exit(0)  # pyfluss 1.0.0 can abort at interpreter exit after the work is done


asyncio.run(main())
