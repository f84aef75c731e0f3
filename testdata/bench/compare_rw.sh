#!/usr/bin/env bash
# Writes and scans side by side on one cluster (issue 16's W1–W4): the official Java client
# (testdata/interop/java, Bench append|upsert|scan), pyfluss (pyfluss_rw.py) and flussql through
# database/sql and through its wire API (testdata/bench/rw). ROUNDS interleaved rounds; every
# workload runs in a process of its own (its peak RSS is measured with /usr/bin/time) on a fresh
# table, and every table written is read back afterwards by flussql's wire scanner or lookups
# (N+1 rows, every id once, every name and value) — a run that loses or doubles a row fails.
#
#   W1 append N rows row by row   Java AppendWriter, pyfluss append(dict), flussql prepared
#                                 INSERT in transactions of 100,000 rows, wire Append
#   W1v the same N rows as multi-row INSERT … VALUES of 1,000 rows per Exec (flussql
#                                 database/sql only; compared with W1's official clients)
#   W2 Arrow append N rows        pyfluss write_arrow_batch, flussql AppendArrowReader (Raw), wire
#                                 AppendRecordBatch; batches of 65,536 rows (Java has no Arrow API)
#   W3 scan N rows, sum a column  Java LogScanner, pyfluss to_arrow, flussql Next+Scan,
#                                 QueryArrow, wire LogScanner
#   W4 upsert N/10 keys           Java UpsertWriter, pyfluss upsert, flussql prepared INSERT in
#                                 one transaction, wire UpsertWriter
#
#   FLUSS_BOOTSTRAP_SERVERS=127.0.0.1:9123 testdata/bench/compare_rw.sh [N]
#
# N defaults to 1,000,000. ONLY=W4 runs only the workloads matching that regular expression;
# KEEP=1 keeps the database (its name is printed) for a look afterwards. Row i = (i, "name-"+i, i*1000003), 4 buckets. Needs go, java, javac,
# mvn, python3 with pyfluss (pip install -r testdata/interop/requirements.txt) and /usr/bin/time.
set -euo pipefail
: "${FLUSS_BOOTSTRAP_SERVERS:?set FLUSS_BOOTSTRAP_SERVERS to a Fluss cluster (make cluster-up prints one)}"
N=${1:-1000000}
NKV=$((N / 10))
ROUNDS=${ROUNDS:-3}
client=${FLUSS_JAVA_CLIENT:-0.9.1-incubating}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mktemp -d)
cd "$root"

echo "== building (testdata/bench/rw; Java program against fluss-client $client)" >&2
go build -o "$out/rw" ./testdata/bench/rw
. testdata/bench/java_bench.sh
db=bench_rw_$$
echo "== database $db" >&2
cleanup() { [ -n "${KEEP:-}" ] || "$out/rw" drop-db "$db" - 1 > /dev/null || true; rm -rf "$out"; }
trap cleanup EXIT

java_bench=(java --add-opens=java.base/java.nio=ALL-UNNAMED -Xmx2g -Dorg.slf4j.simpleLogger.defaultLogLevel=warn -cp "$jcp" flussql.interop.Bench)
seq=0
# measure W SIDE KIND ROWS VERIFY CMD…: a fresh table of KIND (log|pk, "-" for the scan table),
# CMD timed in a process of its own, the table checked with VERIFY (verify-log|verify-kv|-).
measure() {
	local w=$1 side=$2 kind=$3 rows=$4 verify=$5 table
	shift 5
	[[ $w =~ ${ONLY:-.} ]] || return 0
	if [ "$kind" = - ]; then
		table=scan
	else
		seq=$((seq + 1))
		table=t$seq
		"$out/rw" "create-$kind" "$db" "$table" 1 > /dev/null
	fi
	local args=("$@")
	args=("${args[@]//@TABLE@/$table}")
	/usr/bin/time -f %M -o "$out/rss" "${args[@]}" > "$out/one.json"
	if [ "$verify" != - ]; then
		"$out/rw" "$verify" "$db" "$table" "$rows" > /dev/null
	fi
	printf '%s %s %s %s\n' "$w" "$side" "$(cat "$out/rss")" "$(tail -n 1 "$out/one.json")" | tee -a "$out/results.txt" >&2
}

echo "== the scan table: $N rows (+1) written with the wire Arrow path and checked" >&2
"$out/rw" create-log "$db" scan 1 > /dev/null
"$out/rw" arrow-wire "$db" scan "$N" > /dev/null
"$out/rw" verify-log "$db" scan "$N" > /dev/null
# The sum as the sides compute it: in 64-bit integers, wrapping (from ~4.3M rows on).
want_sum=$(python3 -c "n=$N+1; s=1000003*n*(n-1)//2; print((s + 2**63) % 2**64 - 2**63)")

