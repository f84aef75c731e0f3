package fluss

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

// TestAlterTableRequest checks the wire form of the changes and the
// refusals made before sending.
func TestAlterTableRequest(t *testing.T) {
	path := TablePath{Database: "db", Table: "t"}
	req, err := alterTableRequest(path, true, []TableChange{
		SetTableProperty("table.datalake.freshness", "1min"),
		ResetTableProperty("owner"),
	})
	require.NoError(t, err)
	assert.True(t, req.GetIgnoreIfNotExists())
	require.Len(t, req.GetConfigChanges(), 2)
	set, reset := req.GetConfigChanges()[0], req.GetConfigChanges()[1]
	assert.Equal(t, "table.datalake.freshness", set.GetConfigKey())
	assert.Equal(t, "1min", set.GetConfigValue())
	assert.Equal(t, int32(0), set.GetOpType(), "SET")
	assert.Equal(t, "owner", reset.GetConfigKey())
	assert.Nil(t, reset.ConfigValue, "RESET sends no value")
	assert.Equal(t, int32(1), reset.GetOpType(), "DELETE")

	req, err = alterTableRequest(path, false, []TableChange{
		AddColumn(types.Column{Name: "d", Type: types.NewDecimal(10, 2), Comment: "money"}),
		AddColumn(types.Column{Name: "tags", Type: types.NewArray(types.NewString())}),
	})
	require.NoError(t, err)
	require.Len(t, req.GetAddColumns(), 2)
	d := req.GetAddColumns()[0]
	assert.Equal(t, "d", d.GetColumnName())
	assert.JSONEq(t, `{"type":"DECIMAL","precision":10,"scale":2}`, string(d.GetDataTypeJson()))
	assert.Equal(t, "money", d.GetComment())
	assert.Equal(t, int32(0), d.GetColumnPositionType(), "LAST")
	assert.Nil(t, req.GetAddColumns()[1].Comment)
	assert.JSONEq(t, `{"type":"ARRAY","element_type":{"type":"STRING"}}`, string(req.GetAddColumns()[1].GetDataTypeJson()))

	refusals := []struct {
		name    string
		changes []TableChange
		msg     string
	}{
		{"nothing", nil, "no change"},
		{"zero change", []TableChange{{}}, "empty TableChange"},
		{"empty key", []TableChange{SetTableProperty("", "v")}, "empty property key"},
		{"not null", []TableChange{AddColumn(types.Column{Name: "c", Type: types.NewInt().AsNotNull()})}, `"c" is NOT NULL`},
		{"no name", []TableChange{AddColumn(types.Column{Type: types.NewInt()})}, "needs a name"},
		{"twice", []TableChange{AddColumn(types.Column{Name: "c", Type: types.NewInt()}), AddColumn(types.Column{Name: "c", Type: types.NewInt()})}, "added twice"},
		{"mixed", []TableChange{ResetTableProperty("k"), AddColumn(types.Column{Name: "c", Type: types.NewInt()})}, "separate requests"},
	}
	for _, tt := range refusals {
		t.Run(tt.name, func(t *testing.T) {
			_, err := alterTableRequest(path, false, tt.changes)
			require.ErrorIs(t, err, flusserr.InvalidAlterTableException)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

// TestExplainAlterError: refusals the 0.9 server reports as an unknown
// error with a Java stack trace become flusserr.InvalidAlterTableException with the
// message; others pass through.
func TestExplainAlterError(t *testing.T) {
	path := TablePath{Database: "db", Table: "t"}
	trace := &Error{Code: flusserr.UnknownServerError, Message: "java.lang.IllegalArgumentException: Column nn must be nullable.\n\tat org.apache.fluss.server.coordinator.SchemaUpdate.addColumn(SchemaUpdate.java:81)\n"}
	err := explainAlterError(path, ServerVersion{0, 9}, trace)
	require.ErrorIs(t, err, flusserr.InvalidAlterTableException)
	assert.False(t, errors.Is(err, flusserr.UnknownServerError))
	assert.EqualError(t, err, "fluss: INVALID_ALTER_TABLE_EXCEPTION: alter table db.t: Column nn must be nullable.")

	other := &Error{Code: flusserr.UnknownServerError, Message: "java.lang.NullPointerException\n\tat x"}
	assert.Same(t, other, explainAlterError(path, ServerVersion{0, 9}, other))

	for _, tt := range []struct {
		name, message string
		version       ServerVersion
		want, notWant []string
	}{
		{name: "0.9", message: "The option 'table.log.ttl' is not supported to alter yet.", version: ServerVersion{0, 9},
			want:    []string{"Fluss 0.9 alters only table.datalake.enabled, table.datalake.freshness, table.log.tiered.local-segments among", "custom properties"},
			notWant: []string{"table.auto-partition"}},
		{name: "1.0", message: "The following options are not supported to alter yet: 'table.log.format'.", version: ServerVersion{1, 0},
			want: []string{"'table.log.format'", "Fluss 1.0 alters only table.datalake.enabled,", "table.log.ttl,", "table.kv.standby-replica.enabled among", "custom properties"}},
		{name: "unknown version", message: "The option 'table.log.ttl' is not supported to alter yet.",
			want: []string{"(keys without the 'table.' prefix are custom properties)"}, notWant: []string{"alters only"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := explainAlterError(path, tt.version, &Error{Code: flusserr.InvalidAlterTableException, Message: tt.message})
			require.ErrorIs(t, err, flusserr.InvalidAlterTableException)
			for _, w := range tt.want {
				assert.ErrorContains(t, err, w)
			}
			for _, w := range tt.notWant {
				assert.NotContains(t, err.Error(), w)
			}
		})
	}

	missing := &Error{Code: flusserr.TableNotExist, Message: "Table 'db.t' does not exist."}
	assert.Same(t, missing, explainAlterError(path, ServerVersion{0, 9}, missing))
}

// TestTableChangeString documents the changes' descriptions.
func TestTableChangeString(t *testing.T) {
	assert.Equal(t, "SET 'k' = 'v'", SetTableProperty("k", "v").String())
	assert.Equal(t, "RESET 'k'", ResetTableProperty("k").String())
	assert.Equal(t, "ADD COLUMN c BIGINT", AddColumn(types.Column{Name: "c", Type: types.NewBigInt()}).String())
}
