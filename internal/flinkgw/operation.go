package flinkgw

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// Operation is one submitted statement and the cursor over its result.
type Operation struct {
	s *Session
	// Handle is the gateway's operation id.
	Handle string
	// Columns are the result's columns, known once a page has been fetched.
	Columns []Column
	// JobID is the Flink job that computes the result, for a query or an INSERT ("" for a
	// statement that runs no job, such as SHOW TABLES); known once a page has been fetched.
	JobID string
	// ResultKind is "SUCCESS" (a statement without rows) or "SUCCESS_WITH_CONTENT".
	ResultKind string

	next    string // the path of the next page, "" after the last one
	pending []Row  // rows Ready fetched, returned by the next Next
}

// Column is one result column: its name and Flink's logical type.
type Column struct {
	Name        string      `json:"name"`
	LogicalType LogicalType `json:"logicalType"`
	Comment     *string     `json:"comment"`
}

// LogicalType is Flink's JSON rendering of a column's type ("INTEGER", "DECIMAL" with
// precision and scale, "VARCHAR" with length, …). Fields a type lacks are zero.
type LogicalType struct {
	Type      string `json:"type"`
	Nullable  bool   `json:"nullable"`
	Length    int    `json:"length,omitempty"`
	Precision int    `json:"precision,omitempty"`
	Scale     int    `json:"scale,omitempty"`
}

// String renders the type as Flink SQL spells it: INT, DECIMAL(10, 2), VARCHAR(5),
// STRING for VARCHAR(2147483647), with NOT NULL when the type is not nullable.
func (t LogicalType) String() string {
	s := t.Type
	switch t.Type {
	case "INTEGER":
		s = "INT"
	case "DECIMAL":
		s = fmt.Sprintf("DECIMAL(%d, %d)", t.Precision, t.Scale)
	case "VARCHAR":
		if t.Length == 2147483647 {
			s = "STRING"
		} else {
			s = fmt.Sprintf("VARCHAR(%d)", t.Length)
		}
	case "CHAR", "BINARY", "VARBINARY":
		s = fmt.Sprintf("%s(%d)", t.Type, t.Length)
	case "TIMESTAMP_WITHOUT_TIME_ZONE":
		s = fmt.Sprintf("TIMESTAMP(%d)", t.Precision)
	case "TIMESTAMP_WITH_LOCAL_TIME_ZONE":
		s = fmt.Sprintf("TIMESTAMP_LTZ(%d)", t.Precision)
	case "TIME_WITHOUT_TIME_ZONE":
		s = fmt.Sprintf("TIME(%d)", t.Precision)
	}
	if !t.Nullable {
		s += " NOT NULL"
	}
	return s
}

// Row is one row of a result: its change kind (INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE;
// a bounded result has only INSERT) and its fields as Flink renders them in PLAIN_TEXT, nil
// for NULL.
type Row struct {
	Kind   string
	Fields []*string
}

// Strings returns the fields with NULL as null.
func (r Row) Strings(null string) []string {
	out := make([]string, len(r.Fields))
	for i, f := range r.Fields {
		if f == nil {
			out[i] = null
		} else {
			out[i] = *f
		}
	}
	return out
}

// page is the gateway's answer to a result fetch.
type page struct {
	Results struct {
		Columns []Column `json:"columns"`
		Data    []struct {
			Kind   string    `json:"kind"`
			Fields []*string `json:"fields"`
		} `json:"data"`
	} `json:"results"`
	ResultType    string `json:"resultType"`
	ResultKind    string `json:"resultKind"`
	JobID         string `json:"jobID"`
	NextResultURI string `json:"nextResultUri"`
}

// pollMin and pollMax bound the wait between fetches of a result that is NOT_READY.
var pollMin, pollMax = 10 * time.Millisecond, 250 * time.Millisecond

// Next returns the rows of the next page that has any, waiting (polling with a growing
// pause) while the gateway answers NOT_READY or an empty PAYLOAD; io.EOF after the last page
// (EOS). A statement that fails in Flink fails here, with its *Error.
// Cancelling ctx stops the wait; the operation stays open (Close it).
func (o *Operation) Next(ctx context.Context) ([]Row, error) {
	if rows := o.pending; len(rows) > 0 {
		o.pending = nil
		return rows, nil
	}
	return o.fetch(ctx, false)
}

