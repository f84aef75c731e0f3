#!/usr/bin/env bash
# Runs the log-table benchmarks of the Go client (fluss/append_bench_test.go)
# and the same workload with the official Python client (pyfluss_log.py)
# against one cluster, and prints rows/s, MB/s and the Go/pyfluss ratios.
#
#   FLUSS_BOOTSTRAP_SERVERS=127.0.0.1:9123 testdata/bench/compare.sh [ROWS]
#
# ROWS defaults to 200000 per measurement. Needs go, python3 with pyfluss and
# pyarrow. Run from anywhere; nothing is left on the cluster.
set -euo pipefail
rows=${1:-200000}
: "${FLUSS_BOOTSTRAP_SERVERS:?set FLUSS_BOOTSTRAP_SERVERS to a Fluss cluster}"
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "== Go ($rows rows per benchmark)" >&2
(cd "$root" && go test ./fluss -run '^$' -bench 'Benchmark(Append|Scan)(3|20)Cols' \
	-benchtime="${rows}x" -benchmem -count=1) | tee "$out/go.txt" >&2
echo "== pyfluss ($rows rows per benchmark)" >&2
python3 "$root/testdata/bench/pyfluss_log.py" --rows "$rows" --bootstrap "$FLUSS_BOOTSTRAP_SERVERS" \
	2>/dev/null | tee "$out/py.jsonl" >&2

python3 - "$out/go.txt" "$out/py.jsonl" <<'PY'
import json, re, sys
go = {}
for line in open(sys.argv[1]):
    m = re.match(r"Benchmark(\S+?)(-\d+)?\s+\d+\s+.*", line)
    if not m:
        continue
    name = m.group(1)
    vals = dict((u, float(v)) for v, u in re.findall(r"([\d.]+) (rows/s|MB/s|B/op|allocs/op)", line))
    go[name] = vals
py = {}
for line in open(sys.argv[2]):
    line = line.strip()
    if line.startswith("{"):
        r = json.loads(line)
        py[r["bench"]] = r
print(f"{'benchmark':<22} {'Go rows/s':>12} {'py rows/s':>12} {'ratio':>7}   {'Go MB/s':>8} {'py MB/s':>8}")
for name in ["Append3Cols/rows", "Append3Cols/arrow", "Scan3Cols", "Append20Cols/rows", "Append20Cols/arrow", "Scan20Cols"]:
    g, p = go.get(name), py.get(name)
    if not g or not p:
        print(f"{name:<22} missing ({'go' if not g else 'pyfluss'})")
        continue
    print(f"{name:<22} {g['rows/s']:>12,.0f} {p['rows_per_s']:>12,.0f} {g['rows/s']/p['rows_per_s']:>6.2f}x   {g['MB/s']:>8.1f} {p['mb_per_s']:>8.1f}")
PY
