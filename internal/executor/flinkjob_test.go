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
			ex := New(nil, nil, Options{Flink: &FlinkOptions{Gateway: srv.URL, Catalog: "fluss"}})
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
