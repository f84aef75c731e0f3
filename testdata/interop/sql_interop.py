#!/usr/bin/env python3
"""Log-table interop with the official Python client (pyfluss), for the SQL driver's tests.

Rows of the shape (id INT, name STRING, value BIGINT) are generated from their id:
name = "<prefix>-<id>", value = id * 3. Every command prints one JSON object.

  sql_interop.py append --db D --table T --start S --count N --prefix P
  sql_interop.py scan   --db D --table T --buckets B
"""

import argparse
import asyncio
import json
import os
import sys

import fluss

BOOTSTRAP = os.environ.get("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:9123")


async def connect():
    return await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": BOOTSTRAP}))


async def append(conn, args):
    t = await conn.get_table(fluss.TablePath(args.db, args.table))
    w = t.new_append().create_writer()
    for i in range(args.start, args.start + args.count):
        w.append({"id": i, "name": f"{args.prefix}-{i}", "value": i * 3})
    await w.flush()
    return {"written": args.count}


async def scan(conn, args):
    t = await conn.get_table(fluss.TablePath(args.db, args.table))
    sc = await t.new_scan().create_record_batch_log_scanner()
    sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(args.buckets)})
    df = await sc.to_pandas()
    rows = sorted((int(r.id), str(r.name), int(r.value)) for r in df.itertuples())
    return {"count": len(rows), "rows": rows}


async def main():
    p = argparse.ArgumentParser()
    p.add_argument("command", choices=["append", "scan"])
    p.add_argument("--db", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--prefix", default="py")
    p.add_argument("--buckets", type=int, default=1)
    args = p.parse_args()
    conn = await connect()
    out = await {"append": append, "scan": scan}[args.command](conn, args)
    print(json.dumps(out))
    sys.stdout.flush()
    # pyfluss 1.0.0 can abort at interpreter exit after the work is done; leave at once.
    os._exit(0)


asyncio.run(main())
