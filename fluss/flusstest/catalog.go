package flusstest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/flussql/flussql/fluss/types"
)

// catalog is the cluster's databases and tables. It is guarded by Cluster.mu.
type catalog struct {
	dbs    map[string]*database
	tables map[int64]*table
	nextID int64
}

type database struct {
	name    string
	json    []byte
	created int64
	tables  map[string]*table
}

// table is one table: its descriptor, partitions, leaders and storage.
type table struct {
	id       int64
	db, name string
	json     []byte
	desc     types.TableJSON
	schema   []byte // the descriptor's "schema" object, answered by GET_TABLE_SCHEMA
	created  int64
	buckets  int
	parts    map[string]*partition
	leaders  map[int32]int32
	storage  map[bucketID]*bucket
	pk       bool
	colTypes []types.DataType
}

type partition struct {
	id     int64
	name   string
	values []string // in partition-key order
}

// bucketID names one bucket: a partition id (-1 for none) and a bucket number.
type bucketID struct {
	partition int64
	bucket    int32
}

func newCatalog() catalog {
	c := catalog{dbs: map[string]*database{}, tables: map[int64]*table{}, nextID: 100}
	c.dbs["fluss"] = &database{name: "fluss", json: []byte(`{"version":1}`), created: nowMillis(), tables: map[string]*table{}}
	return c
}

func nowMillis() int64 { return time.Now().UnixMilli() }

func (c *catalog) id() int64 {
	c.nextID++
	return c.nextID
}

func (c *catalog) database(name string) (*database, error) {
	db, ok := c.dbs[name]
	if !ok {
		return nil, errorf(codeDatabaseNotExist, fmt.Sprintf("Database '%s' does not exist.", name))
	}
	return db, nil
}

func (c *catalog) table(db, name string) (*table, error) {
	d, err := c.database(db)
	if err != nil {
		return nil, errorf(codeTableNotExist, fmt.Sprintf("Table '%s.%s' does not exist.", db, name))
	}
	t, ok := d.tables[name]
	if !ok {
		return nil, errorf(codeTableNotExist, fmt.Sprintf("Table '%s.%s' does not exist.", db, name))
	}
	return t, nil
}

func (c *catalog) createDatabase(name string, descJSON []byte, ignoreIfExists bool) error {
	if _, ok := c.dbs[name]; ok {
		if ignoreIfExists {
			return nil
		}
		return errorf(codeDatabaseExists, fmt.Sprintf("Database %s already exists.", name))
	}
	if len(descJSON) == 0 {
		descJSON = []byte(`{"version":1}`)
	}
	c.dbs[name] = &database{name: name, json: descJSON, created: nowMillis(), tables: map[string]*table{}}
	return nil
}

func (c *catalog) dropDatabase(name string, ignoreIfNotExists, cascade bool) error {
	d, ok := c.dbs[name]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return errorf(codeDatabaseNotExist, fmt.Sprintf("Database %s does not exist.", name))
	}
	if len(d.tables) > 0 && !cascade {
		return errorf(codeDatabaseNotEmpty, fmt.Sprintf("Database %s is not empty.", name))
	}
	for _, t := range d.tables {
		delete(c.tables, t.id)
	}
	delete(c.dbs, name)
	return nil
}

