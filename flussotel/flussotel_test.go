package flussotel

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
)

// providers returns an in-memory span recorder and a manual metric reader with their
// providers.
func providers() (*tracetest.SpanRecorder, *sdkmetric.ManualReader, []Option) {
	rec := tracetest.NewSpanRecorder()
	reader := sdkmetric.NewManualReader()
	return rec, reader, []Option{
		WithTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))),
		WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
	}
}

func attrsOf(kvs []attribute.KeyValue) map[string]string {
	out := map[string]string{}
	for _, kv := range kvs {
		out[string(kv.Key)] = kv.Value.String()
	}
	return out
}

// sums collects every Int64 sum by metric name and the attribute set's rendering.
func sums(t *testing.T, reader *sdkmetric.ManualReader) map[string]map[string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(context.Background(), &rm))
	out := map[string]map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		assert.Equal(t, scope, sm.Scope.Name)
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					if out[m.Name] == nil {
						out[m.Name] = map[string]int64{}
					}
					out[m.Name][p.Attributes.Encoded(attribute.DefaultEncoder())] += p.Value
				}
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					if out[m.Name] == nil {
						out[m.Name] = map[string]int64{}
					}
					out[m.Name][p.Attributes.Encoded(attribute.DefaultEncoder())] += int64(p.Count)
				}
			}
		}
	}
	return out
}

func total(m map[string]int64, filter string) int64 {
	var n int64
	for k, v := range m {
		if strings.Contains(k, filter) {
			n += v
		}
	}
	return n
}

func TestOperationName(t *testing.T) {
	for sql, want := range map[string]string{
		"SELECT 1":                          "SELECT",
		"  insert into t values (1)":        "INSERT",
		"-- note\n/* hint */ upsert INTO t": "UPSERT",
		"/*+ OPTIONS() */SELECT":            "SELECT",
		"":                                  "",
		"-- only a comment":                 "",
	} {
		assert.Equal(t, want, operationName(sql), sql)
	}
}

// TestTracerAndObserverUnit drives the hooks directly, as the driver and the wire client
// call them.
func TestTracerAndObserverUnit(t *testing.T) {
	rec, reader, opts := providers()
	tr := NewTracer(opts...)
	ctx := tr.TraceStatementStart(context.Background(), flussql.TraceStart{SQL: "SELECT * FROM t WHERE id = ?", Args: 1, Query: true})
	tr.TraceStatementEnd(ctx, flussql.TraceEnd{SQL: "SELECT * FROM t WHERE id = ?", Plan: "Lookup", Rows: 1, Duration: time.Millisecond})
	failed := errors.New("boom")
	ctx = NewTracer(append(opts, WithoutQueryText())...).TraceStatementStart(context.Background(), flussql.TraceStart{SQL: "INSERT INTO t VALUES ('secret')"})
	NewTracer(opts...).TraceStatementEnd(ctx, flussql.TraceEnd{Err: failed})

	spans := rec.Ended()
	require.Len(t, spans, 2)
	assert.Equal(t, "SELECT", spans[0].Name())
	a := attrsOf(spans[0].Attributes())
	assert.Equal(t, "fluss", a["db.system.name"])
	assert.Equal(t, "SELECT * FROM t WHERE id = ?", a["db.query.text"])
	assert.Equal(t, "Lookup", a["flussql.plan"])
	assert.Equal(t, "1", a["db.response.returned_rows"])
	assert.Equal(t, codes.Unset, spans[0].Status().Code)
	assert.Equal(t, "INSERT", spans[1].Name())
	assert.NotContains(t, attrsOf(spans[1].Attributes()), "db.query.text", "WithoutQueryText")
	assert.Equal(t, codes.Error, spans[1].Status().Code)
	assert.Equal(t, "boom", spans[1].Status().Description)

	obs, err := NewObserver(opts...)
	require.NoError(t, err)
	obs.RequestDone(fluss.RequestEvent{Server: "127.0.0.1:1", API: "PRODUCE_LOG", BytesSent: 100, BytesReceived: 20, Duration: time.Millisecond})
	obs.RequestDone(fluss.RequestEvent{Server: "127.0.0.1:1", API: "PRODUCE_LOG", BytesSent: 50, Err: &fluss.Error{Code: flusserr.NetworkException}})
	obs.Retried(fluss.RetryEvent{Op: "write", Table: "db.t", Attempt: 1})
	obs.WriteBatchesInFlight(1)
	obs.WriteBatchesInFlight(1)
	obs.WriteBatchesInFlight(-1)
	m := sums(t, reader)
	assert.Equal(t, int64(2), total(m["fluss.client.requests"], "fluss.api=PRODUCE_LOG"))
	assert.Equal(t, int64(1), total(m["fluss.client.requests"], "error.type=NETWORK_EXCEPTION"))
	assert.Equal(t, int64(150), total(m["fluss.client.request.sent"], ""))
	assert.Equal(t, int64(20), total(m["fluss.client.response.received"], ""))
	assert.Equal(t, int64(2), total(m["fluss.client.request.duration"], ""), "two durations recorded")
	assert.Equal(t, int64(1), total(m["fluss.client.retries"], "fluss.retry.operation=write"))
	assert.Equal(t, int64(1), total(m["fluss.client.write.batches_in_flight"], ""))
}

