#!/usr/bin/env python3
"""The log-table benchmark workload of fluss/append_bench_test.go, run with pyfluss.

  pyfluss_log.py [--rows N] [--bootstrap HOST:PORT]

For the 3-column and the 20-column schema (same columns and values as the Go
benchmarks, 4 buckets) it measures: appending N rows one by one
(AppendWriter.append + flush), appending them as Arrow record batches of 8192
rows (write_arrow_batch + flush), and reading them back with a record-batch
log scanner (subscribe every bucket from the earliest offset, to_arrow).
It prints one JSON object per measurement: bench, rows, seconds, rows_per_s,
mb_per_s (raw value bytes: 8 per number, 1 per boolean, string lengths;
the same definition as the Go benchmark).
"""
import argparse
import asyncio
import datetime
import decimal
import inspect
import json
import os
import sys
import time
import uuid

import fluss
import pyarrow as pa

EPOCH = datetime.datetime(1970, 1, 1)


def schema(cols):
    if cols == 3:
        return pa.schema([("id", pa.int64()), ("name", pa.string()), ("v", pa.float64())])
    fields = [(f"l{k}", pa.int64()) for k in range(5)]
    fields += [(f"d{k}", pa.float64()) for k in range(5)]
    fields += [(f"s{k}", pa.string()) for k in range(5)]
    fields += [("i0", pa.int32()), ("i1", pa.int32()), ("b", pa.bool_()),
               ("ts", pa.timestamp("ms")), ("dec", pa.decimal128(10, 2))]
    return pa.schema(fields)


def row(cols, i):
    """Row i as a dict and its raw size, as benchRow in Go."""
    if cols == 3:
        name = f"name-{i}"
        return {"id": i, "name": name, "v": i * 0.5}, 16 + len(name)
    r, size = {}, 0
    for k in range(5):
        r[f"l{k}"] = i * (k + 1)
        r[f"d{k}"] = i * 0.25 * (k + 1)
        s = f"s{k}-{i}"
        r[f"s{k}"] = s
        size += 16 + len(s)
    r["i0"], r["i1"], r["b"] = i % 1000, i % 7, i % 2 == 0
    r["ts"] = EPOCH + datetime.timedelta(milliseconds=1_700_000_000_000 + i)
    r["dec"] = decimal.Decimal(i % 1_000_000).scaleb(-2)
    return r, size + 4 + 4 + 1 + 8 + 8


def batches(cols, n, sch, chunk):
    out, size = [], 0
    for start in range(0, n, chunk):
        rows = []
        for i in range(start, min(start + chunk, n)):
            r, s = row(cols, i)
            rows.append(r)
            size += s
        out.append(pa.RecordBatch.from_pylist(rows, schema=sch))
    return out, size


async def maybe_await(x):
    if inspect.isawaitable(x):
        return await x
    return x


async def new_table(conn, admin, db, cols):
    tp = fluss.TablePath(db, f"t{cols}_{uuid.uuid4().hex[:8]}")
    await admin.create_table(tp, fluss.TableDescriptor(fluss.Schema(schema(cols)), bucket_count=4))
    return await conn.get_table(tp), tp


def report(bench, rows, seconds, size):
    print(json.dumps({"bench": bench, "rows": rows, "seconds": round(seconds, 4),
                      "rows_per_s": rows / seconds, "mb_per_s": size / 1e6 / seconds}), flush=True)


async def scan_all(t, n):
    sc = await t.new_scan().create_record_batch_log_scanner()
    sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(4)})
    tab = await maybe_await(sc.to_arrow())
    return tab.num_rows


async def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--bootstrap", default=os.environ.get("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:9123"))
    ap.add_argument("--chunk", type=int, default=2048, help="rows per Arrow record batch (pyfluss 1.0.0 hangs on 8192-row 20-column batches)")
    ap.add_argument("--only", default="", help="comma-separated bench names to run")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(",")))
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": a.bootstrap}))
    admin = conn.get_admin()
    db = f"pybench_{uuid.uuid4().hex[:8]}"
    await admin.create_database(db, ignore_if_exists=False)
    try:
        for cols in (3, 20):
            sch = schema(cols)
            name = f"Append{cols}Cols"
            data, size = batches(cols, a.rows, sch, a.chunk)

            if not only or f"{name}/rows" in only:
                t, _ = await new_table(conn, admin, db, cols)
                w = t.new_append().create_writer()
                w.append(row(cols, 0)[0])  # warm-up: leaders ready, connections open
                await w.flush()
                start = time.perf_counter()
                rsize = 0
                for i in range(a.rows):
                    r, s = row(cols, i)
                    rsize += s
                    w.append(r)
                await w.flush()
                report(f"{name}/rows", a.rows, time.perf_counter() - start, rsize)

            t, _ = await new_table(conn, admin, db, cols)
            w = t.new_append().create_writer()
            w.write_arrow_batch(data[0].slice(0, 1))  # warm-up
            await w.flush()
            start = time.perf_counter()
            for b in data:
                w.write_arrow_batch(b)
            await w.flush()
            if not only or f"{name}/arrow" in only:
                report(f"{name}/arrow", a.rows, time.perf_counter() - start, size)

            if not only or f"Scan{cols}Cols" in only:
                start = time.perf_counter()
                got = await scan_all(t, a.rows + 1)
                report(f"Scan{cols}Cols", got, time.perf_counter() - start, size)
                if got != a.rows + 1:
                    raise SystemExit(f"scan read {got} rows, wrote {a.rows + 1}")
    finally:
        await admin.drop_database(db, ignore_if_not_exists=True, cascade=True)
        await conn.close()


asyncio.run(main())
sys.stdout.flush()
# pyfluss 1.0.0 sometimes aborts while the interpreter shuts down; skip finalizers.
os._exit(0)
