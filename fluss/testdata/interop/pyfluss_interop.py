"""Interop helper for flussql's Go tests: drives the official Python client (pyfluss).

Usage (bootstrap servers from FLUSS_BOOTSTRAP_SERVERS):
  pyfluss_interop.py describe DB TABLE      print the table as pyfluss sees it, as JSON
  pyfluss_interop.py create DB TABLE        create a partitioned primary-key table
  pyfluss_interop.py append DB TABLE N      append N rows (id BIGINT, v STRING) to a log table
"""
import asyncio
import json
import os
import sys

import pyarrow as pa
import fluss


async def connect():
    servers = os.environ["FLUSS_BOOTSTRAP_SERVERS"]
    return await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": servers}))


async def describe(conn, path):
    info = await conn.get_admin().get_table_info(path)
    schema = info.get_schema()
    print(json.dumps({
        "columns": [[n, t] for n, t in schema.get_columns()],
        "primary_keys": info.get_primary_keys(),
        "partition_keys": info.get_partition_keys(),
        "bucket_keys": info.get_bucket_keys(),
        "num_buckets": info.num_buckets,
        "comment": info.comment,
        "properties": info.get_properties(),
        "custom_properties": info.get_custom_properties(),
        "table_id": info.table_id,
        "schema_id": info.schema_id,
    }, sort_keys=True))


async def create(conn, path):
    schema = pa.schema([
        pa.field("region", pa.string(), nullable=False),
        pa.field("id", pa.int64(), nullable=False),
        pa.field("name", pa.string()),
        pa.field("qty", pa.int32()),
        pa.field("price", pa.decimal128(10, 2)),
        pa.field("flag", pa.bool_()),
        pa.field("day", pa.date32()),
        pa.field("ts", pa.timestamp("ms")),
        pa.field("payload", pa.binary()),
        pa.field("score", pa.float64()),
    ])
    desc = fluss.TableDescriptor(
        fluss.Schema(schema, primary_keys=["region", "id"]),
        partition_keys=["region"],
        bucket_count=3,
        comment="made by pyfluss",
        custom_properties={"origin": "python"},
    )
    await conn.get_admin().create_table(path, desc, ignore_if_exists=False)


async def append(conn, path, n):
    table = await conn.get_table(path)
    writer = table.new_append().create_writer()
    for i in range(n):
        writer.append({"id": i, "v": "row-%d" % i})
    await writer.flush()


async def main(argv):
    cmd, db, table = argv[1], argv[2], argv[3]
    conn = await connect()
    path = fluss.TablePath(db, table)
    try:
        if cmd == "describe":
            await describe(conn, path)
        elif cmd == "create":
            await create(conn, path)
        elif cmd == "append":
            await append(conn, path, int(argv[4]))
        else:
            raise SystemExit("unknown command " + cmd)
    finally:
        await conn.close()


if __name__ == "__main__":
    code = 0
    try:
        asyncio.run(main(sys.argv))
    except BaseException:  # report, then exit without interpreter teardown
        import traceback
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    # pyfluss 1.0.0 sometimes aborts (SIGABRT) while the interpreter tears down
    # its native runtime after all work is done; skip that teardown.
    os._exit(code)
