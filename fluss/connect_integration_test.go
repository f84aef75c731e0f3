package fluss_test

import (
	"context"
	"errors"
	"io"
	"net"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
)

// loopbackServing accepts connections and answers each with answer (nil:
// never writes), holding them open until the test ends.
func loopbackServing(t *testing.T, answer []byte) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan struct{})
	t.Cleanup(func() { ln.Close(); close(done) })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				go func() { <-done; nc.Close() }()
				if answer != nil {
					buf := make([]byte, 512)
					if _, err := nc.Read(buf); err != nil {
						return
					}
					_, _ = nc.Write(answer)
				}
				_, _ = io.Copy(io.Discard, nc)
			}()
		}
	}()
	return ln.Addr().String()
}

// TestConnectDeadThenLive connects through bootstrap lists whose first
// address is dead in some way and whose others are the real cluster's.
func TestConnectDeadThenLive(t *testing.T) {
	live := bootstrap(t)
	tests := []struct {
		name string
		dead func(t *testing.T) string
	}{
		{"refused", fluss.DeadAddr},
		{"accepts and never answers", func(t *testing.T) string { return loopbackServing(t, nil) }},
		{"answers junk", func(t *testing.T) string { return loopbackServing(t, []byte("HTTP/1.1 400 Bad Request\r\n\r\n")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addrs := append([]string{tt.dead(t)}, live...)
			start := time.Now()
			c, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: addrs})
			elapsed := time.Since(start)
			require.NoError(t, err)
			defer c.Close()
			assert.Less(t, elapsed, 2*time.Second, "the dead address is skipped, not waited for")
			nodes, err := c.ServerNodes(testCtx(t))
			require.NoError(t, err)
			assert.NotEmpty(t, nodes)
			t.Logf("connected through %v in %v", addrs, elapsed)
		})
	}
}

// TestConnectOnlyDead checks that a list of dead addresses fails at once
// with each address's reason, even with a live cluster around.
func TestConnectOnlyDead(t *testing.T) {
	bootstrap(t)
	a, b := fluss.DeadAddr(t), fluss.DeadAddr(t)
	start := time.Now()
	_, err := fluss.Connect(testCtx(t), fluss.Config{BootstrapServers: []string{a, b}})
	elapsed := time.Since(start)
	require.Error(t, err)
	assert.Less(t, elapsed, time.Second)
	assert.ErrorIs(t, err, syscall.ECONNREFUSED)
	assert.Contains(t, err.Error(), "dial "+a+": connection refused")
	assert.Contains(t, err.Error(), "dial "+b+": connection refused")
	t.Logf("failed in %v: %v", elapsed, err)
}

// TestCallerDeadlineOnLiveCluster checks that a request whose context ends
// first fails with the caller's deadline, not the server's REQUEST_TIME_OUT.
func TestCallerDeadlineOnLiveCluster(t *testing.T) {
	c := connect(t)
	// Let the deadline pass while the request is on its way: a context that is
	// already over fails before anything is sent.
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	time.Sleep(2 * time.Millisecond)
	_, err := c.Admin().ListDatabases(ctx)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	// Before the request was written to a pooled connection, or while dialing the server
	// the request picked (ListDatabases asks a random server): the caller's deadline either way.
	assert.Regexp(t, `context deadline exceeded (before|after \S+ connecting to)`, err.Error())
	assert.NotContains(t, err.Error(), "REQUEST_TIME_OUT")
	var fe *fluss.Error
	if errors.As(err, &fe) {
		assert.Equal(t, flusserr.RequestTimeOut, fe.Code)
	}
}
