#!/usr/bin/env bash
# Point lookups side by side on one cluster: flussql database/sql (QueryRow, prepared and
# unprepared), the flussql wire Lookuper, and the official Java client's Lookuper (with
# client.lookup.batch-timeout=1ms, and with its defaults), at 1, 16 and 64 callers; ROUNDS
# interleaved rounds (so that the machine's load hits every side), every lookup checked
# (score = id * 7). Prints one table of medians, ± half the range, and the ratios to Java
# (1 ms). `make bench-compare` starts a local cluster and runs it.
#
#   FLUSS_BOOTSTRAP_SERVERS=127.0.0.1:9123 testdata/bench/compare_lookups.sh
#
# Needs go, java, javac and mvn (the Java client of the server's release line, FLUSS_JAVA_CLIENT,
# default 0.9.1-incubating, is resolved into ~/.m2; the program is compiled into the flussql cache).
set -euo pipefail
: "${FLUSS_BOOTSTRAP_SERVERS:?set FLUSS_BOOTSTRAP_SERVERS to a Fluss cluster (make cluster-up prints one)}"
ROUNDS=${ROUNDS:-3}
N=${LOOKUPS:-5000}
KEYS=10000
client=${FLUSS_JAVA_CLIENT:-0.9.1-incubating}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cd "$root"

echo "== building (Go test binaries; Java program against fluss-client $client)" >&2
go test -c -o "$out/root.test" .
go test -c -o "$out/fluss.test" ./fluss/
. testdata/bench/java_bench.sh

echo "== the Java side's table: $KEYS keys written with flussql" >&2
db=bench_java_$$
{
	echo "CREATE DATABASE $db;"
	echo "CREATE TABLE $db.kv (id INT, name STRING, score BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '4');"
	printf "UPSERT INTO $db.kv VALUES "
	for ((i = 0; i < KEYS; i++)); do
		[ $i -gt 0 ] && printf ", "
		printf "(%d, 'name', %d)" $i $((i * 7))
	done
	echo ";"
} > "$out/prepare.sql"
go run ./cmd/flussql --dsn "fluss://$FLUSS_BOOTSTRAP_SERVERS/fluss" -f "$out/prepare.sql" > /dev/null
cleanup() { go run ./cmd/flussql --dsn "fluss://$FLUSS_BOOTSTRAP_SERVERS/fluss" -e "DROP DATABASE IF EXISTS $db CASCADE" > /dev/null || true; rm -rf "$out"; }
trap cleanup EXIT

java_lookup() { # label timeout callers n
	local label=$1 timeout=$2 callers=$3 n=$4 props=()
	[ "$timeout" != default ] && props=(-Dclient.lookup.batch-timeout="$timeout")
	java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx512m -Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
		"${props[@]}" -cp "$jcp" flussql.interop.Bench lookup "$db" kv $KEYS "$callers" "$n" |
		sed "s/^/$label callers=$callers /"
}

for ((r = 1; r <= ROUNDS; r++)); do
	echo "== round $r of $ROUNDS" >&2
	for c in 1 16 64; do
		java_lookup java-1ms 1ms $c "$N" | tee -a "$out/results.txt" >&2
	done
	(cd "$root" && "$out/root.test" -test.run '^$' -test.bench '^BenchmarkLookupQueryRow$' -test.benchtime "${N}x") |
		grep '^Benchmark' | tee -a "$out/results.txt" >&2
	(cd "$root/fluss" && "$out/fluss.test" -test.run '^$' -test.bench '^BenchmarkLookup$' -test.benchtime "${N}x") |
		grep '^Benchmark' | tee -a "$out/results.txt" >&2
	# The default 100 ms batch timeout makes a lone caller wait ~100 ms per lookup: fewer lookups.
	java_lookup java-default default 1 50 | tee -a "$out/results.txt" >&2
	java_lookup java-default default 16 800 | tee -a "$out/results.txt" >&2
	java_lookup java-default default 64 3000 | tee -a "$out/results.txt" >&2
done

python3 - "$out/results.txt" <<'PY'
import collections, json, re, statistics, sys
res = collections.defaultdict(list)  # (side, callers) -> [(lookups/s, p99)]
for line in open(sys.argv[1]):
    m = re.match(r"(java-\w+) callers=(\d+) (\{.*\})", line)
    if m:
        j = json.loads(m.group(3))
        res[(m.group(1), int(m.group(2)))].append((j["lookups_per_s"], j["p99_ms"]))
        continue
    m = re.match(r"Benchmark(LookupQueryRow/prepared=(true|false)|Lookup)/callers=(\d+)-\d+\s.*?([\d.]+) lookups/s.*?([\d.]+) p99-ms", line)
    if m:
        side = {"true": "sql-prepared", "false": "sql-unprepared", None: "wire"}[m.group(2)]
        res[(side, int(m.group(3)))].append((float(m.group(4)), float(m.group(5))))
def med(xs):
    m = statistics.median(xs)
    return m, (max(xs) - min(xs)) / 2 / m * 100 if m else 0
sides = [("java-1ms", "Java Lookuper, batch-timeout 1 ms"), ("java-default", "Java Lookuper, defaults (100 ms)"),
         ("sql-prepared", "flussql QueryRow, prepared"), ("sql-unprepared", "flussql QueryRow, unprepared"),
         ("wire", "flussql wire Lookuper")]
print("| side | callers | lookups/s (median ± half range) | p99 ms | × Java 1 ms |")
print("| --- | ---: | ---: | ---: | ---: |")
for c in (1, 16, 64):
    base = res.get(("java-1ms", c))
    bm = med([x[0] for x in base])[0] if base else None
    for side, what in sides:
        xs = res.get((side, c))
        if not xs:
            continue
        m, s = med([x[0] for x in xs])
        p99 = statistics.median([x[1] for x in xs])
        ratio = f"{m / bm:.2f}×" if bm else "–"
        print(f"| {what} | {c} | {m:,.0f} ± {s:.0f} % | {p99:.1f} | {ratio} |")
PY
