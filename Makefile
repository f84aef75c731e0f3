# flussql — developer tasks. Needs Go 1.26, Java 17+ and Maven (jars are fetched into
# ~/.cache/flussql, or $FLUSSQL_CACHE, never into the repository).

GO            ?= go
# The pinned Fluss server release lives in fluss/localcluster (DefaultVersion); set
# FLUSS_VERSION to run another one, e.g. `make test FLUSS_VERSION=0.9.1-incubating`.
FLUSS_VERSION ?=
export FLUSS_VERSION
# The second server `make test` runs: the 1.0 protocol, built from source (Maven Central does
# not serve a 1.0 server), from ../shared/fluss-server/$(FLUSS_VERSION_NEXT)/ beside the
# repository, or $$FLUSS_SERVER_DIR/$(FLUSS_VERSION_NEXT)/. NEXT_PKGS are the packages run
# against it.
FLUSS_VERSION_NEXT ?= 1.0-SNAPSHOT
# PKGS: every package of the driver's module (the fault tests, which start their own cluster,
# are a module of their own: RELIABILITY_DIR, see reliability-short).
PKGS          = $(shell $(GO) list ./...)
# NEXT_PKGS: the packages whose tests talk to a server (they import fluss/flusstest/realcluster
# or fluss/localcluster); the others (parser, planner's unit half, engine, codecs, …) give the
# same answers whatever the server and ran once already in `integration`.
NEXT_PKGS     ?= $(shell $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | awk '/flusstest\/realcluster|fluss\/localcluster/ {print $$1}')
SASL_USER     ?= admin
SASL_PASSWORD ?= admin-secret
FUZZTIME      ?= 10s
# Minimizing each new "interesting" input can take the whole FUZZTIME (up to Go's default 60 s):
# with it, FuzzDecodeFetchedRecords spent 10 s minimizing its seeds, ran 55 inputs, and on a loaded
# machine ended in "context deadline exceeded". Short runs skip minimization; a crashing input is
# still written, only not shrunk (rerun with FUZZMINTIME=60s to shrink it).
FUZZMINTIME   ?= 0
CLUSTER       := $(GO) run ./cmd/fluss-local-cluster
# staticcheck runs in `make vet`; `make staticcheck` installs this version of it.
STATICCHECK_VERSION ?= v0.8.2
STATICCHECK   ?= $(shell $(GO) env GOPATH)/bin/staticcheck
# FLINK=1: `make integration` also starts a local Flink with a SQL Gateway beside the plain
# cluster (the Flink tests then run among the others). `make test` runs them on their own
# instead (flink-differential), so that Flink's JVMs do not compete with the other packages.
FLINK         ?=
INTEGRATION_FLAGS = $(if $(filter 1,$(FLINK)),-flink)
# The OpenTelemetry adapter: a module of its own so that the driver does not depend on it.
OTEL_DIR      = flussotel
# The golang-migrate driver: a module of its own so that the driver does not depend on migrate.
MIGRATE_DIR   = flussmigrate
# The GORM dialector and migrator: a module of its own for the same reason.
GORM_DIR      = flussgorm
# The lake readers (Iceberg through iceberg-go, Paimon its own over twmb/avro and pqarrow): a module of their own so that a consumer of the
# driver does not get iceberg-go's graph (80 → 304 modules, cloud SDKs among them); they register by import.
LAKE_DIR      = flusslake
# The fault tests: a module of their own so that their test-only dependency (porcupine, the
# linearizability checker) is not in the module graph of the driver's consumers.
RELIABILITY_DIR = reliability
# RELIABILITY_RUN: a -run pattern for reliability-short, reliability and reliability-next
# (e.g. RELIABILITY_RUN=Linearizable); empty runs every fault test.
RELIABILITY_RUN ?=
RELIABILITY_FLAGS = $(if $(RELIABILITY_RUN),-run '$(RELIABILITY_RUN)')

.PHONY: readme-functions all build vet staticcheck test flink-differential lake-test lake-long flink-oracle-long unit bench-compare bench-scale bench-build tpch integration integration-next suite reliability-short reliability-next reliability-repro fetch fuzz reliability cluster-up cluster-down flink-up flink-down proto bench demo consumer-graph tidy

all: build

build:
	$(GO) build ./...

