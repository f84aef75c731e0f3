package executor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/compute"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

// The union read of a datalake-enabled primary-key table (planner.Scan.IsLakeMerge) merges
// the lake snapshot with each bucket's changelog after the snapshot's offset for it, as
// Fluss's Flink connector does (LakeSnapshotAndLogSplitScanner): the latest change of a key
// wins, and a key whose latest change is a delete (or an update_before not yet followed by
// its update_after) has no row. The changelog is read first, to its end offsets, keeping
// only the latest change of every key it touches; then the lake's rows stream through,
// those of a changed key dropped; then the changed keys that still have a row. Memory is
// the changed keys and their latest rows (accounted against the query's memory budget),
// whatever the size of the lake. The merge is format-agnostic: Iceberg and Paimon readers
// hand it batches in the table's Fluss Arrow types.

// mergedRowsPerBatch caps the rows of a batch of changed rows the merge emits.
const mergedRowsPerBatch = 8192

// lakeMergeState names the merge's state in memory-budget errors.
const lakeMergeState = "union read's changed keys"

// lakeMerge merges a primary-key table's lake snapshot with its changelog after it. The
// batches it takes (changelog and lake alike) hold the columns cols, of which keySlots are
// the primary key. Use: addChanges with every changelog batch, then dropChanged with every
// lake batch, then nextChanged until io.EOF; release at the end.
type lakeMerge struct {
	cols     []types.Column
	colTypes []types.DataType
	keySlots []int
	budget   *engine.Budget
	// changed holds the latest change of every key the changelog touches.
	changed map[string]*changedRow
	held    int64
	keyBuf  []byte
	// keyEnc appends the key columns of the batch at hand (bindKeys).
	keyEnc []func(key []byte, i int) []byte
	// next and stop iterate changed once the lake is read (nextChanged).
	next func() (*changedRow, bool)
	stop func()
	// logRead is set once the changelog is read to its end offsets.
	logRead bool
	// counts for tests: changelog rows read, lake rows dropped.
	changes, dropped int64
}

// newLakeMerge returns the merge of the union read of primary-key table info whose
// batches hold the table's columns at projection (the primary key among them), its state
// accounted against budget (nil: unbounded).
func newLakeMerge(info *fluss.TableInfo, projection []int, budget *engine.Budget) (*lakeMerge, error) {
	schema := info.Schema()
	m := &lakeMerge{budget: budget, changed: map[string]*changedRow{}}
	for _, c := range projection {
		m.cols = append(m.cols, schema.Columns[c])
		m.colTypes = append(m.colTypes, schema.Columns[c].Type)
	}
	for _, k := range schema.PrimaryKey {
		slot := slices.Index(projection, schema.Index(k))
		if slot < 0 {
			return nil, fmt.Errorf("flussql: the union read of %s does not read primary key column %s, which the merge needs (a planner bug)", info.Path, k)
		}
		m.keySlots = append(m.keySlots, slot)
	}
	return m, nil
}

// changedRow is the latest change of a key: its row, or nil after a delete.
type changedRow struct{ row []any }

// addChanges applies a changelog batch: insert and update_after make the row the key's
// latest; update_before and delete remove it. Batches of one bucket come in offset order;
// a key lives in one bucket, so the order across buckets does not matter.
func (m *lakeMerge) addChanges(b *fluss.ScanBatch) error {
	rec := b.Record
	if err := m.bindKeys(rec); err != nil {
		return err
	}
	for i := 0; i < int(rec.NumRows()); i++ {
		key := m.key(i)
		var row []any
		switch ct := b.ChangeType(i); ct {
		case fluss.Insert, fluss.UpdateAfter, fluss.AppendOnly:
			vals, err := fluss.RowValues(rec, m.colTypes, i)
			if err != nil {
				return err
			}
			row = vals
		case fluss.UpdateBefore, fluss.Delete:
		default:
			return fmt.Errorf("flussql: the changelog holds a row of change type %s, which a union read does not know", ct)
		}
		m.changes++
		var delta int64
		if e, ok := m.changed[key]; ok {
			delta = rowBytes(row) - rowBytes(e.row)
			e.row = row
		} else {
			delta = rowBytes(row) + entryBytes(key)
			m.changed[strings.Clone(key)] = &changedRow{row: row}
		}
		if err := m.grow(delta); err != nil {
			return err
		}
	}
	return nil
}

// grow accounts n more bytes of state (n may be negative).
func (m *lakeMerge) grow(n int64) error {
	m.held += n
	if n < 0 {
		m.budget.Shrink(-n)
		return nil
	}
	return m.budget.Grow(n, lakeMergeState)
}

