package flussotel

import (
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/flussql/flussql"
)

// scope is the instrumentation scope of the tracer and the meter.
const scope = "github.com/flussql/flussql/flussotel"

// Option configures the tracer and the observer.
type Option func(*options)

type options struct {
	tp        trace.TracerProvider
	mp        metric.MeterProvider
	noQueries bool
}

// WithTracerProvider uses tp instead of the global tracer provider.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *options) { o.tp = tp }
}

// WithMeterProvider uses mp instead of the global meter provider.
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(o *options) { o.mp = mp }
}

// WithoutQueryText leaves the db.query.text attribute out of spans (for SQL
// that may carry sensitive literals; arguments bound to placeholders are
// never recorded either way).
func WithoutQueryText() Option {
	return func(o *options) { o.noQueries = true }
}

func newOptions(opts []Option) options {
	o := options{tp: otel.GetTracerProvider(), mp: otel.GetMeterProvider()}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// Instrument sets cfg's Tracer and Observer to OpenTelemetry ones. Call it
// before flussql.NewConnector(cfg).
func Instrument(cfg *flussql.Config, opts ...Option) error {
	obs, err := NewObserver(opts...)
	if err != nil {
		return err
	}
	cfg.Tracer = NewTracer(opts...)
	cfg.Observer = obs
	return nil
}
