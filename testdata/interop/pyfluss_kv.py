#!/usr/bin/env python3
"""Primary-key table interop with the official Python client (pyfluss 1.0.0).

Used by the Go integration tests in fluss/ (lookup_interop_test.go) to check that
rows written by flussql are found by pyfluss lookups and the reverse. Every
command prints one JSON object on stdout.

Rows of the "users" shape, (id INT, name STRING, score BIGINT) with primary key id,
are generated from their id: name = "<prefix>-<id>", score = id * 7.

  pyfluss_kv.py upsert  --db D --table T --start S --count N [--prefix P]
  pyfluss_kv.py lookup  --db D --table T --start S --count N [--prefix P] [--max-listed M]
  pyfluss_kv.py delete  --db D --table T --start S --count N
  pyfluss_kv.py seed-partitioned-users --db D --table T   (the seed example)
  pyfluss_kv.py lookup-partitioned-users --db D --table T --keys '[[1,"US"],...]'
"""

import argparse
import asyncio
import json
import os
import sys

import fluss
import pyarrow as pa

BOOTSTRAP = os.environ.get("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:29123")
# A pyfluss Lookuper serves one lookup at a time, and each waits for the
# client's lookup batch timeout (100 ms) unless a batch of 128 fills up; so
# lookups run on this many lookupers at once.
LOOKUPERS = 128


async def connect():
    return await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": BOOTSTRAP}))


async def upsert(conn, args):
    t = await conn.get_table(fluss.TablePath(args.db, args.table))
    w = t.new_upsert().create_writer()
    for i in range(args.start, args.start + args.count):
        w.upsert({"id": i, "name": f"{args.prefix}-{i}", "score": i * 7})
    await w.flush()
    return {"written": args.count}


async def delete(conn, args):
    t = await conn.get_table(fluss.TablePath(args.db, args.table))
    w = t.new_upsert().create_writer()
    for i in range(args.start, args.start + args.count):
        w.delete({"id": i})
    await w.flush()
    return {"deleted": args.count}


async def lookup(conn, args):
    t = await conn.get_table(fluss.TablePath(args.db, args.table))
    ids = list(range(args.start, args.start + args.count))
    rows = {}

    async def worker(k, lk):
        for i in ids[k::LOOKUPERS]:
            rows[i] = await lk.lookup({"id": i})

    await asyncio.gather(*(worker(k, t.new_lookup().create_lookuper()) for k in range(LOOKUPERS)))
    found, missing, wrong = 0, [], []
    for i in ids:
        row = rows[i]
        if row is None:
            missing.append(i)
            continue
        found += 1
        want = {"id": i, "name": f"{args.prefix}-{i}", "score": i * 7}
        if row != want:
            wrong.append({"id": i, "got": row})
    return {"checked": len(ids), "found": found, "missing": missing[:args.max_listed],
            "missing_count": len(missing), "wrong": wrong[:20], "wrong_count": len(wrong)}


async def seed_partitioned_users(conn, args):
    # The seed's example (docs "Partitioned Primary Key Tables"), in database args.db.
    admin = conn.get_admin()
    schema = fluss.Schema(
        pa.schema([
            pa.field("user_id", pa.int32()),
            pa.field("region", pa.string()),
            pa.field("score", pa.int64()),
        ]),
        primary_keys=["user_id", "region"],
    )
    table_path = fluss.TablePath(args.db, args.table)
    await admin.create_table(table_path, fluss.TableDescriptor(schema, partition_keys=["region"]),
                             ignore_if_exists=True)
    await admin.create_partition(table_path, {"region": "US"}, ignore_if_exists=True)
    table = await conn.get_table(table_path)
    writer = table.new_upsert().create_writer()
    writer.upsert({"user_id": 1, "region": "US", "score": 1234})
    await writer.flush()
    lookuper = table.new_lookup().create_lookuper()
    result = await lookuper.lookup({"user_id": 1, "region": "US"})
    return {"lookup": result}


async def lookup_partitioned_users(conn, args):
    t = await conn.get_table(fluss.TablePath(args.db, args.table))
    lk = t.new_lookup().create_lookuper()
    out = []
    for user_id, region in json.loads(args.keys):
        out.append(await lk.lookup({"user_id": user_id, "region": region}))
    return {"rows": out}


async def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["upsert", "lookup", "delete", "seed-partitioned-users",
                                       "lookup-partitioned-users"])
    p.add_argument("--db", required=True)
    p.add_argument("--table", required=True)
    p.add_argument("--start", type=int, default=0)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--prefix", default="name")
    p.add_argument("--keys", default="[]")
    p.add_argument("--max-listed", type=int, default=20, help="most missing ids to print")
    args = p.parse_args()
    conn = await connect()
    try:
        fn = {"upsert": upsert, "lookup": lookup, "delete": delete,
              "seed-partitioned-users": seed_partitioned_users,
              "lookup-partitioned-users": lookup_partitioned_users}[args.command]
        result = await fn(conn, args)
    finally:
        conn.close()
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    sys.stdout.flush()


if __name__ == "__main__":
    asyncio.run(main())
    sys.stdout.flush()
    # pyfluss 1.0.0 can abort (SIGABRT, "PyGILState_Release … finalizing") at interpreter
    # exit after the work is done: leave at once, as the other interop scripts do.
    os._exit(0)