// Ready waits until the result's columns are known (the gateway has planned the statement
// and its result is ready), keeping any rows fetched meanwhile for Next. A statement that
// fails in Flink fails here, with its *Error.
func (o *Operation) Ready(ctx context.Context) error {
	if len(o.Columns) > 0 || o.next == "" {
		return nil
	}
	rows, err := o.fetch(ctx, true)
	o.pending = append(o.pending, rows...)
	if err == io.EOF {
		return nil
	}
	return err
}

// fetch returns the rows of the next page that has any (see Next); with untilColumns also
// as soon as the columns are known.
func (o *Operation) fetch(ctx context.Context, untilColumns bool) ([]Row, error) {
	pause := pollMin
	for {
		if o.next == "" {
			return nil, io.EOF
		}
		var p page
		if err := o.s.c.do(ctx, http.MethodGet, o.next, nil, &p); err != nil {
			return nil, err
		}
		if len(p.Results.Columns) > 0 {
			o.Columns = p.Results.Columns
		}
		if p.JobID != "" {
			o.JobID = p.JobID
		}
		if p.ResultKind != "" {
			o.ResultKind = p.ResultKind
		}
		switch p.ResultType {
		case "EOS":
			o.next = ""
			if len(p.Results.Data) == 0 {
				return nil, io.EOF
			}
		case "PAYLOAD", "NOT_READY":
			if p.NextResultURI == "" {
				o.next = ""
			} else {
				o.next = p.NextResultURI
			}
		default:
			return nil, &Error{Op: "GET " + o.next, Status: http.StatusOK, Messages: []string{"unknown resultType " + p.ResultType}}
		}
		if len(p.Results.Data) > 0 {
			rows := make([]Row, len(p.Results.Data))
			for i, d := range p.Results.Data {
				rows[i] = Row{Kind: d.Kind, Fields: d.Fields}
			}
			return rows, nil
		}
		if untilColumns && len(o.Columns) > 0 {
			return nil, nil
		}
		// Nothing yet (NOT_READY, or an empty PAYLOAD while the job runs): wait longer each time.
		if err := sleep(ctx, pause); err != nil {
			return nil, err
		}
		pause = min(2*pause, pollMax)
	}
}

// All reads every remaining page and returns their rows; for a statement whose result never
// ends (a streaming query) it returns only when ctx is done.
func (o *Operation) All(ctx context.Context) ([]Row, error) {
	var all []Row
	for {
		rows, err := o.Next(ctx)
		if err == io.EOF {
			return all, nil
		}
		if err != nil {
			return all, err
		}
		all = append(all, rows...)
	}
}

// Status returns the operation's status: INITIALIZED, PENDING, RUNNING, FINISHED, CANCELED,
// CLOSED, ERROR or TIMEOUT.
func (o *Operation) Status(ctx context.Context) (string, error) {
	var resp struct {
		Status string `json:"status"`
	}
	err := o.s.c.do(ctx, http.MethodGet, o.s.opPath(o.Handle)+"/status", nil, &resp)
	return resp.Status, err
}

// Cancel cancels an operation the gateway is still running (planning, submitting, or a
// statement without a job). A query's operation is FINISHED as soon as its job is submitted,
// and Cancel then fails with Flink's "Failed to convert the Operation Status from FINISHED
// to CANCELED": Close is what stops a query's job (a streaming query's too).
func (o *Operation) Cancel(ctx context.Context) error {
	return o.s.c.do(ctx, http.MethodPost, o.s.opPath(o.Handle)+"/cancel", map[string]any{}, nil)
}

// Close closes the operation on the gateway and so stops the Flink job computing its
// result, if that still runs.
func (o *Operation) Close(ctx context.Context) error {
	o.next = ""
	return o.s.c.do(ctx, http.MethodDelete, o.s.opPath(o.Handle)+"/close", nil, nil)
}

// Materialize applies a changelog (a streaming query's rows) to a table: INSERT and
// UPDATE_AFTER add their row, UPDATE_BEFORE and DELETE remove one equal row. A bounded result
// (INSERT only) comes back as it is.
func Materialize(rows []Row) []Row {
	var out []Row
	for _, r := range rows {
		switch r.Kind {
		case "UPDATE_BEFORE", "DELETE":
			key := rowKey(r)
			for i := range out {
				if rowKey(out[i]) == key {
					out = append(out[:i], out[i+1:]...)
					break
				}
			}
		default:
			out = append(out, Row{Kind: "INSERT", Fields: r.Fields})
		}
	}
	return out
}

func rowKey(r Row) string {
	b, _ := json.Marshal(r.Fields)
	return string(b)
}
