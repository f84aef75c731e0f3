package flussotel

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/flussql/flussql/fluss"
)

// observer is a fluss.Observer that records OpenTelemetry metrics.
type observer struct {
	requests metric.Int64Counter
	duration metric.Float64Histogram
	sent     metric.Int64Counter
	received metric.Int64Counter
	retries  metric.Int64Counter
	inFlight metric.Int64UpDownCounter
}

// NewObserver returns a fluss.Observer that records the wire client's
// metrics (see the package documentation) on the meter provider.
func NewObserver(opts ...Option) (fluss.Observer, error) {
	m := newOptions(opts).mp.Meter(scope)
	var o observer
	var errs []error
	add := func(err error) { errs = append(errs, err) }
	var err error
	o.requests, err = m.Int64Counter("fluss.client.requests", metric.WithDescription("Requests sent to Fluss servers."), metric.WithUnit("{request}"))
	add(err)
	o.duration, err = m.Float64Histogram("fluss.client.request.duration", metric.WithDescription("Time from a request to its outcome."), metric.WithUnit("s"))
	add(err)
	o.sent, err = m.Int64Counter("fluss.client.request.sent", metric.WithDescription("Bytes of request frames written."), metric.WithUnit("By"))
	add(err)
	o.received, err = m.Int64Counter("fluss.client.response.received", metric.WithDescription("Bytes of response frames read."), metric.WithUnit("By"))
	add(err)
	o.retries, err = m.Int64Counter("fluss.client.retries", metric.WithDescription("Work retried after a retriable failure."), metric.WithUnit("{retry}"))
	add(err)
	o.inFlight, err = m.Int64UpDownCounter("fluss.client.write.batches_in_flight", metric.WithDescription("Write batches handed to a bucket's sender and not yet done."), metric.WithUnit("{batch}"))
	add(err)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &o, nil
}

// RequestDone counts the request, its bytes and its duration.
func (o *observer) RequestDone(ev fluss.RequestEvent) {
	ctx := context.Background()
	api := attribute.String("fluss.api", ev.API)
	attrs := []attribute.KeyValue{api, attribute.String("server.address", ev.Server)}
	if ev.Err != nil {
		attrs = append(attrs, attribute.String("error.type", errorType(ev.Err)))
	}
	o.requests.Add(ctx, 1, metric.WithAttributes(attrs...))
	o.duration.Record(ctx, ev.Duration.Seconds(), metric.WithAttributes(api))
	if ev.BytesSent > 0 {
		o.sent.Add(ctx, int64(ev.BytesSent), metric.WithAttributes(api))
	}
	if ev.BytesReceived > 0 {
		o.received.Add(ctx, int64(ev.BytesReceived), metric.WithAttributes(api))
	}
}

// Retried counts the retry.
func (o *observer) Retried(ev fluss.RetryEvent) {
	o.retries.Add(context.Background(), 1, metric.WithAttributes(attribute.String("fluss.retry.operation", ev.Op)))
}

// WriteBatchesInFlight moves the in-flight gauge.
func (o *observer) WriteBatchesInFlight(delta int) {
	o.inFlight.Add(context.Background(), int64(delta))
}

// errorType is the Fluss error name of err, or "_OTHER".
func errorType(err error) string {
	var fe *fluss.Error
	if errors.As(err, &fe) {
		return fe.Name()
	}
	return "_OTHER"
}
