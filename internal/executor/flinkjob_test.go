package executor

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/internal/flinkgw"
	"github.com/flussql/flussql/parser"
	"github.com/flussql/flussql/planner"
)

// fakeJobGateway accepts an INSERT as job j1 and lists it in SHOW JOBS with status.
type fakeJobGateway struct {
	status string
	stmts  map[string]string
}

func (g *fakeJobGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/v2/sessions":
		fmt.Fprint(w, `{"sessionHandle":"s"}`)
	case p == "/v2/sessions/s/statements":
		b, _ := io.ReadAll(r.Body)
		h := fmt.Sprintf("o%d", len(g.stmts))
		g.stmts[h] = string(b)
		fmt.Fprintf(w, `{"operationHandle":%q}`, h)
	case strings.Contains(p, "/result/"):
		stmt := g.stmts[strings.Split(p, "/")[5]]
		switch {
		case strings.Contains(stmt, "INSERT"):
			fmt.Fprint(w, `{"resultType":"EOS","jobID":"j1","results":{"columns":[{"name":"job id","logicalType":{"type":"VARCHAR","nullable":false,"length":2147483647}}],"data":[{"kind":"INSERT","fields":["j1"]}]}}`)
		case strings.Contains(stmt, "DESCRIBE CATALOG"):
			fmt.Fprint(w, `{"resultType":"EOS","results":{"columns":[],"data":[{"kind":"INSERT","fields":["option:bootstrap.servers","10.0.0.1:9123,127.0.0.1:9123"]}]}}`)
		case strings.Contains(stmt, "SHOW JOBS"):
			fmt.Fprintf(w, `{"resultType":"EOS","results":{"columns":[],"data":[{"kind":"INSERT","fields":["j0","other","RUNNING","2026-01-01 00:00:00"]},{"kind":"INSERT","fields":["j1","INSERT","%s","2026-01-01 00:00:00"]}]}}`, g.status)
		default:
			fmt.Fprint(w, `{"resultType":"EOS","results":{"columns":[],"data":[]}}`)
		}
	default:
		fmt.Fprint(w, `{"status":"CLOSED"}`)
	}
}

func TestFlinkJobWaitsUntilRunning(t *testing.T) {
	st, err := parser.Parse("INSERT INTO sink SELECT * FROM src /*+ OPTIONS('scan.bounded' = 'false') */")
	require.NoError(t, err)
	plan := &planner.Flink{Kind: planner.FlinkJob, Statement: st, Database: "shop"}
	for _, tt := range []struct {
		status  string
		wantErr bool
	}{
		{"RUNNING", false},
		{"FAILED", true},
	} {
		t.Run(tt.status, func(t *testing.T) {
			srv := httptest.NewServer(&fakeJobGateway{status: tt.status, stmts: map[string]string{}})
			defer srv.Close()
			ex := New(nil, nil, Options{Flink: &FlinkOptions{Gateway: srv.URL, Catalog: "fluss",
				CatalogOptions: map[string]string{"type": "fluss", "bootstrap.servers": "127.0.0.1:9123"}}})
			sess := ex.NewSession("shop")
			defer sess.Close()
			res, err := sess.execFlink(context.Background(), plan)
			if !tt.wantErr {
				require.NoError(t, err)
				assert.Equal(t, "j1", res.JobID)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrOutcomeUnknown, "a job that failed after its submission may have written rows")
			var ge *flinkgw.Error
			require.ErrorAs(t, err, &ge)
			assert.Contains(t, ge.Cause(), "j1")
			assert.Contains(t, ge.Cause(), "FAILED")
		})
	}
}

func TestFlinkText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"SELECT k, COUNT(*) FROM t /*+ OPTIONS('scan.bounded' = 'false') */ GROUP BY k;", "SELECT k, COUNT(*) FROM t GROUP BY k"},
		{"UPSERT INTO pk SELECT k, SUM(v) FROM t /*+ OPTIONS('scan.bounded' = 'false', 'scan.startup.mode' = 'earliest') */ GROUP BY k",
			"INSERT INTO pk SELECT k, SUM(v) FROM t /*+ OPTIONS('scan.startup.mode' = 'earliest') */ GROUP BY k"},
		{"SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) ;", "SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE))"},
	} {
		st, err := parser.Parse(tt.in)
		require.NoError(t, err, tt.in)
		got, err := flinkText(&planner.Flink{Statement: st})
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
}