// dropChanged returns the lake batch rec without the rows of keys the changelog touched
// (their latest change replaces them). It takes rec over: the result is rec itself or a
// new batch, and rec is released when it is not returned.
func (m *lakeMerge) dropChanged(ctx context.Context, rec arrow.RecordBatch) (arrow.RecordBatch, error) {
	if len(m.changed) == 0 {
		return rec, nil
	}
	if err := m.bindKeys(rec); err != nil {
		rec.Release()
		return nil, err
	}
	n := int(rec.NumRows())
	var keep *array.BooleanBuilder
	for i := range n {
		_, hit := m.changed[m.key(i)]
		if hit && keep == nil {
			keep = array.NewBooleanBuilder(memory.DefaultAllocator)
			keep.Reserve(n)
			for range i {
				keep.UnsafeAppend(true)
			}
		}
		if keep != nil {
			keep.UnsafeAppend(!hit)
		}
		if hit {
			m.dropped++
		}
	}
	if keep == nil {
		return rec, nil
	}
	mask := keep.NewArray()
	keep.Release()
	defer mask.Release()
	defer rec.Release()
	out, err := compute.FilterRecordBatch(ctx, rec, mask, compute.DefaultFilterOptions())
	if err != nil {
		return nil, fmt.Errorf("flussql: dropping the lake rows of changed keys: %w", err)
	}
	return out, nil
}

// nextChanged returns a batch of the changed keys that have a row (at most
// mergedRowsPerBatch), or io.EOF after the last.
func (m *lakeMerge) nextChanged() (arrow.RecordBatch, error) {
	if m.next == nil {
		m.next, m.stop = iter.Pull(maps.Values(m.changed))
	}
	var b *fluss.ArrowRowBuilder
	rows := 0
	for rows < mergedRowsPerBatch {
		e, ok := m.next()
		if !ok {
			break
		}
		row := e.row
		if row == nil {
			continue
		}
		if b == nil {
			var err error
			if b, err = fluss.NewArrowRowBuilder(nil, m.cols); err != nil {
				return nil, err
			}
			defer b.Release()
		}
		if err := b.Append(row); err != nil {
			return nil, err
		}
		rows++
	}
	if b == nil {
		return nil, io.EOF
	}
	return b.NewRecordBatch(), nil
}

// release drops the state and gives its bytes back to the budget.
func (m *lakeMerge) release() {
	if m == nil {
		return
	}
	if m.stop != nil {
		m.stop()
	}
	m.changed = nil
	m.budget.Shrink(m.held)
	m.held = 0
}

// bindKeys makes key read the primary key of rec's rows.
func (m *lakeMerge) bindKeys(rec arrow.RecordBatch) error {
	m.keyEnc = m.keyEnc[:0]
	for _, s := range m.keySlots {
		enc, err := engine.KeyAppender(rec.Column(s))
		if err != nil {
			return fmt.Errorf("flussql: the union read's merge by primary key: %w", err)
		}
		m.keyEnc = append(m.keyEnc, enc)
	}
	return nil
}

// key returns the primary key of row i of the batch bindKeys bound, encoded so that equal
// keys (whatever batch they come from, in the table's Fluss Arrow types) have equal
// encodings. The string shares m.keyBuf: it is valid until the next call (a map index with
// it does not copy).
func (m *lakeMerge) key(i int) string {
	buf := m.keyBuf[:0]
	for _, enc := range m.keyEnc {
		buf = enc(buf, i)
	}
	m.keyBuf = buf
	return unsafeString(buf)
}

// entryBytes estimates what a map entry of key costs besides its row: the key's bytes and
// header, the map's slot and the changedRow it points to.
func entryBytes(key string) int64 { return int64(len(key)) + 16 + 16 + 32 }

// unsafeString is b as a string without a copy; b must not change while the string is used.
func unsafeString(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// rowBytes estimates the memory of a row of values: an interface per value and what it
// points to.
func rowBytes(row []any) int64 {
	if row == nil {
		return 0
	}
	n := int64(16 * len(row))
	for _, v := range row {
		switch v := v.(type) {
		case string:
			n += 16 + int64(len(v))
		case []byte:
			n += 24 + int64(len(v))
		case nil:
		default:
			n += 16
		}
	}
	return n
}

// pollMerged returns the next batch of the union read of a primary-key table: the whole
// changelog after the snapshot is taken into the merge first (its batches are not
// returned), then come the lake's batches without the rows of changed keys, then the
// changed keys' latest rows; io.EOF after the last.
func (r *scanRows) pollMerged() (*fluss.ScanBatch, error) {
	m := r.merge
	for !m.logRead {
		b, err := r.pollLog()
		if errors.Is(err, io.EOF) {
			m.logRead = true
			break
		}
		if err != nil {
			return nil, err
		}
		countScanned(r.ctx, b.NumRows())
		err = m.addChanges(b)
		b.Release()
		if err != nil {
			return nil, err
		}
	}
	if r.lake != nil && r.lake.scan != nil {
		b, err := r.lake.next(r.ctx)
		if err == nil {
			b.Record, err = m.dropChanged(r.ctx, b.Record)
			return b, err
		}
		if !errors.Is(err, io.EOF) {
			return nil, err
		}
		r.lake.close()
	}
	rec, err := m.nextChanged()
	if err != nil {
		return nil, err
	}
	return &fluss.ScanBatch{Bucket: fluss.TableBucket{PartitionID: fluss.NoPartition, Bucket: -1}, Record: rec, BaseOffset: -1}, nil
}
