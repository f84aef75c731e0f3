package flussql

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/parser"
)

// serverDenial is an AUTHORIZATION_EXCEPTION as the rpc layer hands it to the driver.
func serverDenial(msg string) error {
	return &fluss.Error{Code: flusserr.AuthorizationException, Message: msg}
}

func TestPermissionError(t *testing.T) {
	tests := []struct {
		name, sql, user string
		err             error
		op, resource    string
		want            string // part of the message
	}{
		{
			name: "create table: CREATE on the database", sql: "CREATE TABLE shop.t (a INT)", user: "alice",
			err: serverDenial("Principal FlussPrincipal{name='alice', type='User'} have no authorization to operate CREATE on resource Resource{type=DATABASE, name='shop'} "),
			op:  "CREATE", resource: "shop",
			want: "User:alice may not CREATE database shop (CREATE)",
		},
		{
			name: "create database: CREATE on the cluster", sql: "CREATE DATABASE shop", user: "alice",
			err: serverDenial("Principal FlussPrincipal{name='alice', type='User'} have no authorization to operate CREATE on resource Resource{type=CLUSTER, name='fluss-cluster'} "),
			op:  "CREATE", resource: "cluster",
			want: "may not CREATE the cluster",
		},
		{
			name: "insert without any right: DESCRIBE refused, WRITE needed", sql: "INSERT INTO shop.orders VALUES (1)", user: "bob",
			err: fmt.Errorf("table shop.orders: %w", serverDenial("Principal FlussPrincipal{name='bob', type='User'} have no authorization to operate DESCRIBE on resource Resource{type=TABLE, name='shop.orders'} ")),
			op:  "WRITE", resource: "shop.orders",
			want: "CREATE ACL (resource => 'shop.orders', principal => 'User:bob', operation => 'WRITE', permission => 'ALLOW')",
		},
		{
			name: "insert with READ only: the writer id is refused", sql: "INSERT INTO shop.orders VALUES (1)", user: "alice",
			err: fmt.Errorf("fluss: obtaining a writer id for shop.orders: %w", serverDenial("No WRITE permission among all the tables: [shop.orders]")),
			op:  "WRITE", resource: "shop.orders",
			want: "may not WRITE table shop.orders (INSERT)",
		},
		{
			name: "select with WRITE only: the bucket is refused", sql: "SELECT * FROM shop.orders LIMIT 1", user: "alice",
			err: serverDenial("No permission to READ table orders in database shop"),
			op:  "READ", resource: "shop.orders",
			want: "operation => 'READ'",
		},
		{
			name: "a database named cluster keeps the prefix", sql: "DROP TABLE cluster.t", user: "alice",
			err: serverDenial("Principal FlussPrincipal{name='alice', type='User'} have no authorization to operate DROP on resource Resource{type=TABLE, name='cluster.t'} "),
			op:  "DROP", resource: "cluster.cluster.t",
			want: "resource => 'cluster.cluster.t'",
		},
		{
			name: "no SASL: the anonymous principal", sql: "SHOW PARTITIONS shop.p",
			err: serverDenial("Principal FlussPrincipal{name='ANONYMOUS', type='User'} have no authorization to operate DESCRIBE on resource Resource{type=TABLE, name='shop.p'} "),
			op:  "DESCRIBE", resource: "shop.p",
			want: "User:ANONYMOUS may not DESCRIBE table shop.p",
		},
		{
			name: "an unknown message: the operation the statement needs", sql: "UPDATE shop.orders SET b = 1 WHERE a = 1", user: "alice",
			err: serverDenial("something new"),
			op:  "WRITE", resource: "shop.orders",
		},
		{
			name: "an unknown message, no table", sql: "CREATE DATABASE x", user: "alice",
			err: serverDenial("something new"),
			op:  "ALL", resource: "cluster",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st, err := parser.Parse(tt.sql)
			require.NoError(t, err)
			got := permissionError(tt.user, st, "", tt.err)
			var pe *PermissionError
			require.ErrorAs(t, got, &pe)
			assert.Equal(t, tt.op, pe.Operation)
			assert.Equal(t, tt.resource, pe.Resource)
			assert.ErrorIs(t, got, ErrPermissionDenied)
			assert.ErrorIs(t, got, tt.err, "the server's error stays in the chain")
			assert.Contains(t, got.Error(), tt.want)
			assert.NotContains(t, got.Error(), "s3cret-pw")
			assert.Same(t, got, permissionError(tt.user, st, "", got), "wrapping twice changes nothing")
		})
	}
}

func TestPermissionErrorKeepsOtherErrorsAndOutcomes(t *testing.T) {
	st, err := parser.Parse("INSERT INTO shop.orders VALUES (1)")
	require.NoError(t, err)
	other := errors.New("boom")
	assert.Same(t, other, permissionError("alice", st, "", other))
	assert.NoError(t, permissionError("alice", st, "", nil))

	// A refused write as the executor reports it: the server's error, marked not written.
	denied := fmt.Errorf("%w (%w)", serverDenial("No WRITE permission among all the tables: [shop.orders]"), ErrNotWritten)
	got := permissionError("alice", st, "", denied)
	assert.ErrorIs(t, got, ErrNotWritten, "a refused write stored nothing")
	assert.NotErrorIs(t, got, ErrOutcomeUnknown)
	var fe *fluss.Error
	require.ErrorAs(t, got, &fe)
	assert.False(t, fe.Retriable(), "a refusal is never retried")
}