for ((r = 1; r <= ROUNDS; r++)); do
	echo "== round $r of $ROUNDS" >&2
	measure W1 java log "$N" verify-log "${java_bench[@]}" append "$db" @TABLE@ "$N"
	measure W1 pyfluss log "$N" verify-log python3 testdata/bench/pyfluss_rw.py append "$db" @TABLE@ "$N"
	measure W1 sql log "$N" verify-log "$out/rw" append-sql "$db" @TABLE@ "$N"
	measure W1 wire log "$N" verify-log "$out/rw" append-wire "$db" @TABLE@ "$N"
	measure W1v sql log "$N" verify-log "$out/rw" values-sql "$db" @TABLE@ "$N"
	measure W2 pyfluss log "$N" verify-log python3 testdata/bench/pyfluss_rw.py arrow "$db" @TABLE@ "$N"
	measure W2 sql log "$N" verify-log "$out/rw" arrow-sql "$db" @TABLE@ "$N"
	measure W2 wire log "$N" verify-log "$out/rw" arrow-wire "$db" @TABLE@ "$N"
	measure W3 java - - - "${java_bench[@]}" scan "$db" @TABLE@ "$((N + 1))"
	measure W3 pyfluss - - - python3 testdata/bench/pyfluss_rw.py scan "$db" @TABLE@ "$((N + 1))"
	measure W3 sql - - - "$out/rw" scan-sql "$db" @TABLE@ "$N"
	measure W3 arrow - - - "$out/rw" scan-arrow "$db" @TABLE@ "$N"
	measure W3 wire - - - "$out/rw" scan-wire "$db" @TABLE@ "$N"
	measure W4 java pk "$NKV" verify-kv "${java_bench[@]}" upsert "$db" @TABLE@ "$NKV"
	# pyfluss 1.0.0 puts keys in other buckets than the Java client does (README, "pyfluss
	# interop"): lookups cannot find them, so its upserts are checked in the table's changelog.
	measure W4 pyfluss pk "$NKV" verify-log python3 testdata/bench/pyfluss_rw.py upsert "$db" @TABLE@ "$NKV"
	measure W4 sql pk "$NKV" verify-kv "$out/rw" upsert-sql "$db" @TABLE@ "$NKV"
	measure W4 wire pk "$NKV" verify-kv "$out/rw" upsert-wire "$db" @TABLE@ "$NKV"
done

python3 - "$out/results.txt" "$N" "$want_sum" <<'PY'
import collections, json, statistics, sys
n, want_sum = int(sys.argv[2]), int(sys.argv[3])
res = collections.defaultdict(list)  # (workload, side) -> [(rows/s, rss MiB)]
for line in open(sys.argv[1]):
    w, side, rss, js = line.split(" ", 3)
    j = json.loads(js)
    if w == "W3":  # every scan must read the whole table and sum it right
        if j["rows"] != n + 1 or (j["sum"] + 2**63) % 2**64 - 2**63 != want_sum:
            sys.exit(f"{side} scan read {j['rows']} rows summing {j['sum']}; want {n + 1} and {want_sum}")
    res[(w, side)].append((j["rows_per_s"], int(rss) / 1024))
names = {"W1": f"W1 append {n:,} rows row by row", "W1v": f"W1v append {n:,} rows, multi-row VALUES of 1,000", "W2": f"W2 Arrow append {n:,} rows",
         "W3": f"W3 scan {n + 1:,} rows, sum a column", "W4": f"W4 upsert {n // 10:,} keys"}
sides = [("java", "Java client"), ("pyfluss", "pyfluss"), ("sql", "flussql database/sql"),
         ("arrow", "flussql QueryArrow"), ("wire", "flussql wire API")]
def med(xs):
    m = statistics.median(xs)
    return m, (max(xs) - min(xs)) / 2 / m * 100 if m else 0
print("| workload | side | rows/s (median ± half range) | × Java | × pyfluss | peak RSS MiB |")
print("| --- | --- | ---: | ---: | ---: | ---: |")
for w in ("W1", "W1v", "W2", "W3", "W4"):
    bw = "W1" if w == "W1v" else w  # W1v is compared with W1's official clients
    base = {s: med([x[0] for x in res[(bw, s)]])[0] for s in ("java", "pyfluss") if res.get((bw, s))}
    for side, what in sides:
        xs = res.get((w, side))
        if not xs:
            continue
        m, spread = med([x[0] for x in xs])
        rss = statistics.median([x[1] for x in xs])
        rj = f"{m / base['java']:.2f}×" if "java" in base else "–"
        rp = f"{m / base['pyfluss']:.2f}×" if "pyfluss" in base else "–"
        print(f"| {names[w]} | {what} | {m:,.0f} ± {spread:.0f} % | {rj} | {rp} | {rss:.0f} |")
PY
