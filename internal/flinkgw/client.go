// Package flinkgw is a small client of the Apache Flink SQL Gateway's REST API (API version
// v2, Flink 1.17+): sessions, statements, and their results fetched page by page. It exists
// so that tests and tools can run Flink SQL beside flussql (Flink is the reference of the
// dialect) without a Flink client library.
//
// Results are fetched with rowFormat=PLAIN_TEXT, which renders every field as Flink's own
// string cast of the value: DECIMAL keeps its scale ("20.00"; the JSON row format drops
// trailing zeros), and NULL is a JSON null.
package flinkgw

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client talks to one SQL Gateway.
type Client struct {
	base string
	http *http.Client
}

// New returns a client of the gateway at addr: host:port or an http:// URL. A nil hc means
// a client without an overall timeout (each call is bounded by its context).
func New(addr string, hc *http.Client) *Client {
	base := strings.TrimRight(addr, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{base: base, http: hc}
}

// Info is the gateway's answer to GET /v1/info.
type Info struct {
	ProductName string `json:"productName"`
	Version     string `json:"version"`
}

// Info asks the gateway which Flink it is.
func (c *Client) Info(ctx context.Context) (Info, error) {
	var info Info
	err := c.do(ctx, http.MethodGet, "/v1/info", nil, &info)
	return info, err
}

// Session is an open gateway session: its catalogs, current database and configuration
// live on the gateway until Close (or the gateway's idle timeout, 10 min by default; see
// Heartbeat).
type Session struct {
	c *Client
	// Handle is the gateway's session id.
	Handle string
}

// OpenSession opens a session with the given configuration (Flink options such as
// "execution.runtime-mode": "batch"; may be nil).
func (c *Client) OpenSession(ctx context.Context, name string, properties map[string]string) (*Session, error) {
	req := map[string]any{}
	if name != "" {
		req["sessionName"] = name
	}
	if len(properties) > 0 {
		req["properties"] = properties
	}
	var resp struct {
		SessionHandle string `json:"sessionHandle"`
	}
	if err := c.do(ctx, http.MethodPost, "/v2/sessions", req, &resp); err != nil {
		return nil, err
	}
	if resp.SessionHandle == "" {
		return nil, &Error{Op: "open session", Messages: []string{"the gateway answered without a sessionHandle"}}
	}
	return &Session{c: c, Handle: resp.SessionHandle}, nil
}

// Close closes the session on the gateway (its running operations are closed with it).
func (s *Session) Close(ctx context.Context) error {
	return s.c.do(ctx, http.MethodDelete, "/v2/sessions/"+s.Handle, nil, nil)
}

// Heartbeat keeps the session from expiring.
func (s *Session) Heartbeat(ctx context.Context) error {
	return s.c.do(ctx, http.MethodPost, "/v2/sessions/"+s.Handle+"/heartbeat", map[string]any{}, nil)
}

// Execute submits one statement; config holds options for this statement only (e.g.
// "execution.runtime-mode": "batch"; may be nil). The statement runs asynchronously: read
// its result with the returned operation's Next or All.
func (s *Session) Execute(ctx context.Context, statement string, config map[string]string) (*Operation, error) {
	req := map[string]any{"statement": statement}
	if len(config) > 0 {
		req["executionConfig"] = config
	}
	var resp struct {
		OperationHandle string `json:"operationHandle"`
	}
	if err := s.c.do(ctx, http.MethodPost, "/v2/sessions/"+s.Handle+"/statements", req, &resp); err != nil {
		return nil, err
	}
	if resp.OperationHandle == "" {
		return nil, &Error{Op: "execute", Messages: []string{"the gateway answered without an operationHandle"}}
	}
	return &Operation{s: s, Handle: resp.OperationHandle, next: s.opPath(resp.OperationHandle) + "/result/0?rowFormat=PLAIN_TEXT"}, nil
}

func (s *Session) opPath(op string) string {
	return "/v2/sessions/" + s.Handle + "/operations/" + op
}

// do sends one request with a JSON body (nil: none) and decodes a 200 answer into out (nil:
// ignored). Any other status is an *Error with the gateway's messages.
func (c *Client) do(ctx context.Context, method, path string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, r)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("flinkgw: %s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("flinkgw: %s %s: reading the answer: %w", method, path, err)
	}
	if resp.StatusCode != http.StatusOK {
		return newError(method+" "+path, resp.StatusCode, b)
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(b, out); err != nil {
		return fmt.Errorf("flinkgw: %s %s: the answer is not the JSON expected (%v): %.300s", method, path, err, b)
	}
	return nil
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
