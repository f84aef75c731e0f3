package fluss

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

func TestParsePrincipal(t *testing.T) {
	tests := []struct {
		in      string
		want    Principal
		wantErr bool
	}{
		{"User:alice", Principal{"User", "alice"}, false},
		{"*", WildcardPrincipal, false},
		{"*:*", WildcardPrincipal, false},
		{"alice", Principal{}, true},
		{"User:", Principal{}, true},
		{":alice", Principal{}, true},
		{"User:a:b", Principal{}, true},
	}
	for _, tt := range tests {
		got, err := ParsePrincipal(tt.in)
		if tt.wantErr {
			assert.Error(t, err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got)
		assert.Equal(t, tt.want.Type+":"+tt.want.Name, got.String())
	}
}

func TestACLNames(t *testing.T) {
	for code := OpAny; code <= OpDescribe; code++ {
		got, err := ParseACLOperation(code.String())
		require.NoError(t, err)
		assert.Equal(t, code, got)
	}
	op, err := ParseACLOperation("write")
	require.NoError(t, err)
	assert.Equal(t, OpWrite, op)
	_, err = ParseACLOperation("SELECT")
	assert.ErrorContains(t, err, "READ, WRITE")
	p, err := ParseACLPermission("allow")
	require.NoError(t, err)
	assert.Equal(t, PermissionAllow, p)
	_, err = ParseACLPermission("DENY")
	assert.Error(t, err)
	assert.Equal(t, "UNKNOWN(9)", ACLOperation(9).String())
	assert.Equal(t, "TABLE shop.orders", TableResource(TablePath{Database: "shop", Table: "orders"}).String())
}

func TestACLBindingCheck(t *testing.T) {
	ok := ACLBinding{Resource: DatabaseResource("shop"), Principal: UserPrincipal("alice"), Host: WildcardHost, Operation: OpRead, Permission: PermissionAllow}
	require.NoError(t, ok.check())
	tests := []struct {
		name string
		edit func(*ACLBinding)
		want string
	}{
		{"any resource", func(b *ACLBinding) { b.Resource = Resource{ResourceAny, "x"} }, "cluster, database or table"},
		{"no name", func(b *ACLBinding) { b.Resource.Name = "" }, "resource name"},
		{"cluster name", func(b *ACLBinding) { b.Resource = Resource{ResourceCluster, "c"} }, "fluss-cluster"},
		{"table name", func(b *ACLBinding) { b.Resource = Resource{ResourceTable, "orders"} }, "database.table"},
		{"no principal", func(b *ACLBinding) { b.Principal = Principal{} }, "principal"},
		{"no host", func(b *ACLBinding) { b.Host = "" }, "host"},
		{"op any", func(b *ACLBinding) { b.Operation = OpAny }, "operation"},
		{"no permission", func(b *ACLBinding) { b.Permission = PermissionAny }, "ALLOW"},
	}
	for _, tt := range tests {
		b := ok
		tt.edit(&b)
		assert.ErrorContains(t, b.check(), tt.want, tt.name)
	}
	star := ok
	star.Resource = Resource{ResourceTable, WildcardResource}
	assert.NoError(t, star.check())
}

func TestACLFilterMatchesAndWire(t *testing.T) {
	b := ACLBinding{Resource: TableResource(TablePath{Database: "shop", Table: "orders"}), Principal: UserPrincipal("alice"), Host: "*", Operation: OpWrite, Permission: PermissionAllow}
	alice, bob := UserPrincipal("alice"), UserPrincipal("bob")
	tests := []struct {
		name string
		f    ACLFilter
		want bool
	}{
		{"zero value matches all", ACLFilter{}, true},
		{"type only", ACLFilter{ResourceType: ResourceTable}, true},
		{"other type", ACLFilter{ResourceType: ResourceDatabase}, false},
		{"name", ACLFilter{ResourceType: ResourceTable, ResourceName: "shop.orders"}, true},
		{"other name", ACLFilter{ResourceType: ResourceTable, ResourceName: "shop.x"}, false},
		{"principal", ACLFilter{Principal: &alice}, true},
		{"other principal", ACLFilter{Principal: &bob}, false},
		{"host", ACLFilter{Host: "127.0.0.1"}, false},
		{"operation", ACLFilter{Operation: OpWrite}, true},
		{"other operation", ACLFilter{Operation: OpRead}, false},
		{"permission", ACLFilter{Permission: PermissionAllow}, true},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, tt.f.Matches(b), tt.name)
	}

	// On the wire, "any" is an absent optional field or the ANY code.
	pb := pbACLFilter(ACLFilter{})
	assert.True(t, pb.ResourceName == nil && pb.PrincipalName == nil && pb.PrincipalType == nil && pb.Host == nil)
	assert.Equal(t, int32(ResourceAny), pb.GetResourceType())
	assert.Equal(t, int32(OpAny), pb.GetOperationType())
	assert.Equal(t, int32(PermissionAny), pb.GetPermissionType())
	pb = pbACLFilter(ACLFilter{ResourceType: ResourceTable, ResourceName: "shop.orders", Principal: &alice, Host: "*", Operation: OpRead})
	assert.Equal(t, "shop.orders", pb.GetResourceName())
	assert.Equal(t, "alice", pb.GetPrincipalName())
	assert.Equal(t, "User", pb.GetPrincipalType())
	assert.Equal(t, int32(3), pb.GetOperationType())

	raw, err := proto.Marshal(pbACL(b))
	require.NoError(t, err)
	var back = pbACL(ACLBinding{})
	require.NoError(t, proto.Unmarshal(raw, back))
	assert.Equal(t, b, fromPbACL(back))
}

// FuzzACLResponses decodes arbitrary LIST_ACLS answers: decoding and rendering never panic,
// and a binding survives the trip through its wire form.
func FuzzACLResponses(f *testing.F) {
	b := ACLBinding{Resource: DatabaseResource("shop"), Principal: UserPrincipal("alice"), Host: "*", Operation: OpRead, Permission: PermissionAllow}
	seed, err := proto.Marshal(&protocol.ListAclsResponse{Acl: []*protocol.PbAclInfo{pbACL(b)}})
	require.NoError(f, err)
	f.Add(seed)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		var resp protocol.ListAclsResponse
		if proto.Unmarshal(data, &resp) != nil {
			return
		}
		for _, pb := range resp.GetAcl() {
			got := fromPbACL(pb)
			_ = got.String()
			again := fromPbACL(pbACL(got))
			if again != got {
				t.Fatalf("round trip changed %v into %v", got, again)
			}
		}
	})
}
