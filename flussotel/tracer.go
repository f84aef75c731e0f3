package flussotel

import (
	"context"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/flussql/flussql"
)

// tracer is a flussql.Tracer that makes one span per statement.
type tracer struct {
	t         trace.Tracer
	noQueries bool
}

// NewTracer returns a flussql.Tracer that starts a client span when a
// statement starts and ends it when the statement is done (for a query,
// when its rows are closed).
func NewTracer(opts ...Option) flussql.Tracer {
	o := newOptions(opts)
	return &tracer{t: o.tp.Tracer(scope), noQueries: o.noQueries}
}

// TraceStatementStart starts the statement's span.
func (tr *tracer) TraceStatementStart(ctx context.Context, start flussql.TraceStart) context.Context {
	op := operationName(start.SQL)
	attrs := []attribute.KeyValue{
		attribute.String("db.system.name", "fluss"),
		attribute.String("db.operation.name", op),
	}
	if !tr.noQueries {
		attrs = append(attrs, attribute.String("db.query.text", start.SQL))
	}
	name := op
	if name == "" {
		name = "fluss"
	}
	ctx, _ = tr.t.Start(ctx, name, trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(attrs...))
	return ctx
}

// TraceStatementEnd ends the statement's span with its outcome.
func (tr *tracer) TraceStatementEnd(ctx context.Context, end flussql.TraceEnd) {
	span := trace.SpanFromContext(ctx)
	if end.Plan != "" {
		span.SetAttributes(attribute.String("flussql.plan", end.Plan))
	}
	span.SetAttributes(attribute.Int64("db.response.returned_rows", end.Rows), attribute.Int64("fluss.statement.bytes", end.Bytes))
	if end.Err != nil {
		span.RecordError(end.Err)
		span.SetStatus(codes.Error, end.Err.Error())
	}
	span.End()
}

// operationName is the statement's first keyword, upper-cased: SELECT,
// INSERT, CREATE, … ("" for an empty statement). Leading comments and
// hints are skipped.
func operationName(sql string) string {
	s := strings.TrimSpace(sql)
	for {
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = strings.TrimSpace(s[i+1:])
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = strings.TrimSpace(s[i+2:])
		default:
			end := 0
			for end < len(s) && (s[end] >= 'a' && s[end] <= 'z' || s[end] >= 'A' && s[end] <= 'Z') {
				end++
			}
			return strings.ToUpper(s[:end])
		}
	}
}