// createTable stores a table from its descriptor JSON, filling in what the server fills in:
// the bucket count (1) and the bucket key of a primary-key table (the primary key less the
// partition keys).
func (c *catalog) createTable(db, name string, descJSON []byte, ignoreIfExists bool) (*table, error) {
	d, err := c.database(db)
	if err != nil {
		return nil, err
	}
	if t, ok := d.tables[name]; ok {
		if ignoreIfExists {
			return t, nil
		}
		return nil, errorf(codeTableExists, fmt.Sprintf("Table %s.%s already exists.", db, name))
	}
	desc, err := types.UnmarshalTable(descJSON)
	if err != nil {
		return nil, errorf(codeInvalidTable, "invalid table descriptor: "+err.Error())
	}
	s := desc.Schema.Schema
	if desc.BucketCount == 0 {
		desc.BucketCount = 1
	}
	if len(desc.BucketKeys) == 0 && s.HasPrimaryKey() {
		for _, k := range s.PrimaryKey {
			if !slices.Contains(desc.PartitionKeys, k) {
				desc.BucketKeys = append(desc.BucketKeys, k)
			}
		}
	}
	for _, k := range append(slices.Clone(desc.PartitionKeys), desc.BucketKeys...) {
		if s.Index(k) < 0 {
			return nil, errorf(codeInvalidTable, fmt.Sprintf("key column %q is not in the schema", k))
		}
	}
	norm, err := types.MarshalTable(desc)
	if err != nil {
		return nil, errorf(codeInvalidTable, "invalid table descriptor: "+err.Error())
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(norm, &raw); err != nil {
		return nil, err
	}
	t := &table{
		id: c.id(), db: db, name: name, json: norm, desc: desc, schema: raw["schema"], created: nowMillis(),
		buckets: desc.BucketCount, parts: map[string]*partition{}, leaders: map[int32]int32{},
		storage: map[bucketID]*bucket{}, pk: s.HasPrimaryKey(),
	}
	for _, col := range s.Columns {
		t.colTypes = append(t.colTypes, col.Type)
	}
	d.tables[name] = t
	c.tables[t.id] = t
	return t, nil
}

func (c *catalog) dropTable(db, name string, ignoreIfNotExists bool) error {
	t, err := c.table(db, name)
	if err != nil {
		if ignoreIfNotExists {
			return nil
		}
		return err
	}
	delete(c.dbs[db].tables, name)
	delete(c.tables, t.id)
	return nil
}

// partitionName is Fluss's name of a partition: its values joined by "$".
func partitionName(values []string) string { return strings.Join(values, "$") }

// specValues orders a partition spec's values by the table's partition keys.
func (t *table) specValues(spec map[string]string, partial bool) ([]string, error) {
	if !partial && len(spec) != len(t.desc.PartitionKeys) {
		return nil, errorf(codePartitionSpecWrong, fmt.Sprintf("partition spec %v does not name the partition keys %v", spec, t.desc.PartitionKeys))
	}
	out := make([]string, len(t.desc.PartitionKeys))
	for k := range spec {
		if !slices.Contains(t.desc.PartitionKeys, k) {
			return nil, errorf(codePartitionSpecWrong, fmt.Sprintf("%q is not a partition key of %s.%s", k, t.db, t.name))
		}
	}
	for i, k := range t.desc.PartitionKeys {
		out[i] = spec[k]
	}
	return out, nil
}

func (c *catalog) createPartition(t *table, spec map[string]string, ignoreIfExists bool) error {
	if len(t.desc.PartitionKeys) == 0 {
		return errorf(codeNotPartitioned, fmt.Sprintf("table %s.%s is not partitioned", t.db, t.name))
	}
	values, err := t.specValues(spec, false)
	if err != nil {
		return err
	}
	name := partitionName(values)
	if _, ok := t.parts[name]; ok {
		if ignoreIfExists {
			return nil
		}
		return errorf(codePartitionExists, fmt.Sprintf("partition %s of %s.%s already exists", name, t.db, t.name))
	}
	t.parts[name] = &partition{id: c.id(), name: name, values: values}
	return nil
}

func (c *catalog) dropPartition(t *table, spec map[string]string, ignoreIfNotExists bool) error {
	values, err := t.specValues(spec, false)
	if err != nil {
		return err
	}
	p, ok := t.parts[partitionName(values)]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return errorf(codePartitionNotExists, fmt.Sprintf("partition %s of %s.%s does not exist", partitionName(values), t.db, t.name))
	}
	delete(t.parts, p.name)
	for id := range t.storage {
		if id.partition == p.id {
			delete(t.storage, id)
		}
	}
	return nil
}

// sortedPartitions returns the partitions in name order.
func (t *table) sortedPartitions() []*partition {
	out := make([]*partition, 0, len(t.parts))
	for _, p := range t.parts {
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func (t *table) partitionByID(id int64) *partition {
	for _, p := range t.parts {
		if p.id == id {
			return p
		}
	}
	return nil
}

// leader returns the node leading bucket b (-1: none).
func (t *table) leader(b int32, tablets int) int32 {
	if l, ok := t.leaders[b]; ok {
		return l
	}
	return b%int32(tablets) + 1
}

// bucketOf returns the storage of a bucket, checking that it exists.
func (t *table) bucketOf(partID *int64, b int32) (*bucket, error) {
	id := bucketID{partition: -1, bucket: b}
	if partID != nil {
		if t.partitionByID(*partID) == nil {
			return nil, errorf(codePartitionNotExists, fmt.Sprintf("partition %d of %s.%s does not exist", *partID, t.db, t.name))
		}
		id.partition = *partID
	} else if len(t.desc.PartitionKeys) > 0 {
		return nil, errorf(codePartitionNotExists, fmt.Sprintf("table %s.%s is partitioned: name a partition", t.db, t.name))
	}
	if b < 0 || int(b) >= t.buckets {
		return nil, errorf(codeUnknownTableBucket, fmt.Sprintf("bucket %d of %s.%s does not exist", b, t.db, t.name))
	}
	bk, ok := t.storage[id]
	if !ok {
		bk = newBucket()
		t.storage[id] = bk
	}
	return bk, nil
}