vet:
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed on:"; gofmt -l $$(git ls-files '*.go'); exit 1; }
	$(GO) vet ./...
	cd $(OTEL_DIR) && $(GO) vet ./...
	cd $(MIGRATE_DIR) && $(GO) vet ./...
	cd $(GORM_DIR) && $(GO) vet ./...
	cd $(LAKE_DIR) && $(GO) vet ./...
	cd $(RELIABILITY_DIR) && $(GO) vet ./...
	$(STATICCHECK) ./...
	cd $(OTEL_DIR) && $(STATICCHECK) ./...
	cd $(MIGRATE_DIR) && $(STATICCHECK) ./...
	cd $(GORM_DIR) && $(STATICCHECK) ./...
	cd $(LAKE_DIR) && $(STATICCHECK) ./...
	cd $(RELIABILITY_DIR) && $(STATICCHECK) ./...

## staticcheck: installs the pinned staticcheck that `make vet` runs (into $(GOPATH)/bin).
staticcheck:
	GOFLAGS= $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)

## test: vet, then every test (unit and integration) against fresh local clusters — a plain
## one and a SASL one — of the pinned release (integration), then NEXT_PKGS against clusters of
## FLUSS_VERSION_NEXT (integration-next), then the short profile of the fault tests
## (reliability-short: package reliability on a 3-tablet-server cluster of its own, run alone
## so that its deadline checks do not compete with other packages for the CPU), then a short
## run of every fuzz target.
test: vet bench-build
	$(MAKE) integration
	$(MAKE) integration-next
	$(MAKE) flink-differential
	$(MAKE) lake-test
	$(MAKE) lake-test LAKE=paimon
	$(MAKE) reliability-short
	$(MAKE) fuzz

## integration: every test but the fault tests against a plain and a SASL cluster of the pinned
## release (or FLUSS_VERSION).
integration:
	$(CLUSTER) run -sasl $(SASL_USER):$(SASL_PASSWORD) $(INTEGRATION_FLAGS) -- $(MAKE) --no-print-directory suite

## integration-next: NEXT_PKGS against a plain and a SASL cluster of FLUSS_VERSION_NEXT.
integration-next:
	FLUSS_VERSION=$(FLUSS_VERSION_NEXT) $(CLUSTER) run -sasl $(SASL_USER):$(SASL_PASSWORD) -- $(MAKE) --no-print-directory suite SUITE_PKGS="$(NEXT_PKGS)"

## suite: what integration and integration-next run inside their clusters: SUITE_PKGS, then
## the OpenTelemetry module (OTEL_DIR, its own go.mod) and the GORM module (GORM_DIR, its own go.mod). One package at a time (SUITE_P): the
## packages share the cluster's one coordinator and tablet server and the machine's two cores,
## and run side by side the root package's queries and the fluss package's failover tests
## (3-second deadlines on clusters of their own) starved each other — a table created by one
## waited over 30 s for its bucket leaders while the others created and dropped theirs.
SUITE_PKGS ?= $(PKGS)
SUITE_P    ?= 1
suite:
	$(GO) test -count=1 -p $(SUITE_P) -timeout 20m $(SUITE_PKGS)
	cd $(OTEL_DIR) && $(GO) test -count=1 -timeout 5m ./...
	cd $(MIGRATE_DIR) && $(GO) test -count=1 -p 1 -timeout 5m ./...
	cd $(GORM_DIR) && $(GO) test -count=1 -timeout 5m ./...
	cd $(LAKE_DIR) && $(GO) test -count=1 -timeout 5m ./...

## flink-differential: a fresh cluster of the pinned release with a local Flink (JobManager,
## TaskManager, SQL Gateway) beside it, and only the tests that need Flink: flussql against
## Flink SQL (TestFlinkDifferential, the short set of TestFlinkOracle) and the gateway client
## (internal/flinkgw); about 2 minutes.
flink-differential:
	$(CLUSTER) run -flink -- $(GO) test -count=1 -timeout 10m -run 'Flink|Gateway' . ./internal/flinkgw/