// TestInstrumentedDriver runs statements through an instrumented connector against the
// real cluster: one span per statement, and the wire client's requests in the metrics.
func TestInstrumentedDriver(t *testing.T) {
	addrs := os.Getenv("FLUSS_BOOTSTRAP_SERVERS")
	if addrs == "" {
		t.Skip("FLUSS_BOOTSTRAP_SERVERS is unset: integration tests need a Fluss cluster (make test starts one)")
	}
	rec, reader, opts := providers()
	cfg, err := flussql.ParseDSN("fluss://" + addrs + "/fluss")
	require.NoError(t, err)
	require.NoError(t, Instrument(cfg, opts...))
	connector, err := flussql.NewConnector(cfg)
	require.NoError(t, err)
	db := sql.OpenDB(connector)
	defer db.Close()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dbName := fmt.Sprintf("otel_%d", time.Now().UnixNano()%1e9)
	_, err = db.ExecContext(ctx, "CREATE DATABASE "+dbName)
	require.NoError(t, err)
	defer db.Exec("DROP DATABASE " + dbName + " CASCADE")
	_, err = db.ExecContext(ctx, "CREATE TABLE "+dbName+".t (id INT, v STRING) WITH ('bucket.num' = '2')")
	require.NoError(t, err)
	_, err = db.ExecContext(ctx, "INSERT INTO "+dbName+".t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	require.NoError(t, err)
	var n int
	require.NoError(t, db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+dbName+".t").Scan(&n))
	assert.Equal(t, 3, n)
	_, err = db.ExecContext(ctx, "INSERT INTO "+dbName+".nosuch VALUES (1)")
	require.Error(t, err)

	byName := map[string][]sdktrace.ReadOnlySpan{}
	for _, s := range rec.Ended() {
		byName[s.Name()] = append(byName[s.Name()], s)
	}
	require.Len(t, byName["INSERT"], 2)
	ok, bad := byName["INSERT"][0], byName["INSERT"][1]
	assert.Equal(t, "Write", attrsOf(ok.Attributes())["flussql.plan"])
	assert.Equal(t, "3", attrsOf(ok.Attributes())["db.response.returned_rows"])
	assert.Equal(t, codes.Error, bad.Status().Code)
	assert.Contains(t, bad.Status().Description, "does not exist")
	require.Len(t, byName["SELECT"], 1)
	assert.Equal(t, "1", attrsOf(byName["SELECT"][0].Attributes())["db.response.returned_rows"])

	m := sums(t, reader)
	assert.Positive(t, total(m["fluss.client.requests"], "fluss.api=PRODUCE_LOG"), "the INSERT's produce requests are counted")
	assert.Positive(t, total(m["fluss.client.requests"], "fluss.api=CREATE_TABLE"))
	assert.Positive(t, total(m["fluss.client.request.sent"], "fluss.api=PRODUCE_LOG"))
	assert.Positive(t, total(m["fluss.client.response.received"], "fluss.api=FETCH_LOG"), "the SELECT's scan fetched")
	assert.Equal(t, int64(0), total(m["fluss.client.write.batches_in_flight"], ""), "every batch sent is done")
}
