package fluss

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/types"
)

func TestPartitionName(t *testing.T) {
	tests := []struct {
		keys []string
		spec PartitionSpec
		want string
		err  error
	}{
		{[]string{"dt"}, PartitionSpec{"dt": "20240101"}, "20240101", nil},
		{[]string{"dt", "region"}, PartitionSpec{"region": "eu", "dt": "20240101"}, "20240101$eu", nil},
		{[]string{"dt", "region"}, PartitionSpec{"dt": "20240101"}, "", flusserr.PartitionSpecInvalidException},
		{[]string{"dt"}, PartitionSpec{"dt": "1", "x": "2"}, "", flusserr.PartitionSpecInvalidException},
		{nil, PartitionSpec{"dt": "1"}, "", flusserr.TableNotPartitionedException},
	}
	for _, tt := range tests {
		got, err := PartitionName(tt.keys, tt.spec)
		if tt.err != nil {
			assert.ErrorIs(t, err, tt.err)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
}

func TestPartitionSpecToPbIsSorted(t *testing.T) {
	pb := PartitionSpec{"b": "2", "a": "1", "c": "3"}.toPb()
	var keys []string
	for _, kv := range pb.GetPartitionKeyValues() {
		keys = append(keys, kv.GetKey())
	}
	assert.Equal(t, []string{"a", "b", "c"}, keys)
}

func TestTableDescriptorValidate(t *testing.T) {
	cols := []types.Column{{Name: "p", Type: types.NewString()}, {Name: "a", Type: types.NewInt()}, {Name: "b", Type: types.NewInt()}}
	tests := []struct {
		name string
		desc TableDescriptor
		ok   bool
	}{
		{"log table", TableDescriptor{Schema: types.Schema{Columns: cols}, BucketKeys: []string{"b"}, PartitionKeys: []string{"p"}}, true},
		{"pk table", TableDescriptor{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"p", "a"}}, PartitionKeys: []string{"p"}}, true},
		{"pk with bucket key", TableDescriptor{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"p", "a", "b"}}, PartitionKeys: []string{"p"}, BucketKeys: []string{"a"}}, true},
		{"no columns", TableDescriptor{}, false},
		{"unknown pk", TableDescriptor{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"x"}}}, false},
		{"unknown partition key", TableDescriptor{Schema: types.Schema{Columns: cols}, PartitionKeys: []string{"x"}}, false},
		{"partition outside pk", TableDescriptor{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"a"}}, PartitionKeys: []string{"p"}}, false},
		{"bucket key outside pk", TableDescriptor{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"a"}}, BucketKeys: []string{"b"}}, false},
		{"bucket key is partition key", TableDescriptor{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"p", "a"}}, PartitionKeys: []string{"p"}, BucketKeys: []string{"p"}}, false},
		{"pk only partition keys", TableDescriptor{Schema: types.Schema{Columns: cols, PrimaryKey: []string{"p"}}, PartitionKeys: []string{"p"}}, false},
		{"negative buckets", TableDescriptor{Schema: types.Schema{Columns: cols}, BucketCount: -1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.desc.Validate()
			if tt.ok {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, flusserr.InvalidTableException)
		})
	}
}

func TestTableInfoHelpers(t *testing.T) {
	js := []byte(`{"version":1,"schema":{"version":1,"columns":[` +
		`{"name":"region","data_type":{"type":"STRING","nullable":false},"id":0},` +
		`{"name":"id","data_type":{"type":"BIGINT","nullable":false},"id":1},` +
		`{"name":"v","data_type":{"type":"STRING"},"id":2}],"primary_key":["region","id"],"highest_field_id":2},` +
		`"partition_key":["region"],"bucket_key":[],"bucket_count":4,` +
		`"properties":{"table.replication.factor":"1","table.kv.format-version":"2"},"custom_properties":{}}`)
	info, err := tableInfoFromJSON(TablePath{"db", "t"}, 9, 1, js, 1700000000000, 1700000000001)
	require.NoError(t, err)
	assert.True(t, info.HasPrimaryKey())
	assert.True(t, info.IsPartitioned())
	assert.Equal(t, []string{"id"}, info.PhysicalPrimaryKey())
	assert.Equal(t, []string{"id"}, info.BucketKeys(), "defaults to the physical primary key")
	assert.Equal(t, 4, info.NumBuckets())
	assert.Equal(t, "ARROW", info.LogFormat())
	assert.Equal(t, "COMPACTED", info.KvFormat())
	assert.Equal(t, int64(1700000000001), info.ModifiedTime.UnixMilli())

	_, err = tableInfoFromJSON(TablePath{"db", "t"}, 9, 1, []byte(`{"schema":`), 0, 0)
	assert.Error(t, err)
}

func TestDatabaseJSON(t *testing.T) {
	b, err := DatabaseDescriptor{Comment: "c", CustomProperties: map[string]string{"k": "v"}}.marshal()
	require.NoError(t, err)
	assert.JSONEq(t, `{"version":1,"comment":"c","custom_properties":{"k":"v"}}`, string(b))
	b, err = DatabaseDescriptor{}.marshal()
	require.NoError(t, err)
	assert.Equal(t, `{"version":1,"custom_properties":{}}`, string(b))
	d, err := unmarshalDatabase([]byte(`{"version":1,"comment":"x","custom_properties":{"a":"b"}}`))
	require.NoError(t, err)
	assert.Equal(t, DatabaseDescriptor{Comment: "x", CustomProperties: map[string]string{"a": "b"}}, d)
}

func TestConfig(t *testing.T) {
	assert.Error(t, Config{}.validate())
	assert.Error(t, Config{BootstrapServers: []string{"nohost"}}.validate())
	assert.Error(t, Config{BootstrapServers: []string{"h:1"}, Password: "p"}.validate())
	assert.NoError(t, Config{BootstrapServers: []string{"h:1", "[::1]:2"}}.validate())
	s := Config{BootstrapServers: []string{"h:1"}, Username: "u", Password: "secret"}.String()
	assert.NotContains(t, s, "secret")
	assert.Contains(t, s, "u:****@h:1")
	o := Config{BootstrapServers: []string{"h:1"}, Username: "u", Password: "p"}.withDefaults().rpcOptions()
	require.NotNil(t, o.Credentials)
	assert.Equal(t, DefaultRequestTimeout, o.RequestTimeout)
	assert.Nil(t, Config{BootstrapServers: []string{"h:1"}}.rpcOptions().Credentials, "no SASL without a user")
}

func TestTablePathCheck(t *testing.T) {
	long := strings.Repeat("n", MaxNameLength+1)
	tests := []struct {
		path    TablePath
		wantErr string
	}{
		{TablePath{Database: "db", Table: "t"}, ""},
		{TablePath{Database: "db", Table: strings.Repeat("n", MaxNameLength)}, ""},
		{TablePath{Database: "db"}, "needs a database and a table name"},
		{TablePath{Database: "db", Table: long}, "a table name of 201 bytes"},
		{TablePath{Database: long, Table: "t"}, "a database name of 201 bytes"},
	}
	for _, tt := range tests {
		err := tt.path.check()
		if tt.wantErr == "" {
			assert.NoError(t, err)
			continue
		}
		require.ErrorContains(t, err, tt.wantErr)
		assert.Less(t, len(err.Error()), 200, "the name is not echoed whole")
	}
}
