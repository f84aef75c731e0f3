package flinkgw

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeGateway answers the session and statement requests and serves the result pages
// listed in pages (by token) for every operation; it records the requests it saw.
type fakeGateway struct {
	t     *testing.T
	mu    sync.Mutex
	seen  []string
	pages []string // JSON bodies of result/0, result/1, …; "" means the page is never ready
	// execStatus, when set, is the status and body of the statements request.
	execStatus int
	execBody   string
	bodies     []map[string]any
}

func (g *fakeGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	g.seen = append(g.seen, r.Method+" "+r.URL.RequestURI())
	if b, _ := io.ReadAll(r.Body); len(b) > 0 {
		var m map[string]any
		require.NoError(g.t, json.Unmarshal(b, &m))
		g.bodies = append(g.bodies, m)
	}
	g.mu.Unlock()
	p := r.URL.Path
	switch {
	case r.Method == http.MethodPost && p == "/v2/sessions":
		fmt.Fprint(w, `{"sessionHandle":"s1"}`)
	case r.Method == http.MethodPost && p == "/v2/sessions/s1/statements":
		if g.execStatus != 0 {
			w.WriteHeader(g.execStatus)
			fmt.Fprint(w, g.execBody)
			return
		}
		fmt.Fprint(w, `{"operationHandle":"o1"}`)
	case strings.HasPrefix(p, "/v2/sessions/s1/operations/o1/result/"):
		var token int
		fmt.Sscanf(strings.TrimPrefix(p, "/v2/sessions/s1/operations/o1/result/"), "%d", &token)
		assert.Equal(g.t, "PLAIN_TEXT", r.URL.Query().Get("rowFormat"))
		if token >= len(g.pages) || g.pages[token] == "" {
			fmt.Fprintf(w, `{"resultType":"NOT_READY","nextResultUri":%q}`, r.URL.RequestURI())
			return
		}
		fmt.Fprint(w, g.pages[token])
	case r.Method == http.MethodPost && p == "/v2/sessions/s1/operations/o1/cancel":
		fmt.Fprint(w, `{"status":"CANCELED"}`)
	case r.Method == http.MethodDelete && p == "/v2/sessions/s1/operations/o1/close":
		fmt.Fprint(w, `{"status":"CLOSED"}`)
	case r.Method == http.MethodDelete && p == "/v2/sessions/s1":
		fmt.Fprint(w, `{"status":"CLOSED"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"errors":["Not found: %s"]}`, p)
	}
}

const cols = `"columns":[{"name":"d","logicalType":{"type":"DECIMAL","nullable":true,"precision":21,"scale":2},"comment":null},{"name":"s","logicalType":{"type":"VARCHAR","nullable":false,"length":2147483647},"comment":null}]`

func payload(token int, data string) string {
	return fmt.Sprintf(`{"resultType":"PAYLOAD","isQueryResult":true,"jobID":"j1","resultKind":"SUCCESS_WITH_CONTENT","results":{%s,"rowFormat":"PLAIN_TEXT","data":[%s]},"nextResultUri":"/v2/sessions/s1/operations/o1/result/%d?rowFormat=PLAIN_TEXT"}`, cols, data, token+1)
}

func eos(data string) string {
	return fmt.Sprintf(`{"resultType":"EOS","isQueryResult":true,"jobID":"j1","resultKind":"SUCCESS_WITH_CONTENT","results":{%s,"rowFormat":"PLAIN_TEXT","data":[%s]}}`, cols, data)
}

func open(t *testing.T, g *fakeGateway) (*Session, *httptest.Server) {
	t.Helper()
	g.t = t
	srv := httptest.NewServer(g)
	t.Cleanup(srv.Close)
	s, err := New(srv.URL, nil).OpenSession(context.Background(), "", nil)
	require.NoError(t, err)
	require.Equal(t, "s1", s.Handle)
	return s, srv
}

