package row

import (
	"fmt"
	"slices"

	"github.com/flussql/flussql/fluss/types"
)

// KeyEncoder encodes chosen columns of a row as a Fluss key, the way Java's
// CompactedKeyEncoder does: the CompactedRow field encodings of the key columns in
// key order, with no null bitset. It produces PutKv/Lookup primary keys (encode the
// physical primary key), bucket keys and prefix-lookup keys (encode the bucket key).
// Tables with a datalake format of paimon or iceberg use other encoders, not
// covered by NewKeyEncoder; NewLakeKeyEncoderForColumns builds their encoders
// (key_lake.go). A KeyEncoder is safe for concurrent use.
type KeyEncoder struct {
	format  KeyFormat
	types   []types.DataType // types of the key columns, in key order
	indexes []int            // positions of the key columns in the input row
	names   []string         // column names for errors (may be empty)
	arity   int              // number of columns of the input row
}

// NewKeyEncoder returns an encoder taking rows of rowTypes and encoding the columns
// at keyIndexes, in that order.
func NewKeyEncoder(rowTypes []types.DataType, keyIndexes []int) (*KeyEncoder, error) {
	if len(keyIndexes) == 0 {
		return nil, fmt.Errorf("row: a key needs at least one column")
	}
	e := &KeyEncoder{arity: len(rowTypes), indexes: slices.Clone(keyIndexes)}
	for _, idx := range keyIndexes {
		if idx < 0 || idx >= len(rowTypes) {
			return nil, fmt.Errorf("row: key column index %d out of range [0, %d)", idx, len(rowTypes))
		}
		t := rowTypes[idx]
		if t.Kind.Nested() {
			// as the server's TableDescriptorValidation (KEY_UNSUPPORTED_TYPES)
			return nil, fmt.Errorf("row: key column %d is %s; Fluss does not allow ARRAY, MAP or ROW in primary or bucket keys", idx, t)
		}
		if err := checkType(&t, false); err != nil {
			return nil, fmt.Errorf("key column %d: %w", idx, err)
		}
		e.types = append(e.types, t)
	}
	return e, nil
}

// NewKeyEncoderForColumns returns an encoder taking rows with the given columns and
// encoding the named key columns in the order given.
func NewKeyEncoderForColumns(cols []types.Column, keyNames []string) (*KeyEncoder, error) {
	idx := make([]int, len(keyNames))
	for i, name := range keyNames {
		idx[i] = slices.IndexFunc(cols, func(c types.Column) bool { return c.Name == name })
		if idx[i] < 0 {
			return nil, fmt.Errorf("row: key column %q is not a column of the row", name)
		}
	}
	e, err := NewKeyEncoder(FieldTypes(cols), idx)
	if err != nil {
		return nil, err
	}
	e.names = slices.Clone(keyNames)
	return e, nil
}

// Append appends the key of row (all columns of the input row type) to dst. A NULL
// in a key column is an error; on error dst is returned unchanged.
func (e *KeyEncoder) Append(dst []byte, row []any) ([]byte, error) {
	if len(row) != e.arity {
		return dst, fmt.Errorf("row: got %d values for %d columns", len(row), e.arity)
	}
	if e.format != KeyCompacted {
		return e.appendLake(dst, row)
	}
	out := dst
	for i, idx := range e.indexes {
		v := row[idx]
		if v == nil {
			return dst, fmt.Errorf("row: key column %s is NULL; key columns must not be NULL", e.describe(i))
		}
		var err error
		if out, err = appendCompactedValue(out, &e.types[i], v); err != nil {
			return dst, fmt.Errorf("key column %s: %w", e.describe(i), err)
		}
	}
	return out, nil
}

// Encode returns the key of row in a new slice.
func (e *KeyEncoder) Encode(row []any) ([]byte, error) { return e.Append(nil, row) }

func (e *KeyEncoder) describe(i int) string {
	if i < len(e.names) {
		return fmt.Sprintf("%q (%s)", e.names[i], &e.types[i])
	}
	return fmt.Sprintf("%d (%s)", e.indexes[i], &e.types[i])
}

// PhysicalPrimaryKey returns the primary key columns minus the partition columns, in
// primary-key order: the columns whose encoding is the PutKv/Lookup key. It is also
// the default bucket key of a primary-key table.
func PhysicalPrimaryKey(primaryKey, partitionKeys []string) []string {
	var out []string
	for _, c := range primaryKey {
		if !slices.Contains(partitionKeys, c) {
			out = append(out, c)
		}
	}
	return out
}
