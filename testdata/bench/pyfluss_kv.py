#!/usr/bin/env python3
"""The primary-key benchmark workload of fluss/lookup_bench_test.go, run with pyfluss.

  pyfluss_kv.py [--rows N] [--seconds S] [--bootstrap HOST:PORT]

On a fresh "users" table (id INT, name STRING, score BIGINT; primary key id;
4 buckets) it measures:
  upsert        N rows upserted one by one with one UpsertWriter, then flush
  lookup/C      random existing keys looked up for S seconds by C = 1, 16, 64
                concurrent callers, each awaiting one lookup at a time. Each
                caller has its own Lookuper: a pyfluss Lookuper serves one
                lookup at a time, so sharing one would serialize the callers.
It prints one JSON object per measurement: bench, ops, seconds, ops_per_s and,
for lookups, p50_ms and p99_ms. The database it creates is dropped at the end.
"""
import argparse
import asyncio
import json
import sys
import os
import random
import time
import uuid

import fluss
import pyarrow as pa


def emit(**kw):
    print(json.dumps(kw), flush=True)


async def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--bootstrap", default=os.environ.get("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:29123"))
    args = p.parse_args()

    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": args.bootstrap}))
    admin = conn.get_admin()
    db = "kvbench_py_" + uuid.uuid4().hex[:8]
    await admin.create_database(db, ignore_if_exists=False)
    try:
        schema = fluss.Schema(pa.schema([("id", pa.int32()), ("name", pa.string()), ("score", pa.int64())]),
                              primary_keys=["id"])
        path = fluss.TablePath(db, "users")
        await admin.create_table(path, fluss.TableDescriptor(schema, bucket_count=4), ignore_if_exists=False)
        table = await conn.get_table(path)

        rows = [{"id": i, "name": f"name-{i}", "score": i * 7} for i in range(args.rows)]
        w = table.new_upsert().create_writer()
        t0 = time.perf_counter()
        for r in rows:
            w.upsert(r)
        await w.flush()
        secs = time.perf_counter() - t0
        emit(bench="upsert", ops=args.rows, seconds=secs, ops_per_s=args.rows / secs)

        for callers in (1, 16, 64):
            lookupers = [table.new_lookup().create_lookuper() for _ in range(callers)]
            lat = []
            deadline = time.perf_counter() + args.seconds

            async def caller(k):
                rng = random.Random(k)
                lk = lookupers[k]
                while time.perf_counter() < deadline:
                    key = rng.randrange(args.rows)
                    s = time.perf_counter()
                    row = await lk.lookup({"id": key})
                    lat.append(time.perf_counter() - s)
                    if row is None:
                        raise RuntimeError(f"key {key} not found")

            t0 = time.perf_counter()
            await asyncio.gather(*(caller(k) for k in range(callers)))
            secs = time.perf_counter() - t0
            lat.sort()
            n = len(lat)
            emit(bench=f"lookup/callers={callers}", ops=n, seconds=secs, ops_per_s=n / secs,
                 p50_ms=lat[min(n - 1, int(0.50 * n))] * 1e3, p99_ms=lat[min(n - 1, int(0.99 * n))] * 1e3)
    finally:
        await admin.drop_database(db, ignore_if_not_exists=True, cascade=True)
        conn.close()


if __name__ == "__main__":
    asyncio.run(main())
    sys.stdout.flush()
    # pyfluss 1.0.0 can abort (SIGABRT, "PyGILState_Release … finalizing") at interpreter
    # exit after the work is done: leave at once, as the other interop scripts do.
    os._exit(0)
