// Package flussotel instruments flussql and its wire client with
// OpenTelemetry: a span per statement (flussql.Tracer) and metrics of the
// wire client (fluss.Observer) — requests, their duration and bytes,
// retries and write batches in flight.
//
// It is its own module (github.com/flussql/flussql/flussotel) so that the
// driver does not depend on OpenTelemetry. Use it through Instrument:
//
//	cfg, _ := flussql.ParseDSN("fluss://127.0.0.1:9123/fluss")
//	if err := flussotel.Instrument(cfg); err != nil { … } // global providers
//	connector, _ := flussql.NewConnector(cfg)
//	db := sql.OpenDB(connector)
//
// Spans are named after the statement's first keyword ("SELECT", "INSERT",
// "CREATE", …), of kind client, with the attributes db.system.name
// ("fluss"), db.operation.name, db.query.text (unless WithoutQueryText),
// flussql.plan (what ran: "Write", "Lookup", "Scan", …) and
// db.response.returned_rows (rows returned or written); a failed statement
// records its error and sets the span's status to Error.
//
// Metrics (instrumentation scope github.com/flussql/flussql/flussotel):
//
//	fluss.client.requests              counter        fluss.api, server.address, error.type (on failure)
//	fluss.client.request.duration      histogram (s)  fluss.api
//	fluss.client.request.sent          counter (By)   fluss.api
//	fluss.client.response.received     counter (By)   fluss.api
//	fluss.client.retries               counter        fluss.retry.operation
//	fluss.client.write.batches_in_flight  up-down counter
//
// error.type is the Fluss error name (e.g. "NETWORK_EXCEPTION",
// "REQUEST_TIME_OUT") or "_OTHER".
package flussotel
