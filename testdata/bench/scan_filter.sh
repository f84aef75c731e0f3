#!/usr/bin/env bash
# Server filter benchmark (fluss/scan_filter_bench_test.go): a selective WHERE over a table
# with column statistics, read with the condition checked only on the client vs also sent
# to the server. Starts a local Fluss 1.0 cluster (FLUSS_VERSION overrides) unless
# FLUSS_BOOTSTRAP_SERVERS is set. Usage: testdata/bench/scan_filter.sh [ROWS] (default 2000000).
set -euo pipefail
cd "$(dirname "$0")/../.."
rows="${1:-2000000}"
run=(go test -run '^$' -bench 'BenchmarkScanFilter' -benchtime 3x -timeout 30m ./fluss/)
if [[ -n "${FLUSS_BOOTSTRAP_SERVERS:-}" ]]; then
  FLUSSQL_FILTER_BENCH_ROWS="$rows" "${run[@]}"
else
  FLUSSQL_FILTER_BENCH_ROWS="$rows" FLUSS_VERSION="${FLUSS_VERSION:-1.0-SNAPSHOT}" \
    go run ./cmd/fluss-local-cluster run -- "${run[@]}"
fi
