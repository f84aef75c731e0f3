package fluss

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/flussql/flussql/fluss/flusserr"
	"github.com/flussql/flussql/fluss/internal/bucketing"
	"github.com/flussql/flussql/fluss/internal/kvbatch"
	"github.com/flussql/flussql/fluss/internal/row"
	"github.com/flussql/flussql/fluss/types"
)

// pkTable is what lookups and KV writes need to know about a primary-key
// table: its definition, its value decoder and how to route a key.
type pkTable struct {
	c      *Client
	path   TablePath
	info   *TableInfo
	format row.Format
	values *valueReader
}

// openPKTable checks that t is a primary-key table whose keys this client
// can encode, and prepares what lookups and writes need.
func openPKTable(t *Table) (*pkTable, error) {
	info := t.info
	if !info.HasPrimaryKey() {
		return nil, &Error{Code: flusserr.NonPrimaryKeyTableException, NotSent: true,
			Message: fmt.Sprintf("%s is a log table: it has no primary key", info.Path)}
	}
	if _, err := keyingOf(info); err != nil {
		return nil, err
	}
	format, err := row.ParseFormat(info.KvFormat())
	if err != nil {
		return nil, fmt.Errorf("fluss: %s: %w", info.Path, err)
	}
	if info.NumBuckets() <= 0 {
		return nil, fmt.Errorf("fluss: %s reports no bucket count", info.Path)
	}
	pt := &pkTable{c: t.c, path: info.Path, info: info, format: format}
	pt.values = newValueReader(t.c, info.Path, info, format)
	return pt, nil
}

// keyRouter turns input rows of some column list (the primary key for
// lookups, the whole table row for writes, the prefix columns for prefix
// lookups) into the encoded key, the bucket and the partition name.
type keyRouter struct {
	cols       []types.Column
	keyEnc     *row.KeyEncoder // the key sent to the server
	bucketEnc  *row.KeyEncoder // nil when the bucket key bytes are the key bytes
	bucket     bucketing.Function
	partIdx    []int // positions of the partition columns in cols
	partTypes  []types.DataType
	numBuckets int
}

// newKeyRouter builds a router for input rows of cols, sending keyCols as
// the key and hashing bucketCols, both encoded as the table's keying says
// (lake_keys.go). With withPartition the partition name is computed too.
func newKeyRouter(info *TableInfo, cols []types.Column, keyCols, bucketCols []string, withPartition bool) (*keyRouter, error) {
	k, err := keyingOf(info)
	if err != nil {
		return nil, err
	}
	r := &keyRouter{cols: cols, numBuckets: info.NumBuckets(), bucket: k.bucket}
	if r.keyEnc, err = row.NewLakeKeyEncoderForColumns(k.keyFormat, cols, keyCols); err != nil {
		return nil, fmt.Errorf("fluss: %s: %w", info.Path, err)
	}
	if !slices.Equal(keyCols, bucketCols) || k.keyFormat != k.bucketFormat {
		if r.bucketEnc, err = row.NewLakeKeyEncoderForColumns(k.bucketFormat, cols, bucketCols); err != nil {
			return nil, fmt.Errorf("fluss: %s: %w", info.Path, err)
		}
	}
	if !withPartition {
		return r, nil
	}
	for _, p := range info.PartitionKeys() {
		i := slices.IndexFunc(cols, func(c types.Column) bool { return c.Name == p })
		if i < 0 {
			return nil, fmt.Errorf("fluss: %s: partition column %q is missing from the input columns", info.Path, p)
		}
		r.partIdx = append(r.partIdx, i)
		r.partTypes = append(r.partTypes, cols[i].Type)
	}
	return r, nil
}

// routedKey is a key ready to send.
type routedKey struct {
	key       []byte
	bucket    int32
	partition string
}

// route encodes the key of an input row. A NULL key or partition column is
// refused, naming the column.
func (r *keyRouter) route(vals []any) (routedKey, error) {
	if len(vals) != len(r.cols) {
		return routedKey{}, fmt.Errorf("fluss: got %d values for the %d columns %s", len(vals), len(r.cols), colNames(r.cols))
	}
	key, err := r.keyEnc.Encode(vals)
	if err != nil {
		return routedKey{}, fmt.Errorf("fluss: %w", err)
	}
	bk := key
	if r.bucketEnc != nil {
		if bk, err = r.bucketEnc.Encode(vals); err != nil {
			return routedKey{}, fmt.Errorf("fluss: %w", err)
		}
	}
	b, err := r.bucket(bk, r.numBuckets)
	if err != nil {
		return routedKey{}, fmt.Errorf("fluss: %w", err)
	}
	rk := routedKey{key: key, bucket: int32(b)}
	if len(r.partIdx) > 0 {
		pv := make([]any, len(r.partIdx))
		for i, idx := range r.partIdx {
			if vals[idx] == nil {
				return routedKey{}, fmt.Errorf("fluss: partition column %q is NULL; partition columns must not be NULL", r.cols[idx].Name)
			}
			pv[i] = vals[idx]
		}
		if rk.partition, err = bucketing.PartitionName(r.partTypes, pv); err != nil {
			return routedKey{}, fmt.Errorf("fluss: %w", err)
		}
	}
	return rk, nil
}

