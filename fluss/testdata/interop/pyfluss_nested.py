#!/usr/bin/env python3
"""ARRAY/MAP/ROW log-table interop with the official Python client (pyfluss).

  pyfluss_nested.py write DB TABLE ROWS.json   append the rows with pyfluss's writer
  pyfluss_nested.py read  DB TABLE             print every row of the table as JSON

Neutral JSON form, shared with complex_types_integration_test.go: NULL null;
integers and strings as themselves; DECIMAL plain strings; TIMESTAMP_LTZ(p)
[epoch millis, nano of milli]; ARRAY a JSON array; ROW a JSON array of its
fields in order; MAP a JSON array of [key, value] pairs in stored order.
The bootstrap address comes from FLUSS_BOOTSTRAP_SERVERS.
"""
import asyncio
import datetime
import decimal
import inspect
import json
import os
import sys

import fluss
import pyarrow as pa

EPOCH = datetime.datetime(1970, 1, 1)
UNIT_PER_MILLI = {"s": None, "ms": 1, "us": 1000}


def to_python(v, typ):
    """Turns a neutral value into what pa.array accepts for typ."""
    if v is None:
        return None
    if pa.types.is_map(typ):
        return [(to_python(k, typ.key_type), to_python(x, typ.item_type)) for k, x in v]
    if pa.types.is_list(typ):
        return [to_python(x, typ.value_type) for x in v]
    if pa.types.is_struct(typ):
        return {typ.field(i).name: to_python(x, typ.field(i).type) for i, x in enumerate(v)}
    if pa.types.is_decimal(typ):
        return decimal.Decimal(v)
    if pa.types.is_timestamp(typ):
        ms, nano = v
        if typ.unit == "s":
            return EPOCH + datetime.timedelta(seconds=int(ms / 1000))
        if typ.unit == "ns":
            raise ValueError("TIMESTAMP(7..9) is not used by this script")
        return EPOCH + datetime.timedelta(milliseconds=ms, microseconds=nano // 1000)
    return v


def from_python(v, typ):
    """Turns a value of Array.to_pylist() into the neutral form."""
    if v is None:
        return None
    if pa.types.is_map(typ):
        return [[from_python(k, typ.key_type), from_python(x, typ.item_type)] for k, x in v]
    if pa.types.is_list(typ):
        return [from_python(x, typ.value_type) for x in v]
    if pa.types.is_struct(typ):
        return [from_python(v[typ.field(i).name], typ.field(i).type) for i in range(typ.num_fields)]
    if pa.types.is_decimal(typ):
        return format(v, "f")
    if pa.types.is_timestamp(typ):
        if typ.unit == "ns":
            raise ValueError("TIMESTAMP(7..9) is not used by this script")
        micros = (v.replace(tzinfo=None) - EPOCH) // datetime.timedelta(microseconds=1)
        return [micros // 1000, (micros % 1000) * 1000]
    return v


async def main():
    cmd, db, table = sys.argv[1], sys.argv[2], sys.argv[3]
    servers = os.environ.get("FLUSS_BOOTSTRAP_SERVERS", "127.0.0.1:9123")
    conn = await fluss.FlussConnection.create(fluss.Config({"bootstrap.servers": servers}))
    try:
        t = await conn.get_table(fluss.TablePath(db, table))
        schema = t.arrow_schema
        if cmd == "write":
            with open(sys.argv[4]) as f:
                rows = json.load(f)
            cols = []
            for i in range(len(schema)):
                typ = schema.field(i).type
                cols.append(pa.array([to_python(r[i], typ) for r in rows], type=typ))
            batch = pa.RecordBatch.from_arrays(cols, schema=schema)
            w = t.new_append().create_writer()
            w.write_arrow_batch(batch)
            await w.flush()
            print("flushed", file=sys.stderr, flush=True)
        elif cmd == "read":
            info = t.get_table_info()
            sc = await t.new_scan().create_record_batch_log_scanner()
            sc.subscribe_buckets({b: fluss.EARLIEST_OFFSET for b in range(info.num_buckets)})
            tab = sc.to_arrow()
            if inspect.isawaitable(tab):
                tab = await tab
            cols = []
            for i in range(tab.num_columns):
                typ = tab.schema.field(i).type
                cols.append([from_python(v, typ) for v in tab.column(i).to_pylist()])
            rows = [list(r) for r in zip(*cols)] if cols else []
            json.dump({"schema": str(tab.schema), "rows": rows}, sys.stdout)
            sys.stdout.flush()
            print("read", len(rows), "rows", file=sys.stderr, flush=True)
        else:
            raise SystemExit(f"unknown command {cmd}")
    finally:
        await conn.close()
        print("closed", file=sys.stderr, flush=True)


asyncio.run(main())
sys.stdout.flush()
sys.stderr.flush()
# pyfluss 1.0.0 may abort (SIGABRT) while the interpreter shuts down, after
# the connection was closed; skip the finalizers.
os._exit(0)
