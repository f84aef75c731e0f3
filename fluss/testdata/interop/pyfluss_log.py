#!/usr/bin/env python3
"""Log-table interop with the official Python client (pyfluss), for the Go tests.

  pyfluss_log.py write DB TABLE ROWS.json   append the rows with pyfluss's writer
  pyfluss_log.py read  DB TABLE             print every row of the table as JSON

Rows use a neutral JSON form shared with the Go test (append_interop_test.go):
NULL null; BOOLEAN true/false; integers numbers; FLOAT/DOUBLE strings (exact
repr); DECIMAL plain strings; CHAR/STRING strings; BINARY/BYTES lower-case hex;
DATE days since 1970-01-01; TIME milliseconds of the day; TIMESTAMP and
TIMESTAMP_LTZ [epoch millis, nano of milli]. The conversions to and from Arrow
follow Fluss's precision rules (seconds, millis, micros, nanos by precision).
The bootstrap address comes from FLUSS_BOOTSTRAP_SERVERS.
"""
import asyncio
import decimal
import inspect
import json
import os
import sys

import fluss
import pyarrow as pa

UNIT_PER_MILLI = {"s": None, "ms": 1, "us": 1000, "ns": 1_000_000}


def to_arrow_column(values, typ):
    """Builds a pyarrow array of type typ from neutral values."""
    if pa.types.is_boolean(typ) or pa.types.is_integer(typ):
        return pa.array(values, type=typ)
    if pa.types.is_floating(typ):
        return pa.array([None if v is None else float(v) for v in values], type=typ)
    if pa.types.is_decimal(typ):
        return pa.array([None if v is None else decimal.Decimal(v) for v in values], type=typ)
    if pa.types.is_string(typ):
        return pa.array(values, type=typ)
    if pa.types.is_binary(typ) or pa.types.is_fixed_size_binary(typ):
        return pa.array([None if v is None else bytes.fromhex(v) for v in values], type=typ)
    if pa.types.is_date32(typ):
        return pa.array(values, type=pa.int32()).cast(typ)
    if pa.types.is_time(typ):
        if typ.unit == "s":
            ints = [None if v is None else v // 1000 for v in values]
        else:
            ints = [None if v is None else v * UNIT_PER_MILLI[typ.unit] for v in values]
        base = pa.int32() if pa.types.is_time32(typ) else pa.int64()
        return pa.array(ints, type=base).cast(typ)
    if pa.types.is_timestamp(typ):
        ints = []
        for v in values:
            if v is None:
                ints.append(None)
                continue
            ms, nano = v
            if typ.unit == "s":
                ints.append(int(ms / 1000))  # Java truncates toward zero
            elif typ.unit == "ms":
                ints.append(ms)
            elif typ.unit == "us":
                ints.append(ms * 1000 + nano // 1000)
            else:
                ints.append(ms * 1_000_000 + nano)
        return pa.array(ints, type=pa.int64()).cast(typ)
    raise ValueError(f"unsupported arrow type {typ}")


def from_arrow_value(v, typ):
    """Turns one Python value of an Arrow column into the neutral form."""
    if v is None:
        return None
    if pa.types.is_floating(typ):
        return repr(float(v))
    if pa.types.is_decimal(typ):
        return format(v, "f")
    if pa.types.is_binary(typ) or pa.types.is_fixed_size_binary(typ):
        return v.hex()
    return v


def from_arrow_column(col, typ):
    if pa.types.is_date32(typ):
        return col.cast(pa.int32()).to_pylist()
    if pa.types.is_time(typ):
        base = pa.int32() if pa.types.is_time32(typ) else pa.int64()
        ints = col.cast(base).to_pylist()
        if typ.unit == "s":
            return [None if v is None else v * 1000 for v in ints]
        return [None if v is None else v // UNIT_PER_MILLI[typ.unit] for v in ints]
    if pa.types.is_timestamp(typ):
        out = []
        for v in col.cast(pa.int64()).to_pylist():
            if v is None:
                out.append(None)
            elif typ.unit == "s":
                out.append([v * 1000, 0])
            elif typ.unit == "ms":
                out.append([v, 0])
            elif typ.unit == "us":
                out.append([v // 1000, (v % 1000) * 1000])
            else:
                out.append([v // 1_000_000, v % 1_000_000])
        return out
    return [from_arrow_value(v, typ) for v in col.to_pylist()]


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
            cols = [to_arrow_column([r[i] for r in rows], schema.field(i).type) for i in range(len(schema))]
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
            cols = [from_arrow_column(tab.column(i), tab.schema.field(i).type) for i in range(tab.num_columns)]
            rows = [list(r) for r in zip(*cols)] if cols else []
            json.dump(rows, sys.stdout)
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
# pyfluss 1.0.0 sometimes aborts (SIGABRT) while the interpreter shuts down,
# after the connection was closed; skip the finalizers.
os._exit(0)