func colNames(cols []types.Column) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	return "(" + strings.Join(names, ", ") + ")"
}

// columnsNamed returns the columns of s with the given names, in that order.
func columnsNamed(s types.Schema, names []string) ([]types.Column, error) {
	out := make([]types.Column, len(names))
	for i, n := range names {
		j := s.Index(n)
		if j < 0 {
			return nil, fmt.Errorf("fluss: no column %q", n)
		}
		out[i] = s.Columns[j]
	}
	return out, nil
}

// bucketTarget is where one bucket of a table or partition is served.
type bucketTarget struct {
	leader      ServerNode
	tableID     int64
	partitionID *int64
}

// locate finds the leader of a bucket. A missing partition yields a
// *PartitionNotExistError.
func (t *pkTable) locate(ctx context.Context, partition string, bucket int32) (bucketTarget, error) {
	var bt bucketTarget
	if partition == "" {
		tm, err := t.c.tableMetadata(ctx, t.path)
		if err != nil {
			return bt, err
		}
		bt.tableID = tm.Info.TableID
	} else {
		pm, err := t.c.partitionMetadata(ctx, t.path, partition)
		if err != nil {
			if isMissingPartition(err) {
				return bt, t.missingPartition(partition, err)
			}
			return bt, err
		}
		bt.tableID = pm.TableID
		id := pm.ID
		bt.partitionID = &id
	}
	node, err := t.c.bucketLeader(ctx, t.path, partition, bucket)
	if err != nil {
		return bt, err
	}
	bt.leader = node
	return bt, nil
}

// missingPartition is the error for a key routed to a partition that does not exist.
func (t *pkTable) missingPartition(partition string, cause error) error {
	return &PartitionNotExistError{Table: t.path, Keys: t.info.PartitionKeys(),
		Values: strings.Split(partition, PartitionSeparator), Cause: cause}
}

// retryable reports whether a KV request that failed with err may be sent
// again (after a metadata refresh when the error says so).
func retryable(err error) bool {
	var fe *Error
	if !errors.As(err, &fe) {
		return false
	}
	return fe.Retriable() || fe.InvalidMetadata() || fe.Code == flusserr.NetworkException
}

// valueReader decodes stored values (schema id + row) into rows of the
// table's current schema. Values written under another schema id (before
// or after an ALTER TABLE … ADD COLUMN) are decoded with that schema,
// fetched once per client, and mapped to the current columns by column id;
// columns the value's schema lacks are NULL.
type valueReader struct {
	c        *Client
	path     TablePath
	tableID  int64
	current  types.Schema
	schemaID int16
	dec      *kvbatch.ValueDecoder

	mu      sync.Mutex
	mapping map[int16][]int // schema id -> for each current column, its index in that schema or -1
}

func newValueReader(c *Client, path TablePath, info *TableInfo, format row.Format) *valueReader {
	v := &valueReader{c: c, path: path, tableID: info.TableID, current: info.Schema(), schemaID: int16(info.SchemaID), mapping: map[int16][]int{}}
	v.dec = kvbatch.NewValueDecoder(format, v.resolve)
	return v
}

func (v *valueReader) resolve(id int16) ([]types.DataType, error) {
	if id == v.schemaID {
		return row.FieldTypes(v.current.Columns), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), v.c.cfg.RequestTimeout)
	defer cancel()
	cur, err := v.c.tableSchema(ctx, v.path, v.tableID, v.schemaID)
	if err != nil {
		return nil, err
	}
	if len(cur.schema.Columns) != len(v.current.Columns) {
		return nil, fmt.Errorf("fluss: schema %d of %s has %d columns, the table handle %d", v.schemaID, v.path, len(cur.schema.Columns), len(v.current.Columns))
	}
	old, err := v.c.tableSchema(ctx, v.path, v.tableID, id)
	if err != nil {
		return nil, err
	}
	all := make([]int, len(cur.colIDs))
	for i := range all {
		all[i] = i
	}
	m, err := columnMapping(old, cur, all)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	v.mapping[id] = m
	v.mu.Unlock()
	return row.FieldTypes(old.schema.Columns), nil
}

// decode decodes one value with its schema-id prefix.
func (v *valueReader) decode(value []byte) ([]any, error) {
	id, vals, err := v.dec.Decode(value)
	if err != nil {
		return nil, fmt.Errorf("fluss: value of %s: %w", v.path, err)
	}
	return v.project(id, vals), nil
}

// decodeRow decodes row bytes written under schema id.
func (v *valueReader) decodeRow(id int16, b []byte) ([]any, error) {
	vals, err := v.dec.DecodeRow(id, b)
	if err != nil {
		return nil, fmt.Errorf("fluss: value of %s: %w", v.path, err)
	}
	return v.project(id, vals), nil
}

func (v *valueReader) project(id int16, vals []any) []any {
	if id == v.schemaID {
		return vals
	}
	v.mu.Lock()
	m := v.mapping[id]
	v.mu.Unlock()
	out := make([]any, len(m))
	for i, j := range m {
		if j >= 0 && j < len(vals) {
			out[i] = vals[j]
		}
	}
	return out
}
