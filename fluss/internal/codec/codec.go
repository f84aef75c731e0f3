// Package codec holds, for each scalar type root of package types, everything the
// wire client knows about its values: the Go value it takes (package datum's value
// model), its CompactedRow and IndexedRow encodings, its BinaryArray element
// encoding, its Arrow column conversion (as Fluss's ArrowFieldWriters do it), its
// column statistics (an AlignedRow field), its partition-name string and its
// predicate literal. The callers (package row, logbatch, bucketing and fluss) keep
// the row, batch and nesting logic and ask [For] for the per-type part.
//
// Nested types (ARRAY, MAP, ROW) have no Codec: their callers recurse and reach the
// codecs of their element types.
//
// Adding a scalar type touches three files: its Kind constant and kinds-table entry
// (SQL name, JSON root, parameter shape, Arrow type) in fluss/types/kinds.go, one file
// here whose init function registers its Codec, and a sample value in the table of
// codec_test.go, whose completeness test fails for a scalar kind without a codec or a
// sample.
package codec

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// Codec is the per-type knowledge of one scalar type root. Every function takes the
// column's full type (for its parameters: length, precision, scale) and, for the
// encoders, a non-nil value; NULLs are the callers' business (null bits). Functions
// a type does not support are nil: Stats*, Partition and Literal.
type Codec struct {
	// Kind is the type root this codec handles.
	Kind types.Kind
	// GoType names the Go type of the values, e.g. "int64" or "datum.Date".
	GoType string

	// Check validates t's parameters; needLength asks for CHAR/BINARY lengths
	// (IndexedRow pads to them).
	Check func(t *types.DataType, needLength bool) error

	// AppendCompacted appends v in CompactedRow encoding (CompactedRowWriter).
	AppendCompacted func(dst []byte, t *types.DataType, v any) ([]byte, error)
	// ReadCompacted reads one CompactedRow value from the start of b and returns
	// the number of bytes it took. (Taking a slice, not a *Reader, keeps the
	// callers' readers on the stack.)
	ReadCompacted func(b []byte, t *types.DataType) (v any, n int, err error)

	// IndexedSize is the fixed IndexedRow width of t in bytes, or -1 for a
	// variable-length type (whose length goes to a header slot).
	IndexedSize func(t *types.DataType) int
	// AppendIndexed appends v in IndexedRow encoding (variable-length values raw).
	AppendIndexed func(dst []byte, t *types.DataType, v any) ([]byte, error)
	// ReadIndexed reads a value from exactly its IndexedRow bytes (IndexedSize
	// bytes, or the slot's length for variable-length types).
	ReadIndexed func(b []byte, t *types.DataType) (any, error)

	// ArraySlot is the width of t's fixed-part slot in a BinaryArray
	// (BinaryArray.calculateFixLengthPartSize).
	ArraySlot int
	// AppendArray writes v into the slot at pos of the BinaryArray starting at
	// base in dst, appending a variable-length region to dst if it needs one.
	AppendArray func(dst []byte, base, pos int, t *types.DataType, v any) ([]byte, error)
	// ReadArray reads the element in the slot at pos and returns a.Next after
	// the element's region. (A value, not a pointer, keeps the callers'
	// readers on the stack.)
	ReadArray func(a ArrayReader, pos int, t *types.DataType) (v any, next int, err error)

	// Arrow returns t's Arrow column conversion.
	Arrow func(t types.DataType) (ArrowColumn, error)
	// IndexedToArrow appends the value of IndexedRow bytes b (as ReadIndexed
	// takes them) to an Arrow builder of t's Arrow type.
	IndexedToArrow func(bl array.Builder, t *types.DataType, b []byte) error

	// StatsCompute returns the smallest and largest non-null values of an Arrow
	// column, as Fluss 1.0's statistics collector orders them; both nil for
	// an all-null column. Nil for types without statistics.
	StatsCompute func(a arrow.Array, t *types.DataType) (lo, hi any, err error)
	// StatsPut writes a statistics value into the 8-byte AlignedRow field at
	// off of row, appending to row's variable part; ok is false when v is not
	// of the type's statistics Go type.
	StatsPut func(row []byte, off int, v any) (out []byte, ok bool)
	// StatsGet reads the AlignedRow field at off of row.
	StatsGet func(row []byte, off int) (any, error)

	// Partition renders a partition value as Java's
	// PartitionUtils.convertValueOfType does; nil for types that cannot be
	// partition keys.
	Partition func(t *types.DataType, v any) (string, error)

	// Literal encodes a predicate literal (PredicateMessageUtils); nil for types
	// the client does not push down.
	Literal func(t *types.DataType, v any) (*protocol.PbLiteralValue, error)
}

// ArrowColumn converts one Arrow column's values.
type ArrowColumn struct {
	// Check validates a non-nil value and returns an estimate of its encoded size.
	Check func(v any) (int, error)
	// Put appends a value that passed Check.
	Put func(b array.Builder, v any)
	// Get reads row i (not null) of an array; strings and bytes are copied.
	Get func(a arrow.Array, i int) any
}

var registry [32]*Codec

// register adds c to the registry; called from the init functions of the family files.
func register(cs ...*Codec) {
	for _, c := range cs {
		if registry[c.Kind] != nil {
			panic(fmt.Sprintf("codec: %s registered twice", c.Kind))
		}
		registry[c.Kind] = c
	}
}

// For returns the codec of kind k, or nil for a nested or unknown kind.
func For(k types.Kind) *Codec {
	if uint(k) < uint(len(registry)) {
		return registry[k]
	}
	return nil
}

// TypeError describes a Go value of the wrong type for a row column.
func TypeError(t *types.DataType, want string, v any) error {
	return fmt.Errorf("row: %s value must be %s, got %T", t, want, v)
}

func noParams(*types.DataType, bool) error { return nil }

func fixedSize(n int) func(*types.DataType) int { return func(*types.DataType) int { return n } }

func variableSize(*types.DataType) int { return -1 }
