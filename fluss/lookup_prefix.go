package fluss

import (
	"context"
	"fmt"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/protocol"
)

// PrefixLookuper finds every row of a primary-key table whose primary key
// starts with given values of the bucket key (PREFIX_LOOKUP v1). It needs a
// table whose bucket key is a proper prefix of the physical primary key,
// e.g. PRIMARY KEY (a, b) with bucket key (a). Safe for concurrent use.
type PrefixLookuper struct {
	t      *pkTable
	router *keyRouter
	cols   []string
}

// NewPrefixLookuper returns a PrefixLookuper for the table. lookupColumns
// are the columns whose values Lookup takes, in that order: the bucket key
// columns, in bucket-key order, plus every partition column (anywhere).
// Empty means the partition columns followed by the bucket key. The rules
// are those of the Java client.
func (tb *Table) NewPrefixLookuper(lookupColumns []string) (*PrefixLookuper, error) {
	t, err := openPKTable(tb)
	if err != nil {
		return nil, err
	}
	info := t.info
	bucketKeys := info.BucketKeys()
	if len(lookupColumns) == 0 {
		lookupColumns = append(slices.Clone(info.PartitionKeys()), bucketKeys...)
	}
	physical := info.PhysicalPrimaryKey()
	path := info.Path
	if len(bucketKeys) > len(physical) || !slices.Equal(bucketKeys, physical[:len(bucketKeys)]) {
		return nil, fmt.Errorf("fluss: prefix lookup on %s needs a bucket key %v that is a prefix of the physical primary key %v",
			path, bucketKeys, physical)
	}
	if slices.Equal(bucketKeys, physical) {
		return nil, fmt.Errorf("fluss: prefix lookup on %s: the bucket key %v is the whole physical primary key %v; use a Lookuper",
			path, bucketKeys, physical)
	}
	for _, p := range info.PartitionKeys() {
		if !slices.Contains(lookupColumns, p) {
			return nil, fmt.Errorf("fluss: prefix lookup on %s: the lookup columns %v must include the partition column %q",
				path, lookupColumns, p)
		}
	}
	var rest []string
	for _, c := range lookupColumns {
		if !slices.Contains(info.PartitionKeys(), c) {
			rest = append(rest, c)
		}
	}
	if !slices.Equal(rest, bucketKeys) {
		return nil, fmt.Errorf("fluss: prefix lookup on %s: the lookup columns %v must be the bucket key %v in order (plus the partition columns)",
			path, lookupColumns, bucketKeys)
	}
	cols, err := columnsNamed(info.Schema(), lookupColumns)
	if err != nil {
		return nil, err
	}
	r, err := newKeyRouter(info, cols, bucketKeys, bucketKeys, true)
	if err != nil {
		return nil, err
	}
	return &PrefixLookuper{t: t, router: r, cols: slices.Clone(lookupColumns)}, nil
}

// LookupColumns returns the columns whose values Lookup takes, in order.
func (p *PrefixLookuper) LookupColumns() []string { return slices.Clone(p.cols) }

// Lookup returns the rows whose key starts with prefix (values of
// LookupColumns, in order), in the table's column order. No match, or a
// partition that does not exist, gives no rows and no error.
func (p *PrefixLookuper) Lookup(ctx context.Context, prefix []any) ([][]any, error) {
	out, err := p.LookupMany(ctx, [][]any{prefix})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// LookupMany looks up many prefixes at once, grouped per bucket leader;
// the result has the rows of each prefix, in order.
func (p *PrefixLookuper) LookupMany(ctx context.Context, prefixes [][]any) ([][][]any, error) {
	routed := make([]routedKey, len(prefixes))
	for i, k := range prefixes {
		rk, err := p.router.route(k)
		if err != nil {
			return nil, fmt.Errorf("prefix lookup key %d of %s: %w", i, p.t.path, err)
		}
		routed[i] = rk
	}
	out := make([][][]any, len(prefixes))
	opts := fanoutOptions{maxKeysPerRequest: 64, maxInFlight: DefaultLookupInFlight, missingPartition: func(int) {}}
	err := p.t.fanout(ctx, routed, opts, func(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq) ([]kvBucketFailure, error) {
		return p.send(ctx, node, tableID, reqs, routed, out)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (p *PrefixLookuper) send(ctx context.Context, node ServerNode, tableID int64, reqs []*kvBucketReq, routed []routedKey, out [][][]any) ([]kvBucketFailure, error) {
	req := &protocol.PrefixLookupRequest{TableId: proto.Int64(tableID)}
	for _, br := range reqs {
		req.BucketsReq = append(req.BucketsReq, &protocol.PbPrefixLookupReqForBucket{
			PartitionId: br.partitionID, BucketId: proto.Int32(br.bucket), Keys: bucketKeys(br, routed)})
	}
	var resp protocol.PrefixLookupResponse
	if err := p.t.c.callNode(ctx, node, protocol.PrefixLookup, req, &resp); err != nil {
		return nil, err
	}
	answered := matchBuckets(reqs, resp.GetBucketsResp(), func(r *protocol.PbPrefixLookupRespForBucket) (*int64, int32) {
		return r.PartitionId, r.GetBucketId()
	})
	ok, failed := sortAnswers(reqs, answered)
	for _, k := range ok {
		br, r := reqs[k], answered[k]
		lists := r.GetValueLists()
		if len(lists) != len(br.idx) {
			return nil, &Error{Code: flusserr.CorruptMessage, Message: fmt.Sprintf(
				"prefix lookup answered %d value lists for %d keys in bucket %d", len(lists), len(br.idx), br.bucket)}
		}
		for j, l := range lists {
			rows := make([][]any, 0, len(l.GetValues()))
			for _, v := range l.GetValues() {
				row, err := p.t.values.decode(v)
				if err != nil {
					return nil, err
				}
				rows = append(rows, row)
			}
			out[br.idx[j]] = rows
		}
	}
	return failed, nil
}