// expiringGateway forgets its first session after the session's third statement, as the
// gateway does after its idle timeout; the second session works.
type expiringGateway struct {
	sessions   int
	statements map[string]int
	executed   []string
}

func (g *expiringGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.Path
	switch {
	case p == "/v2/sessions":
		g.sessions++
		fmt.Fprintf(w, `{"sessionHandle":"s%d"}`, g.sessions)
	case strings.HasSuffix(p, "/statements"):
		s := strings.Split(p, "/")[3]
		g.statements[s]++
		if s == "s1" && g.statements[s] > 4 {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, `{"errors":["Internal server error.","<Exception on server side:\nSqlGatewayException: Failed to execute statement.\nCaused by: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Session '%s' does not exist.\n"]}`, s)
			return
		}
		b, _ := io.ReadAll(r.Body)
		g.executed = append(g.executed, s+" "+string(b))
		fmt.Fprint(w, `{"operationHandle":"o"}`)
	case strings.Contains(p, "/result/"):
		fmt.Fprint(w, `{"resultType":"EOS","results":{"columns":[{"name":"job id","logicalType":{"type":"VARCHAR","nullable":true}}],"data":[]}}`)
	default:
		fmt.Fprint(w, `{"status":"CLOSED"}`)
	}
}

func TestFlinkSessionOpenedAgainWhenExpired(t *testing.T) {
	g := &expiringGateway{statements: map[string]int{}}
	srv := httptest.NewServer(g)
	defer srv.Close()
	ex := New(nil, nil, Options{Flink: &FlinkOptions{Gateway: srv.URL, Catalog: "fluss"}})
	sess := ex.NewSession("shop")
	defer sess.Close()
	st, err := parser.Parse("SHOW JOBS")
	require.NoError(t, err)
	plan := &planner.Flink{Kind: planner.FlinkCommand, Statement: st, Database: "shop"}
	for range 2 {
		_, err := sess.execFlink(context.Background(), plan)
		require.NoError(t, err)
	}
	assert.Equal(t, 2, g.sessions, "the expired session was replaced")
	// s1: catalog, USE CATALOG, DESCRIBE CATALOG, USE shop, then SHOW JOBS fails (expired);
	// s2: the same four, SHOW JOBS again, and the second statement's SHOW JOBS.
	require.Len(t, g.executed, 10, "%q", g.executed)
	for _, e := range g.executed[4:] {
		assert.True(t, strings.HasPrefix(e, "s2 "), "%q", e)
	}
	assert.Contains(t, g.executed[4], "CREATE CATALOG")
	assert.Contains(t, g.executed[7], "USE shop")
	assert.Contains(t, g.executed[8], "SHOW JOBS")
	assert.Contains(t, g.executed[9], "SHOW JOBS")
}

func TestFlinkCatalogOfAnotherCluster(t *testing.T) {
	srv := httptest.NewServer(&fakeJobGateway{status: "RUNNING", stmts: map[string]string{}})
	defer srv.Close()
	ex := New(nil, nil, Options{Flink: &FlinkOptions{Gateway: srv.URL, Catalog: "fluss",
		CatalogOptions: map[string]string{"type": "fluss", "bootstrap.servers": "127.0.0.1:7777"}}})
	sess := ex.NewSession("shop")
	defer sess.Close()
	st, err := parser.Parse("SHOW JOBS")
	require.NoError(t, err)
	_, err = sess.execFlink(context.Background(), &planner.Flink{Kind: planner.FlinkCommand, Statement: st})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reads the Fluss cluster at 10.0.0.1:9123,127.0.0.1:9123, not the DSN's 127.0.0.1:7777")
	assert.Contains(t, err.Error(), "flink_catalog=")
}
