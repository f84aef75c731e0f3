package executor

import (
	"context"
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

	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// fakeFlinkGateway runs every statement at once (an OK page), except the one containing
// "GROUP BY", whose result is page, then nothing more; its status is queryStatus.
type fakeFlinkGateway struct {
	page, queryStatus string

	mu       sync.Mutex
	ops      map[string]string // operation handle → statement
	requests []string
}

func (g *fakeFlinkGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	p := r.URL.Path
	op := func() string {
		parts := strings.Split(p, "/")
		return parts[5]
	}
	switch {
	case r.Method == http.MethodPost && p == "/v2/sessions":
		fmt.Fprint(w, `{"sessionHandle":"s"}`)
	case r.Method == http.MethodPost && p == "/v2/sessions/s/statements":
		var body strings.Builder
		_, _ = io.Copy(&body, r.Body)
		h := fmt.Sprintf("o%d", len(g.ops))
		g.ops[h] = body.String()
		g.requests = append(g.requests, "execute "+body.String())
		fmt.Fprintf(w, `{"operationHandle":%q}`, h)
	case strings.Contains(p, "/result/"):
		if !strings.Contains(g.ops[op()], "GROUP BY") {
			fmt.Fprint(w, `{"resultType":"EOS","resultKind":"SUCCESS","results":{"columns":[{"name":"result","logicalType":{"type":"VARCHAR","nullable":true,"length":2147483647}}],"data":[{"kind":"INSERT","fields":["OK"]}]}}`)
			return
		}
		if strings.HasSuffix(p, "/result/0") {
			fmt.Fprint(w, g.page)
			return
		}
		fmt.Fprintf(w, `{"resultType":"NOT_READY","nextResultUri":%q}`, r.URL.RequestURI())
	case strings.HasSuffix(p, "/status"):
		fmt.Fprintf(w, `{"status":%q}`, g.queryStatus)
	case strings.HasSuffix(p, "/cancel"):
		g.requests = append(g.requests, "cancel "+op())
		fmt.Fprint(w, `{"status":"CANCELED"}`)
	case strings.HasSuffix(p, "/close"):
		g.requests = append(g.requests, "close "+op())
		fmt.Fprint(w, `{"status":"CLOSED"}`)
	case r.Method == http.MethodDelete && p == "/v2/sessions/s":
		g.requests = append(g.requests, "close session")
		fmt.Fprint(w, `{"status":"CLOSED"}`)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"errors":["Not found: %s"]}`, p)
	}
}

const flinkChangelogPage = `{"resultType":"PAYLOAD","resultKind":"SUCCESS_WITH_CONTENT","jobID":"j1","results":{"columns":[
 {"name":"k","logicalType":{"type":"INTEGER","nullable":false}},
 {"name":"n","logicalType":{"type":"BIGINT","nullable":true}},
 {"name":"d","logicalType":{"type":"DECIMAL","nullable":true,"precision":5,"scale":2}},
 {"name":"ts","logicalType":{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","nullable":true,"precision":3}},
 {"name":"s","logicalType":{"type":"VARCHAR","nullable":true,"length":2147483647}},
 {"name":"a","logicalType":{"type":"ARRAY","nullable":true}}],
 "data":[
 {"kind":"INSERT","fields":["1","1","3.50","2026-01-01 00:00:01.500","x","[1, 2]"]},
 {"kind":"UPDATE_BEFORE","fields":["1","1","3.50","2026-01-01 00:00:01.500","x","[1, 2]"]},
 {"kind":"UPDATE_AFTER","fields":["1","2",null,null,null,null]}]},
 "nextResultUri":"/v2/sessions/s/operations/QUERY/result/1"}`

func TestFlinkChangelogRows(t *testing.T) {
	for _, tt := range []struct {
		status     string
		wantCancel bool
	}{
		{"FINISHED", false}, // the job was submitted: Cancel would fail, Close stops it
		{"RUNNING", true},   // still being planned or submitted
	} {
		t.Run(tt.status, func(t *testing.T) {
			g := &fakeFlinkGateway{queryStatus: tt.status, ops: map[string]string{}}
			srv := httptest.NewServer(g)
			defer srv.Close()
			ex := New(nil, nil, Options{Flink: &FlinkOptions{Gateway: srv.URL, Catalog: "fluss",
				CatalogOptions: map[string]string{"type": "fluss", "bootstrap.servers": "127.0.0.1:9123"}}})
			sess := ex.NewSession("shop")
			st, err := parser.Parse("SELECT k, COUNT(*) FROM t /*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY k")
			require.NoError(t, err)
			// The page's next URI names the query's operation, the fifth statement.
			g.page = strings.ReplaceAll(flinkChangelogPage, "QUERY", "o4")

			rows, err := sess.queryFlink(context.Background(), &planner.Flink{Kind: planner.FlinkQuery, Statement: st, Database: "shop"})
			require.NoError(t, err)
			var names []string
			for _, c := range rows.Columns() {
				names = append(names, c.Name)
			}
			assert.Equal(t, []string{"_change_type", "k", "n", "d", "ts", "s", "a"}, names)
			ts := time.Date(2026, 1, 1, 0, 0, 1, 500e6, time.UTC)
			want := [][]any{
				{"insert", int64(1), int64(1), "3.50", ts, "x", "[1, 2]"},
				{"update_before", int64(1), int64(1), "3.50", ts, "x", "[1, 2]"},
				{"update_after", int64(1), int64(2), nil, nil, nil, nil},
			}
			for _, w := range want {
				dest := make([]any, len(names))
				require.NoError(t, rows.Next(dest))
				assert.Equal(t, w, dest)
			}
			require.NoError(t, rows.Close())
			require.NoError(t, rows.Close(), "Close twice")
			sess.Close()

			g.mu.Lock()
			defer g.mu.Unlock()
			assert.Equal(t, []string{
				"execute " + `{"statement":"CREATE CATALOG IF NOT EXISTS fluss WITH ('bootstrap.servers' = '127.0.0.1:9123', 'type' = 'fluss')"}`, "close o0",
				"execute " + `{"statement":"USE CATALOG fluss"}`, "close o1",
				"execute " + `{"statement":"DESCRIBE CATALOG EXTENDED fluss"}`, "close o2",
				"execute " + `{"statement":"USE shop"}`, "close o3",
			}, g.requests[:8])
			assert.Contains(t, g.requests[8], `"statement":"SELECT k, COUNT(*) FROM t GROUP BY k"`, "the hint only flussql knows is not sent")
			assert.Contains(t, g.requests[8], `"execution.runtime-mode":"streaming"`)
			end := []string{"close o4", "close session"}
			if tt.wantCancel {
				end = append([]string{"cancel o4"}, end...)
			}
			assert.Equal(t, end, g.requests[9:])
		})
	}
}
