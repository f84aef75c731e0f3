#!/usr/bin/env python3
"""The pyfluss side of testdata/bench/compare_rw.sh: one workload per run, on a table the
script created, so that its peak RSS is the workload's own.

  pyfluss_rw.py append|arrow|upsert|scan DB TABLE N

Tables are (id INT, name STRING, value BIGINT), 4 buckets; row i = (i, "name-" + i, i * 1000003).
  append   row N appended and flushed (untimed warm-up), then rows 0..N-1 with append(dict), flush
  arrow    the same rows as Arrow record batches of 65,536 rows (write_arrow_batch), flush
  upsert   the same rows with an UpsertWriter on a primary-key table, flush
  scan     every bucket from the earliest offset with a record-batch scanner (to_arrow), the
           value column summed; the table holds N rows
Prints one JSON object: bench, rows, seconds, rows_per_s (and sum for scan). The script reads
every written table back with flussql and checks it.
"""
import asyncio
import inspect
import json
import os
import sys
import time

import fluss
import pyarrow as pa
import pyarrow.compute as pc

SCHEMA = pa.schema([("id", pa.int32()), ("name", pa.string()), ("value", pa.int64())])
CHUNK = 65536


def row(i):
    return {"id": i, "name": f"name-{i}", "value": i * 1000003}


def batch(lo, hi):
    ids = pa.array(range(lo, hi), pa.int32())
    names = pa.array([f"name-{i}" for i in range(lo, hi)], pa.string())
    values = pa.array([i * 1000003 for i in range(lo, hi)], pa.int64())
    return pa.RecordBatch.from_arrays([ids, names, values], schema=SCHEMA)


async def maybe_await(x):
    if inspect.isawaitable(x):
        return await x
    return x


def report(bench, rows, start, **extra):
    secs = time.perf_counter() - start
    print(json.dumps({"bench": bench, "rows": rows, "seconds": round(secs, 4),
                      "rows_per_s": round(rows / secs, 1), **extra}), flush=True)


async def main(mode, db, name, n):
    conn = await fluss.FlussConnection.create(
        fluss.Config({"bootstrap.servers": os.environ["FLUSS_BOOTSTRAP_SERVERS"]}))
    try:
        table = await conn.get_table(fluss.TablePath(db, name))
        if mode in ("append", "upsert"):
            w = table.new_append().create_writer() if mode == "append" else table.new_upsert().create_writer()
            put = w.append if mode == "append" else w.upsert
            put(row(n))  # warm-up: leaders known, connections open
            await w.flush()
            start = time.perf_counter()
            for i in range(n):
                put(row(i))
            await w.flush()
            report(mode, n, start)
        elif mode == "arrow":
            data = [batch(lo, min(lo + CHUNK, n)) for lo in range(0, n, CHUNK)]  # built untimed
            w = table.new_append().create_writer()
            w.write_arrow_batch(batch(n, n + 1))
            await w.flush()
            start = time.perf_counter()
            for b in data:
                w.write_arrow_batch(b)
            await w.flush()
            report(mode, n, start)
        elif mode == "scan":
            start = time.perf_counter()
            sc = await table.new_scan().create_record_batch_log_scanner()
            sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(4)})
            tab = await maybe_await(sc.to_arrow())
            total = pc.sum(tab.column("value")).as_py() or 0
            report(mode, tab.num_rows, start, sum=total)
        else:
            raise SystemExit(f"unknown mode {mode}")
    finally:
        await conn.close()


if len(sys.argv) != 5:
    raise SystemExit(__doc__)
asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
sys.stdout.flush()
# pyfluss 1.0.0 sometimes aborts while the interpreter shuts down; skip finalizers.
os._exit(0)
