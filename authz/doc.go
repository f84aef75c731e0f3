// Package authz holds the end-to-end tests of authorization: a Fluss cluster with SASL/PLAIN
// users and the authorizer on (one super user, users without rights until an ACL grants
// them), driven through database/sql and the fluss client. It has no code of its own; its
// TestMain starts that cluster (see main_test.go).
package authz
