package fluss

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/types"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
)

// PartitionSeparator joins the values of a multi-key partition in its name.
const PartitionSeparator = "$"

// PartitionSpec maps partition keys to values, written as Fluss partition
// strings (e.g. "2024-01-01", "US", "true").
type PartitionSpec map[string]string

// PartitionInfo is an existing partition of a table.
type PartitionInfo struct {
	// ID is the partition's id, unique within the cluster.
	ID int64
	// Name is the values in partition-key order joined by "$", e.g.
	// "20240101$eu"; it is how the protocol names the partition.
	Name string
	// Keys and Values are the partition keys and values in key order.
	Keys, Values []string
	// RemoteDataDir is the remote storage folder of the partition's tiered data (Fluss 1.0;
	// "" from a 0.9 server).
	RemoteDataDir string
}

// Spec returns the partition's keys and values as a map.
func (p PartitionInfo) Spec() PartitionSpec {
	s := make(PartitionSpec, len(p.Keys))
	for i, k := range p.Keys {
		s[k] = p.Values[i]
	}
	return s
}

// QualifiedName returns the display form "k1=v1/k2=v2".
func (p PartitionInfo) QualifiedName() string {
	parts := make([]string, len(p.Keys))
	for i, k := range p.Keys {
		parts[i] = k + "=" + p.Values[i]
	}
	return strings.Join(parts, "/")
}

// PartitionName returns the protocol name of the partition spec of a table
// with the given partition keys: the values in key order joined by "$".
// Every key needs a value and the spec may name no other column.
func PartitionName(keys []string, spec PartitionSpec) (string, error) {
	if len(keys) == 0 {
		return "", &Error{Code: flusserr.TableNotPartitionedException, NotSent: true}
	}
	values := make([]string, len(keys))
	for i, k := range keys {
		v, ok := spec[k]
		if !ok {
			return "", invalidSpec("partition key %q has no value", k)
		}
		values[i] = v
	}
	if len(spec) != len(keys) {
		for k := range spec {
			if !containsString(keys, k) {
				return "", invalidSpec("%q is not a partition key (keys: %s)", k, strings.Join(keys, ", "))
			}
		}
	}
	return strings.Join(values, PartitionSeparator), nil
}

func invalidSpec(format string, args ...any) error {
	return &Error{Code: flusserr.PartitionSpecInvalidException, Message: fmt.Sprintf(format, args...), NotSent: true}
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// toPb encodes the spec with keys in sorted order (the server reorders by
// the table's partition keys).
func (s PartitionSpec) toPb() *protocol.PbPartitionSpec {
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := &protocol.PbPartitionSpec{}
	for _, k := range keys {
		out.PartitionKeyValues = append(out.PartitionKeyValues,
			&protocol.PbKeyValue{Key: proto.String(k), Value: proto.String(s[k])})
	}
	return out
}

func partitionFromPb(p *protocol.PbPartitionInfo) PartitionInfo {
	info := PartitionInfo{ID: p.GetPartitionId(), RemoteDataDir: p.GetRemoteDataDir()}
	for _, kv := range p.GetPartitionSpec().GetPartitionKeyValues() {
		info.Keys = append(info.Keys, kv.GetKey())
		info.Values = append(info.Values, kv.GetValue())
	}
	info.Name = strings.Join(info.Values, PartitionSeparator)
	return info
}

// PartitionValueString renders a partition column value (in the value model, of type t)
// as Fluss names partitions — Java's PartitionUtils.convertValueOfType: strings as they
// are, booleans true/false, integers in decimal, bytes as lower-case hex, DATE yyyy-MM-dd,
// TIME HH-mm-ss_SSS, FLOAT/DOUBLE Java's toString with '.' as '_', TIMESTAMP[_LTZ]
// yyyy-MM-dd-HH-mm-ss_<nanos without trailing zeros> in UTC. Writers route rows with it,
// so a partition spec built from it names the partition rows go to.
func PartitionValueString(t types.DataType, v any) (string, error) {
	s, err := bucketing.PartitionValueString(t, v)
	if err != nil {
		return "", errors.New(strings.TrimPrefix(err.Error(), "bucketing: "))
	}
	return s, nil
}
