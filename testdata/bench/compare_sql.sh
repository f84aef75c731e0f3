#!/usr/bin/env bash
# Runs the SQL driver's benchmarks (bench_test.go) and the same work through the official
# Python client (pyfluss_sql.py) against one cluster, and prints rows/s and flussql/pyfluss.
#
#   FLUSS_BOOTSTRAP_SERVERS=127.0.0.1:9123 testdata/bench/compare_sql.sh
#
# Needs go and python3 with pyfluss and pyarrow (pip install -r testdata/interop/requirements.txt).
set -euo pipefail
: "${FLUSS_BOOTSTRAP_SERVERS:?set FLUSS_BOOTSTRAP_SERVERS to a Fluss cluster (make cluster-up prints one)}"
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== flussql (database/sql)" >&2
cd "$root"
for spec in "InsertExec 500x" "InsertTx10k 50000x" "InsertArrow 200000x" "SelectScan 3x" "LookupQueryRow 5000x"; do
	set -- $spec
	go test -run '^$' -bench "^Benchmark$1\$" -benchtime "$2" -benchmem -count=1 . | grep '^Benchmark' | tee -a "$out/go.txt" >&2
done
echo "== pyfluss" >&2
python3 testdata/bench/pyfluss_sql.py --rows 50000 --exec-rows 500 --scan-rows 200000 --lookups 2000 | tee "$out/py.jsonl" >&2

python3 - "$out/go.txt" "$out/py.jsonl" <<'PY'
import json, re, sys
go = {}
for line in open(sys.argv[1]):
    m = re.match(r"Benchmark([\w/=]+)-\d+\s.*?([\d.]+) (rows/s|lookups/s)", line)
    if m:
        go[m.group(1)] = float(m.group(2))
py = {j["bench"]: j["rows_per_s"] for j in map(json.loads, open(sys.argv[2]))}
pairs = [("InsertExec", "insert_exec", "INSERT, one row per Exec (acknowledged)"),
         ("InsertTx10k", "insert_batch", "prepared INSERT × 10,000 in a transaction"),
         ("InsertArrow", "insert_arrow", "Arrow batches of 10,000 via Raw"),
         ("SelectScan/into=int32", "select_scan", "SELECT of 200,000 rows, Next + Scan (INT into int32)"),
         ("SelectScan/into=int64", "select_scan", "SELECT of 200,000 rows, Next + Scan (INT into int64)"),
         ("LookupQueryRow/prepared=true/callers=16", "lookup", "point lookups, 16 callers (prepared QueryRow)")]
print(f"| workload | flussql rows/s | pyfluss rows/s | flussql / pyfluss |")
print(f"| --- | ---: | ---: | ---: |")
for g, p, what in pairs:
    if g in go and p in py:
        print(f"| {what} | {go[g]:,.0f} | {py[p]:,.0f} | {go[g] / py[p]:.2f}× |")
PY
