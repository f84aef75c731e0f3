package flusstest

import (
	"bytes"
	"fmt"
	"sort"

	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/logbatch"
	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/internal/row"
)

// kvTable checks that t is a primary-key table.
func kvTable(t *table) (int32, string) {
	if !t.pk {
		return codeNonPrimaryKeyTable, fmt.Sprintf("%s.%s is not a primary-key table", t.db, t.name)
	}
	return 0, ""
}

func (c *Cluster) putKv(r *request, req *protocol.PutKvRequest) (*protocol.PutKvResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &protocol.PutKvResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &protocol.PbPutKvRespForBucket{PartitionId: br.PartitionId, BucketId: proto.Int32(br.GetBucketId())}
		resp.BucketsResp = append(resp.BucketsResp, out)
		bk, code, msg := c.checkBucket(r, t, br.PartitionId, br.GetBucketId())
		if code == 0 {
			code, msg = kvTable(t)
		}
		if code == 0 {
			code, msg = bk.put(t, br.GetRecords())
		}
		out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
		if code == 0 {
			out.LogEndOffset = proto.Int64(bk.end)
		}
	}
	return resp, nil
}

// put applies the KV batches of one bucket and appends their changes to the changelog: +I
// for a new key, -U and +U for a changed one, -D for a deleted one. A resent batch of an
// idempotent writer is applied once.
func (b *bucket) put(t *table, records []byte) (int32, string) {
	type change struct {
		key   string
		value []byte // nil: delete
	}
	var changes []change
	for rest := records; len(rest) > 0; {
		bt, n, err := kvbatch.Decode(rest)
		if err != nil {
			return codeCorruptMessage, fmt.Sprintf("corrupt KV batch: %v", err)
		}
		rest = rest[n:]
		if bt.WriterID != kvbatch.NoWriterID {
			if w, ok := b.writers[bt.WriterID]; ok && bt.BatchSequence <= w.seq {
				continue
			}
			b.writers[bt.WriterID] = writerState{seq: bt.BatchSequence, base: b.end}
		}
		for _, rec := range bt.Records {
			ch := change{key: string(rec.Key)}
			if !rec.IsDelete() {
				// the server stores a value as the batch's schema id and the row
				ch.value = kvbatch.AppendValue(nil, bt.SchemaID, rec.Value)
			}
			changes = append(changes, ch)
		}
	}
	format, err := row.ParseFormat(t.desc.Properties["table.kv.format"])
	if err != nil {
		format = row.Compacted
	}
	dec, err := row.NewDecoder(format, t.colTypes)
	decode := func(v []byte) ([]any, error) {
		if err != nil {
			return nil, err
		}
		_, rowBytes, err := kvbatch.SplitValue(v)
		if err != nil {
			return nil, err
		}
		return dec.Decode(rowBytes)
	}
	var rows [][]any
	var kinds []logbatch.ChangeType
	keep := true // false once a row cannot go to the changelog (nested columns)
	note := func(kind logbatch.ChangeType, v []byte) {
		if !keep {
			return
		}
		vals, err := decode(v)
		if err != nil {
			keep = false
			return
		}
		rows, kinds = append(rows, vals), append(kinds, kind)
	}
	for _, ch := range changes {
		old, exists := b.kv[ch.key]
		switch {
		case ch.value == nil && exists:
			delete(b.kv, ch.key)
			note(logbatch.Delete, old)
		case ch.value == nil:
		case exists:
			b.kv[ch.key] = ch.value
			note(logbatch.UpdateBefore, old)
			note(logbatch.UpdateAfter, ch.value)
		default:
			b.kv[ch.key] = ch.value
			note(logbatch.Insert, ch.value)
		}
	}
	if keep && len(rows) > 0 {
		if data, err := changelogBatch(t, rows, kinds); err == nil {
			b.appendBatch(data, len(rows))
		}
	}
	return 0, ""
}

func (c *Cluster) lookup(r *request, req *protocol.LookupRequest) (*protocol.LookupResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &protocol.LookupResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &protocol.PbLookupRespForBucket{PartitionId: br.PartitionId, BucketId: proto.Int32(br.GetBucketId())}
		resp.BucketsResp = append(resp.BucketsResp, out)
		bk, code, msg := c.checkBucket(r, t, br.PartitionId, br.GetBucketId())
		if code == 0 {
			code, msg = kvTable(t)
		}
		if code != 0 {
			out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
			continue
		}
		for _, k := range br.GetKeys() {
			out.Values = append(out.Values, &protocol.PbValue{Values: bk.kv[string(k)]})
		}
	}
	return resp, nil
}

func (c *Cluster) prefixLookup(r *request, req *protocol.PrefixLookupRequest) (*protocol.PrefixLookupResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &protocol.PrefixLookupResponse{}
	for _, br := range req.GetBucketsReq() {
		out := &protocol.PbPrefixLookupRespForBucket{PartitionId: br.PartitionId, BucketId: proto.Int32(br.GetBucketId())}
		resp.BucketsResp = append(resp.BucketsResp, out)
		bk, code, msg := c.checkBucket(r, t, br.PartitionId, br.GetBucketId())
		if code == 0 {
			code, msg = kvTable(t)
		}
		if code != 0 {
			out.ErrorCode, out.ErrorMessage = codePtr(code, msg)
			continue
		}
		keys := bk.sortedKeys()
		for _, prefix := range br.GetKeys() {
			list := &protocol.PbValueList{}
			for _, k := range keys {
				if bytes.HasPrefix([]byte(k), prefix) {
					list.Values = append(list.Values, bk.kv[k])
				}
			}
			out.ValueLists = append(out.ValueLists, list)
		}
	}
	return resp, nil
}

func (b *bucket) sortedKeys() []string {
	keys := make([]string, 0, len(b.kv))
	for k := range b.kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (c *Cluster) limitScan(r *request, req *protocol.LimitScanRequest) (*protocol.LimitScanResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, err := c.tableByID(req.GetTableId())
	if err != nil {
		return nil, err
	}
	resp := &protocol.LimitScanResponse{IsLogTable: proto.Bool(!t.pk)}
	bk, code, msg := c.checkBucket(r, t, req.PartitionId, req.GetBucketId())
	if code != 0 {
		resp.ErrorCode, resp.ErrorMessage = codePtr(code, msg)
		return resp, nil
	}
	if !t.pk {
		return resp, nil
	}
	var recs []kvbatch.ValueRecord
	for _, k := range bk.sortedKeys() {
		if len(recs) == int(req.GetLimit()) {
			break
		}
		id, rowBytes, err := kvbatch.SplitValue(bk.kv[k])
		if err != nil {
			continue
		}
		recs = append(recs, kvbatch.ValueRecord{SchemaID: id, Row: rowBytes})
	}
	if len(recs) > 0 {
		resp.Records = kvbatch.AppendValueBatch(nil, recs)
	}
	return resp, nil
}