## lake-test: a fresh cluster of the pinned release made a local lakehouse (LAKE, default
## iceberg: the lake plugin in the servers' plugin folder, the warehouse under the run folder)
## with a local Flink running Fluss's tiering service, and only the tests that need it
## (TestLake…: rows written by flussql, tiered by Fluss, the lake snapshot's offsets and the
## lake table in the warehouse; in LAKE_DIR, the union read and t$lake through flusslake, first:
## a dropped table that the tiering service is tiering makes it fail for good, and the root
## package's tests drop their databases). A cluster of its own: every table of a lakehouse cluster
## gets 'table.datalake.format', which the other tests do not expect. About a minute.
## LAKE=paimon: the same tests on Paimon (and TestLakePaimonPrimaryKeyMerge), a step of `make
## test` too: 173 s at load 12 on this 2-core machine (clusters 92 s, tests 31 s + 27 s), against
## 180 s for LAKE=iceberg in the same conditions.
LAKE ?= iceberg
lake-test:
	$(CLUSTER) run -flink -lake $(LAKE) -- sh -c "cd $(LAKE_DIR) && $(GO) test -count=1 -timeout 5m -run 'Lake' ./... && cd .. && $(GO) test -count=1 -timeout 5m -run 'Lake' ."

## lake-long: the lake tests of LAKE_DIR with FLUSSQL_LAKE_LONG=1 on a fresh lakehouse (LAKE,
## default iceberg): also the parts that wait for more than one round of tiering (a
## primary-key table's changes tiered: Iceberg's equality deletes, Paimon's newer files;
## reads while the table is written and tiered), the Flink oracle of the union read
## (Flink's batch read of a log table; of a primary-key table, its streaming read on Iceberg,
## its batch read on Paimon; against flussql's), and (Iceberg) a table whose first rows
## expired from Fluss ('table.log.ttl' 1 s: the servers roll 64 KiB segments and tier them
## every second; the union read still returns every row once, as Flink's). A few minutes.
lake-long:
	$(CLUSTER) run -flink -lake $(LAKE) -server-option log.segment.file-size=64kb -server-option remote.log.task-interval-duration=1s -- sh -c "cd $(LAKE_DIR) && FLUSSQL_LAKE_LONG=1 $(GO) test -count=1 -timeout 10m -run 'Lake' ./..."

## flink-oracle-long: the Flink tests of flink-differential with FLUSS_FLINK_LONG=1: every
## statement of TestFlinkOracle (not only the short set) and the generated grid of operators,
## functions and CASTs × argument columns, checked against testdata/flink/grid-differences.txt
## (rewrite it with FLINK_ORACLE_FLAGS=-update-flink-grid); several hundred Flink jobs.
flink-oracle-long:
	$(CLUSTER) run -flink -- env FLUSS_FLINK_LONG=1 $(GO) test -count=1 -timeout 90m -run 'Flink' . $(FLINK_ORACLE_FLAGS)

## reliability-short: the short profile of the fault tests (make reliability: the long one),
## on the pinned release (or FLUSS_VERSION), the linearizability check (one run) among them.
reliability-short:
	cd $(RELIABILITY_DIR) && FLUSS_BOOTSTRAP_SERVERS=own $(GO) test -count=1 -timeout 15m $(RELIABILITY_FLAGS) ./...

## reliability-repro: the reproductions of server anomalies (TestRepro…, issue 30) on the pinned
## release (or FLUSS_VERSION); each fails where the server has its anomaly. Not in make test.
## FLUSS_RELIABILITY_KEEP_DIR=<dir> keeps the cluster's folder with every server's log (any
## reliability target); FLUSS_RELIABILITY_REPRO_ROUNDS the rounds of TestReproFrozenLeaderPastSession.
reliability-repro:
	cd $(RELIABILITY_DIR) && FLUSS_BOOTSTRAP_SERVERS=own FLUSS_RELIABILITY_REPRO=1 $(GO) test -count=1 -timeout 15m -v -run 'TestRepro' ./...

## reliability-next: the short profile on FLUSS_VERSION_NEXT (1.0-SNAPSHOT; not in make test).
reliability-next:
	$(MAKE) --no-print-directory reliability-short FLUSS_VERSION=$(FLUSS_VERSION_NEXT)

## fetch: the jars of both servers `make test` runs (Maven, and the folder of server builds),
## Flink's with the Fluss connector (make flink-up, FLINK=1), and the lake plugins, Hadoop
## bundles and tiering service of the local lakehouse (make lake-test).
fetch:
	$(CLUSTER) fetch -flink -lake iceberg,paimon $(FLUSS_VERSION_NEXT)

