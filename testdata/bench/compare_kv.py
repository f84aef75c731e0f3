#!/usr/bin/env python3
"""Runs the primary-key benchmarks of flussql and of pyfluss in one go and prints the ratios.

  FLUSS_BOOTSTRAP_SERVERS=127.0.0.1:29123 python3 testdata/bench/compare_kv.py [--rows N] [--lookups M]

flussql: BenchmarkUpsert (N rows) and BenchmarkLookup (M lookups per caller
count) from fluss/lookup_bench_test.go. pyfluss: testdata/bench/pyfluss_kv.py
(N rows; lookups for 5 s per caller count). Both run against the same cluster,
one after the other. Ratio = flussql / pyfluss for throughput and
pyfluss / flussql for latency, so > 1 means flussql is better.
"""
import argparse
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def go_bench(pattern, benchtime):
    out = subprocess.run(
        ["go", "test", "./fluss/", "-run", "^$", "-bench", pattern, "-benchtime", benchtime, "-count", "1"],
        cwd=ROOT, check=True, capture_output=True, text=True).stdout
    res = {}
    for line in out.splitlines():
        m = re.match(r"Benchmark(\S+?)(-\d+)?\s+\d+\s+[\d.]+ ns/op(.*)", line)
        if not m:
            continue
        metrics = {unit: float(v) for v, unit in re.findall(r"([\d.]+) (\S+)", m.group(3))}
        res[m.group(1)] = metrics
    return res


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rows", type=int, default=100_000)
    p.add_argument("--lookups", type=int, default=20_000)
    args = p.parse_args()
    if not os.environ.get("FLUSS_BOOTSTRAP_SERVERS"):
        sys.exit("set FLUSS_BOOTSTRAP_SERVERS")

    go = go_bench("^BenchmarkUpsert$", f"{args.rows}x")
    go.update(go_bench("^BenchmarkLookup$", f"{args.lookups}x"))
    py = {}
    out = subprocess.run([sys.executable, os.path.join(ROOT, "testdata/bench/pyfluss_kv.py"), "--rows", str(args.rows)],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        r = json.loads(line)
        py[r["bench"]] = r

    print(f"{'benchmark':<22} {'flussql':>12} {'pyfluss':>12} {'ratio':>8}")
    g, q = go["Upsert"]["rows/s"], py["upsert"]["ops_per_s"]
    print(f"{'upsert rows/s':<22} {g:>12.0f} {q:>12.0f} {g / q:>7.2f}x")
    for c in (1, 16, 64):
        gm, pm = go[f"Lookup/callers={c}"], py[f"lookup/callers={c}"]
        rows = [("lookups/s", gm["lookups/s"], pm["ops_per_s"], gm["lookups/s"] / pm["ops_per_s"]),
                ("p50 ms", gm["p50-ms"], pm["p50_ms"], pm["p50_ms"] / gm["p50-ms"]),
                ("p99 ms", gm["p99-ms"], pm["p99_ms"], pm["p99_ms"] / gm["p99-ms"])]
        for name, a, b, ratio in rows:
            print(f"{f'lookup c={c} {name}':<22} {a:>12.2f} {b:>12.2f} {ratio:>7.1f}x")


if __name__ == "__main__":
    main()