func TestPagesUntilEOS(t *testing.T) {
	pollMin, pollMax = time.Millisecond, 2*time.Millisecond
	tests := []struct {
		name  string
		pages []string
		want  [][]string
	}{
		{"rows over pages, empty pages and NOT_READY skipped", []string{
			`{"resultType":"NOT_READY","nextResultUri":"/v2/sessions/s1/operations/o1/result/1?rowFormat=PLAIN_TEXT"}`,
			payload(1, ``),
			payload(2, `{"kind":"INSERT","fields":["20.00","a"]}`),
			payload(3, `{"kind":"INSERT","fields":[null,"b"]},{"kind":"INSERT","fields":["-1.50","c"]}`),
			eos(``),
		}, [][]string{{"20.00", "a"}, {"NULL", "b"}, {"-1.50", "c"}}},
		{"rows on the EOS page", []string{eos(`{"kind":"INSERT","fields":["0.10","x"]}`)}, [][]string{{"0.10", "x"}}},
		{"no rows", []string{payload(0, ``), eos(``)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := open(t, &fakeGateway{pages: tt.pages})
			op, err := s.Execute(context.Background(), "SELECT d, s FROM t", map[string]string{"execution.runtime-mode": "batch"})
			require.NoError(t, err)
			rows, err := op.All(context.Background())
			require.NoError(t, err)
			var got [][]string
			for _, r := range rows {
				assert.Equal(t, "INSERT", r.Kind)
				got = append(got, r.Strings("NULL"))
			}
			assert.Equal(t, tt.want, got)
			_, err = op.Next(context.Background())
			assert.Equal(t, io.EOF, err, "after EOS")
			require.Len(t, op.Columns, 2)
			assert.Equal(t, "DECIMAL(21, 2)", op.Columns[0].LogicalType.String())
			assert.Equal(t, "STRING NOT NULL", op.Columns[1].LogicalType.String())
			assert.Equal(t, "j1", op.JobID)
		})
	}
}

func TestExecuteSendsStatementAndConfig(t *testing.T) {
	g := &fakeGateway{pages: []string{eos(``)}}
	s, _ := open(t, g)
	_, err := s.Execute(context.Background(), "SELECT 1", map[string]string{"execution.runtime-mode": "batch"})
	require.NoError(t, err)
	require.Len(t, g.bodies, 2, "the session's and the statement's")
	assert.Equal(t, "SELECT 1", g.bodies[1]["statement"])
	assert.Equal(t, map[string]any{"execution.runtime-mode": "batch"}, g.bodies[1]["executionConfig"])
}

// flinkError is how the gateway reports a statement Flink refused: a generic first entry
// and a stack trace whose last "Caused by:" is the real reason.
const flinkError = `{"errors":["Internal server error.","<Exception on server side:\norg.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n\tat org.apache.flink.X.y(X.java:1)\nCaused by: org.apache.flink.table.api.ValidationException: SQL validation failed. From line 1, column 8 to line 1, column 13: Column 'nosuch' not found in any table\n\tat org.apache.flink.X.y(X.java:2)\nCaused by: org.apache.calcite.sql.validate.SqlValidatorException: Column 'nosuch' not found in any table\n\tat org.apache.flink.X.y(X.java:3)\n\nEnd of exception on server side>"]}`

func TestErrorsCarryFlinksMessage(t *testing.T) {
	t.Run("failed fetch", func(t *testing.T) {
		s, srv := open(t, &fakeGateway{})
		op, err := s.Execute(context.Background(), "SELECT nosuch FROM t", nil)
		require.NoError(t, err)
		// The gateway fails the result fetch of a statement that failed.
		srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, flinkError)
		})
		_, err = op.All(context.Background())
		var gwErr *Error
		require.ErrorAs(t, err, &gwErr)
		assert.Equal(t, http.StatusInternalServerError, gwErr.Status)
		assert.Equal(t, "org.apache.calcite.sql.validate.SqlValidatorException: Column 'nosuch' not found in any table", gwErr.Cause())
		assert.Contains(t, err.Error(), "HTTP 500")
		assert.Contains(t, gwErr.Messages[1], "SQL validation failed")
	})
	t.Run("refused statement", func(t *testing.T) {
		s, _ := open(t, &fakeGateway{execStatus: http.StatusBadRequest, execBody: `{"errors":["Statement must not be empty."]}`})
		_, err := s.Execute(context.Background(), "", nil)
		var gwErr *Error
		require.ErrorAs(t, err, &gwErr)
		assert.Equal(t, "Statement must not be empty.", gwErr.Cause())
	})
	t.Run("not JSON", func(t *testing.T) {
		s, _ := open(t, &fakeGateway{execStatus: http.StatusBadGateway, execBody: "proxy down"})
		_, err := s.Execute(context.Background(), "SELECT 1", nil)
		var gwErr *Error
		require.ErrorAs(t, err, &gwErr)
		assert.Equal(t, "proxy down", gwErr.Cause())
	})
	t.Run("unknown result type", func(t *testing.T) {
		s, _ := open(t, &fakeGateway{pages: []string{`{"resultType":"MAYBE"}`}})
		op, err := s.Execute(context.Background(), "SELECT 1", nil)
		require.NoError(t, err)
		_, err = op.Next(context.Background())
		assert.ErrorContains(t, err, "unknown resultType MAYBE")
	})
}

