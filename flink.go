package flussql

import (
	"errors"
	"strings"

	"github.com/flussql/flussql/internal/executor"
	"github.com/flussql/flussql/internal/flinkgw"
	"github.com/flussql/flussql/planner"
)

// Flink runs what needs a streaming engine when the DSN names a Flink SQL gateway
// (flink_gateway): a SELECT with state (GROUP BY, joins, DISTINCT, ORDER BY, window
// functions) over a scan read with /*+ OPTIONS('scan.bounded' = 'false') */ streams back its
// changelog (_change_type first) until the rows are closed, which stops its job; INSERT …
// SELECT over such a scan is submitted as a Flink job that runs until STOP JOB, after the
// program exits too; SHOW JOBS and STOP JOB 'id' [WITH SAVEPOINT] go to Flink. EXPLAIN of
// such a statement says "Flink" and why. Without a gateway these statements are refused
// (ErrNotSupported, naming flink_gateway); bounded statements always run in flussql.

// ErrNeedsStreaming is matched (errors.Is), together with ErrNotSupported, by the refusal
// of a statement that needs a streaming engine when the DSN names no Flink SQL gateway.
var ErrNeedsStreaming = planner.ErrNeedsStreaming

// FlinkError is an error Flink reported for a statement it ran (through the SQL gateway):
// a statement Flink could not parse, validate or plan, a job that failed or stopped before
// it ran, an unknown job id. Match it with errors.As.
type FlinkError struct {
	// Message is Flink's own message: the deepest cause of its exception chain.
	Message string
	// Details are the messages the gateway sent in full (with the Java stack trace).
	Details []string
	// Status is the gateway's HTTP status (0 for a failure seen after it answered).
	Status int

	err error
}

// Error returns Flink's message.
func (e *FlinkError) Error() string { return "flussql: Flink: " + e.Message }

// Unwrap returns the error as the driver first saw it.
func (e *FlinkError) Unwrap() error { return e.err }

// flinkError turns an error carrying the gateway's answer into a *FlinkError.
func flinkError(err error) error {
	var ge *flinkgw.Error
	if err == nil || !errors.As(err, &ge) {
		return err
	}
	var fe *FlinkError
	if errors.As(err, &fe) {
		return err
	}
	return &FlinkError{Message: ge.Cause(), Details: ge.Messages, Status: ge.Status, err: err}
}

// flinkOptions are the executor's Flink settings for cfg (nil without a gateway): the
// Fluss catalog gets the DSN's servers and credentials.
func flinkOptions(cfg *Config) *executor.FlinkOptions {
	if cfg.FlinkGateway == "" {
		return nil
	}
	cat := map[string]string{"type": "fluss", "bootstrap.servers": strings.Join(cfg.Addrs, ",")}
	if cfg.User != "" {
		cat["client.security.protocol"] = "SASL"
		cat["client.security.sasl.mechanism"] = "PLAIN"
		cat["client.security.sasl.username"] = cfg.User
		cat["client.security.sasl.password"] = cfg.Password
	}
	name := cfg.FlinkCatalog
	if name == "" {
		name = DefaultFlinkCatalog
	}
	return &executor.FlinkOptions{Gateway: cfg.FlinkGateway, Catalog: name, CatalogOptions: cat, Properties: cfg.FlinkOptions}
}
