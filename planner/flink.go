package planner

import (
	"errors"
	"fmt"

	"github.com/flussql/flussql/parser"
)

// Statements flussql hands to Flink. The in-process engine refuses what needs state over
// an unbounded scan ('scan.bounded' = 'false'): aggregates, joins other than lookup joins,
// ORDER BY, DISTINCT, window functions, and INSERT … SELECT from such a scan. When the
// session has a Flink SQL gateway (Session.Flink), those statements are planned as a
// *Flink plan instead, as are Flink's job statements (SHOW JOBS, STOP JOB); without one
// they are refused, matching ErrNotSupported and ErrNeedsStreaming, with a message naming
// the DSN key that names a gateway.

// ErrNeedsStreaming is matched (errors.Is) by the refusal of a statement that needs a
// streaming engine (state over an unbounded scan); such a refusal also matches
// ErrNotSupported.
var ErrNeedsStreaming = errors.New("the statement needs a streaming engine")

// FlinkGatewayKey is the DSN key that names a Flink SQL gateway; refusals name it.
const FlinkGatewayKey = "flink_gateway"

// streamingError refuses a construct over an unbounded scan.
type streamingError struct{ msg string }

func (e *streamingError) Error() string { return e.msg }

// Is makes the error match ErrNotSupported and ErrNeedsStreaming.
func (e *streamingError) Is(target error) bool {
	return target == ErrNotSupported || target == ErrNeedsStreaming
}

// needsStreaming formats the refusal of a construct over an unbounded scan.
func needsStreaming(format string, args ...any) error {
	return &streamingError{msg: fmt.Sprintf(format, args...)}
}

// FlinkKind says how the driver runs a *Flink plan and what it answers.
type FlinkKind int

const (
	// FlinkJob is INSERT … SELECT over unbounded scans: submitted as a Flink job that keeps
	// running (after the program exits too) until STOP JOB; the statement answers with the
	// job's id once Flink runs it.
	FlinkJob FlinkKind = iota
	// FlinkQuery is a SELECT with state over unbounded scans: its result streams back as a
	// changelog (_change_type first) until the rows are closed, which stops the job.
	FlinkQuery
	// FlinkCommand is SHOW JOBS or STOP JOB: Flink's answer is the result.
	FlinkCommand
)

// String names the kind for EXPLAIN.
func (k FlinkKind) String() string {
	switch k {
	case FlinkJob:
		return "job"
	case FlinkQuery:
		return "continuous query"
	}
	return "command"
}

// Flink is a statement that Flink runs, through the SQL gateway the session names. The
// driver sends the statement's own text (parser.FlinkText without the flussql-only
// 'scan.bounded' option, HintBounded) in a gateway session whose current catalog is the
// Fluss catalog and whose current database is Database.
type Flink struct {
	Kind      FlinkKind
	Statement parser.Statement
	// Database is the session's current database ("" for none).
	Database string
	// Reason is why flussql's engine does not run it (its refusal); "" for a command.
	Reason string
}

func (*Flink) plan() {}

// String describes the plan for EXPLAIN: the engine first.
func (p *Flink) String() string {
	d := describe("Flink %s", p.Kind).line("engine", "Flink, through the SQL gateway (%s)", FlinkGatewayKey)
	d.lineIf(p.Database != "", "database", "%s", p.Database)
	d.line("statement", "%s", p.Statement)
	switch p.Kind {
	case FlinkJob:
		d.line("result", "the job id (column job id) once Flink runs the job; it runs until STOP JOB")
	case FlinkQuery:
		d.line("result", "a changelog (%s first) until the rows are closed, which stops the job", ColChangeType)
	}
	d.lineIf(p.Reason != "", "why not flussql", "%s", p.Reason)
	return d.String()
}

// engineLine is the line EXPLAIN's rows end with for a plan flussql runs itself (a Flink
// plan names its engine in its own description).
func engineLine(p Plan) string {
	if _, ok := p.(*Flink); ok {
		return ""
	}
	return "\n  engine: flussql, in this process"
}

// routed plans stmt, sending to Flink what needs it (see the top of this file).
func (b *builder) routed(stmt parser.Statement) (Plan, error) {
	switch s := stmt.(type) {
	case *parser.ShowJobs, *parser.StopJob:
		if !b.sess.Flink {
			what := "SHOW JOBS"
			if _, ok := stmt.(*parser.StopJob); ok {
				what = "STOP JOB"
			}
			return nil, &streamingError{msg: what + " runs on Flink: name a Flink SQL gateway in the DSN (" + FlinkGatewayKey + "=http://host:port)"}
		}
		return &Flink{Kind: FlinkCommand, Statement: stmt, Database: b.sess.Database}, nil
	case *parser.FlinkWindowQuery:
		why := "flussql's engine has no event-time windows (" + s.Function + ")"
		if !b.sess.Flink {
			return nil, &streamingError{msg: "a query with the windowing table-valued function " + s.Function +
				"(…) runs on Flink: name a Flink SQL gateway in the DSN (" + FlinkGatewayKey + "=http://host:port)"}
		}
		kind := FlinkQuery
		if s.Insert {
			kind = FlinkJob
		}
		return &Flink{Kind: kind, Statement: stmt, Database: b.sess.Database, Reason: why}, nil
	}
	p, err := b.build(stmt)
	if err == nil || !errors.Is(err, ErrNeedsStreaming) {
		return p, err
	}
	kind := FlinkQuery
	switch stmt.(type) {
	case *parser.Insert:
		kind = FlinkJob
	case *parser.Select:
	default:
		return p, err
	}
	if !b.sess.Flink {
		return nil, &streamingError{msg: err.Error() + "; or run it on Flink: name a Flink SQL gateway in the DSN (" + FlinkGatewayKey + "=http://host:port)"}
	}
	if ph := parser.Placeholders(stmt); ph.Positional > 0 || len(ph.Names) > 0 {
		return nil, notSupported("a statement Flink runs takes no placeholders (the SQL gateway has no parameters): write the values into the statement")
	}
	return &Flink{Kind: kind, Statement: stmt, Database: b.sess.Database, Reason: err.Error()}, nil
}