## unit: the tests that need no cluster (integration tests skip without FLUSS_BOOTSTRAP_SERVERS).
unit:
	env -u FLUSS_BOOTSTRAP_SERVERS $(GO) test -count=1 ./...
	cd $(OTEL_DIR) && env -u FLUSS_BOOTSTRAP_SERVERS $(GO) test -count=1 ./...
	cd $(MIGRATE_DIR) && env -u FLUSS_BOOTSTRAP_SERVERS $(GO) test -count=1 ./...
	cd $(GORM_DIR) && env -u FLUSS_BOOTSTRAP_SERVERS $(GO) test -count=1 ./...
	cd $(LAKE_DIR) && env -u FLUSS_BOOTSTRAP_SERVERS $(GO) test -count=1 ./...
	cd $(RELIABILITY_DIR) && env -u FLUSS_BOOTSTRAP_SERVERS $(GO) test -count=1 ./...

## fuzz: every FuzzXxx target for FUZZTIME each (go test runs one fuzz target at a time).
## A failure that writes a crashing input under testdata/fuzz fails at once; a failure of the
## fuzzing engine itself (no input written: Go sometimes ends a run at its -fuzztime deadline
## with "context deadline exceeded") is printed and the target run again, up to 3 times.
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
	  dir=$$($(GO) list -f '{{.Dir}}' $$pkg); \
	  for f in $$(grep -ho '^func Fuzz[A-Za-z0-9_]*' $$dir/*_test.go 2>/dev/null | sed 's/func //'); do \
	    echo "fuzz $$pkg $$f ($(FUZZTIME))"; \
	    for attempt in 1 2 3; do \
	      before=$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l); \
	      if $(GO) test $$pkg -run '^$$' -fuzz "^$$f\$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINTIME) > .fuzz.log 2>&1; then break; fi; \
	      cat .fuzz.log; \
	      if [ "$$(ls $$dir/testdata/fuzz/$$f 2>/dev/null | wc -l)" != "$$before" ]; then echo "fuzz $$f found a failing input (see above)"; exit 1; fi; \
	      if [ $$attempt = 3 ]; then echo "fuzz $$f: the fuzzing engine failed 3 times without a failing input"; exit 1; fi; \
	      echo "fuzz $$f: the fuzzing engine failed without a failing input (attempt $$attempt of 3); running it again"; \
	    done; \
	  done; \
	done; rm -f .fuzz.log

## reliability: the long profile of the fault tests (package reliability starts its own
## 3-tablet-server cluster and kills, freezes and restarts its servers): longer fault windows
## and a 5-minute soak (FLUSS_RELIABILITY_SOAK=30m for longer), 6 runs of the linearizability
## check (FLUSS_RELIABILITY_LINEAR_RUNS=n for another number). Figures are appended to
## reliability-report.md. `make test` runs the short profile.
reliability:
	cd $(RELIABILITY_DIR) && FLUSS_BOOTSTRAP_SERVERS=own FLUSS_RELIABILITY=long FLUSS_RELIABILITY_REPORT=$(CURDIR)/reliability-report.md \
	  $(GO) test -count=1 -timeout 60m -v $(RELIABILITY_FLAGS) ./...

## cluster-up / cluster-down: a local cluster for development; up prints the bootstrap address
## and records what it started in .cluster/state.json so that down stops exactly that.
## CLUSTER_FLAGS='-sasl admin:pw,alice:pw -authorizer' starts one with SASL users and ACLs.
cluster-up:
	@$(CLUSTER) up -state .cluster/state.json $(CLUSTER_FLAGS)

cluster-down:
	@$(CLUSTER) down -state .cluster/state.json

## flink-up / flink-down: a local Flink (JobManager, TaskManager, SQL Gateway) with a Fluss
## catalog "fluss" for the cluster of cluster-up (started if it is not running), or for
## FLUSS=host:port; up prints the bootstrap and gateway addresses and records the Flink in
## .cluster/flink.json; flink-down stops only the Flink.
FLUSS ?=
flink-up:
	@$(CLUSTER) up -state .cluster/state.json -flink -flink-state .cluster/flink.json $(if $(FLUSS),-fluss $(FLUSS)) $(CLUSTER_FLAGS)

flink-down:
	@$(CLUSTER) down -flink-only -flink-state .cluster/flink.json

## readme-functions: rewrite the README's function table from the engine's function registry
## (TestFunctionTableInREADME fails when it is stale).
readme-functions:
	$(GO) test -count=1 -run TestFunctionTableInREADME ./engine -update-readme

## proto: regenerate the committed protobuf code (pinned protoc and protoc-gen-go).
proto:
	bash fluss/internal/protocol/generate.sh

## bench: Go benchmarks of the codecs and, against a local cluster, of the client.
bench:
	$(CLUSTER) run -- $(GO) test -run '^$$' -bench . -benchmem ./...

## bench-compare: one local cluster; flussql (database/sql and the wire API), the official Java
## client and pyfluss side by side, 3 interleaved rounds, every written row read back and checked:
## appends, Arrow appends, scans and upserts (testdata/bench/compare_rw.sh), then point lookups
## (testdata/bench/compare_lookups.sh).
bench-compare:
	$(CLUSTER) run -- bash -c 'testdata/bench/compare_rw.sh && testdata/bench/compare_lookups.sh'

## bench-scale: metadata load, time to the first row of a scan, scan rows/s and lookup latency
## on tables of 4, 256 and 1,000 partitions × 8 buckets (testdata/bench/scale), on one local
## cluster of SCALE_SERVERS tablet servers running Fluss 1.0 (full scans of primary-key tables
## need it). 8,000 buckets exceed Fluss's max.bucket.num (4096), hence the server option; a
## tablet server with 8,000 primary-key buckets needs ~56,000 open files, so with a 20,000 file
## limit use SCALE_SERVERS=3 or SCALE_FLAGS=-partitions=200.
SCALE_SERVERS ?= 1
SCALE_FLAGS   ?=
bench-scale:
	FLUSS_VERSION=$(or $(FLUSS_VERSION),$(FLUSS_VERSION_NEXT)) $(CLUSTER) run -tablet-servers $(SCALE_SERVERS) \
		-server-option max.bucket.num=16384 -server-option kv.rocksdb.writebuffer.size=4mb \
		-- $(GO) run ./testdata/bench/scale $(SCALE_FLAGS)

## tpch: the TPC-H benchmark (testdata/bench/tpch) on one local cluster: the eight tables at
## scale TPCH_SF (1 ≈ 8.7 million rows) loaded once, each of the 22 queries TPCH_RUNS times
## through flussql, the same columns read with QueryArrow, and SQLite (in memory) beside it.
## TestTPCH (in make test) checks the answers at scale 0.01.
TPCH_SF   ?= 1
TPCH_RUNS ?= 3
tpch:
	TPCH_SF=$(TPCH_SF) TPCH_RUNS=$(TPCH_RUNS) $(CLUSTER) run -- $(GO) run ./testdata/bench/tpch

## bench-build: what CI checks of the comparison harness without a cluster: the benchmarks
## compile, the scripts parse (the Java side compiles with the Java interop tests' program).
bench-build:
	$(GO) test -count=1 -run '^$$' -bench '^$$' . ./fluss/ > /dev/null
	$(GO) vet ./testdata/bench/rw && $(GO) build -o /dev/null ./testdata/bench/rw
	$(GO) vet ./testdata/bench/scale && $(GO) build -o /dev/null ./testdata/bench/scale
	$(GO) vet ./testdata/bench/tpch && $(GO) build -o /dev/null ./testdata/bench/tpch
	for f in testdata/bench/*.sh; do bash -n $$f || exit 1; done
	python3 -c 'import ast, sys; [ast.parse(open(f).read(), f) for f in sys.argv[1:]]' testdata/bench/*.py

## demo: the shell runs the seed's flow (testdata/demo/partitioned-tables.sql) on a local cluster.
demo:
	$(CLUSTER) run -- $(GO) run ./cmd/flussql --echo -f testdata/demo/partitioned-tables.sql

## consumer-graph: what an application that imports the driver gains (a fresh module in a temp
## folder, the module proxy of the environment): no GORM, OpenTelemetry or shell packages compiled,
## none in its module graph or go.sum (internal/consumergraph; it runs in make unit and test too).
consumer-graph:
	$(GO) test -count=1 -v -run TestConsumerGainsNothingItDoesNotUse ./internal/consumergraph/

tidy:
	$(GO) mod tidy
	cd $(OTEL_DIR) && $(GO) mod tidy
	cd $(MIGRATE_DIR) && $(GO) mod tidy
	cd $(GORM_DIR) && $(GO) mod tidy
	cd $(LAKE_DIR) && $(GO) mod tidy
	cd $(RELIABILITY_DIR) && $(GO) mod tidy