func TestContextCancelStopsWaiting(t *testing.T) {
	pollMin, pollMax = time.Millisecond, 5*time.Millisecond
	s, _ := open(t, &fakeGateway{pages: []string{""}}) // never ready
	op, err := s.Execute(context.Background(), "SELECT * FROM stream", nil)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = op.All(ctx)
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "got %v", err)
	assert.Less(t, time.Since(start), 2*time.Second)
}

func TestCancelAndClose(t *testing.T) {
	g := &fakeGateway{pages: []string{payload(0, `{"kind":"INSERT","fields":["1.00","a"]}`)}}
	s, _ := open(t, g)
	op, err := s.Execute(context.Background(), "SELECT * FROM stream", nil)
	require.NoError(t, err)
	rows, err := op.Next(context.Background())
	require.NoError(t, err)
	require.Len(t, rows, 1)
	require.NoError(t, op.Cancel(context.Background()))
	require.NoError(t, op.Close(context.Background()))
	_, err = op.Next(context.Background())
	assert.Equal(t, io.EOF, err, "a closed operation has no more rows")
	require.NoError(t, s.Close(context.Background()))
	assert.Contains(t, g.seen, "POST /v2/sessions/s1/operations/o1/cancel")
	assert.Contains(t, g.seen, "DELETE /v2/sessions/s1/operations/o1/close")
	assert.Contains(t, g.seen, "DELETE /v2/sessions/s1")
}

func TestMaterialize(t *testing.T) {
	str := func(s string) *string { return &s }
	row := func(kind string, vals ...string) Row {
		r := Row{Kind: kind}
		for _, v := range vals {
			r.Fields = append(r.Fields, str(v))
		}
		return r
	}
	got := Materialize([]Row{
		row("INSERT", "a", "1"), row("INSERT", "b", "1"),
		row("UPDATE_BEFORE", "a", "1"), row("UPDATE_AFTER", "a", "2"),
		row("DELETE", "b", "1"), row("INSERT", "c", "5"),
	})
	var out [][]string
	for _, r := range got {
		out = append(out, r.Strings("NULL"))
	}
	assert.Equal(t, [][]string{{"a", "2"}, {"c", "5"}}, out)
}

func TestNewAddress(t *testing.T) {
	assert.Equal(t, "http://127.0.0.1:8083", New("127.0.0.1:8083", nil).base)
	assert.Equal(t, "https://gw:1", New("https://gw:1/", nil).base)
}

func TestLogicalTypeString(t *testing.T) {
	for _, tc := range []struct {
		json, want string
	}{
		{`{"type":"INTEGER","nullable":true}`, "INT"},
		{`{"type":"DECIMAL","nullable":false,"precision":21,"scale":2}`, "DECIMAL(21, 2) NOT NULL"},
		{`{"type":"VARCHAR","nullable":true,"length":5}`, "VARCHAR(5)"},
		{`{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","nullable":true,"precision":6}`, "TIMESTAMP(6)"},
		{`{"type":"TIMESTAMP_WITH_LOCAL_TIME_ZONE","nullable":true,"precision":3}`, "TIMESTAMP_LTZ(3)"},
		{`{"type":"TIME_WITHOUT_TIME_ZONE","nullable":true,"precision":0}`, "TIME(0)"},
	} {
		var lt LogicalType
		require.NoError(t, json.Unmarshal([]byte(tc.json), &lt))
		assert.Equal(t, tc.want, lt.String(), tc.json)
	}
}
