package row

import (
	"errors"
	"fmt"
	"strings"

	"github.com/flussql/flussql/fluss/internal/codec"
	"github.com/flussql/flussql/fluss/types"
)

// ErrUnsupportedType is returned for a type the codecs do not know (an unknown Kind).
var ErrUnsupportedType = errors.New("row: type not supported yet")

// Format is a Fluss binary row format.
type Format int8

// The binary row formats (table options table.kv.format / table.log.format).
const (
	Compacted Format = iota + 1
	Indexed
)

// String returns the table-option spelling of the format.
func (f Format) String() string {
	switch f {
	case Compacted:
		return "COMPACTED"
	case Indexed:
		return "INDEXED"
	}
	return fmt.Sprintf("Format(%d)", int8(f))
}

// ParseFormat parses a table.kv.format value ("COMPACTED" or "INDEXED", any case).
func ParseFormat(s string) (Format, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "COMPACTED":
		return Compacted, nil
	case "INDEXED":
		return Indexed, nil
	}
	return 0, fmt.Errorf("row: unknown row format %q", s)
}

// Encoder encodes rows of one row type in one format.
type Encoder interface {
	// Append appends the encoding of values (one per column, nil = NULL) to dst and
	// returns the extended slice. On error dst is returned unchanged.
	Append(dst []byte, values []any) ([]byte, error)
	// Format returns the row format written.
	Format() Format
}

// Decoder decodes rows of one row type in one format.
type Decoder interface {
	// Decode decodes one row that spans all of b. The result never aliases b.
	Decode(b []byte) ([]any, error)
	// Format returns the row format read.
	Format() Format
}

// NewEncoder returns an encoder of the given format for rows of fieldTypes.
func NewEncoder(f Format, fieldTypes []types.DataType) (Encoder, error) {
	switch f {
	case Compacted:
		return NewCompactedEncoder(fieldTypes)
	case Indexed:
		return NewIndexedEncoder(fieldTypes)
	}
	return nil, fmt.Errorf("row: unknown row format %v", f)
}

// NewDecoder returns a decoder of the given format for rows of fieldTypes.
func NewDecoder(f Format, fieldTypes []types.DataType) (Decoder, error) {
	switch f {
	case Compacted:
		return NewCompactedDecoder(fieldTypes)
	case Indexed:
		return NewIndexedDecoder(fieldTypes)
	}
	return nil, fmt.Errorf("row: unknown row format %v", f)
}

// FieldTypes returns the column types of cols, in order.
func FieldTypes(cols []types.Column) []types.DataType {
	ts := make([]types.DataType, len(cols))
	for i, c := range cols {
		ts[i] = c.Type
	}
	return ts
}

// checkTypes validates type parameters and rejects types the codecs cannot handle.
func checkTypes(ts []types.DataType, needLengths bool) error {
	for i := range ts {
		if err := checkType(&ts[i], needLengths); err != nil {
			return fmt.Errorf("column %d: %w", i, err)
		}
	}
	return nil
}

func checkType(t *types.DataType, needLengths bool) error {
	if c := codec.For(t.Kind); c != nil {
		return c.Check(t, needLengths)
	}
	switch t.Kind {
	case types.Row:
		for i := range t.Fields {
			if err := checkType(&t.Fields[i].Type, needLengths); err != nil {
				return fmt.Errorf("field %q: %w", t.Fields[i].Name, err)
			}
		}
		return nil
	case types.Array:
		if t.Elem == nil {
			return fmt.Errorf("row: ARRAY without an element type")
		}
		if err := checkType(t.Elem, needLengths); err != nil {
			return fmt.Errorf("array element: %w", err)
		}
		return nil
	case types.Map:
		if t.Key == nil || t.Value == nil {
			return fmt.Errorf("row: MAP without a key or value type")
		}
		if err := checkType(t.Key, needLengths); err != nil {
			return fmt.Errorf("map key: %w", err)
		}
		if err := checkType(t.Value, needLengths); err != nil {
			return fmt.Errorf("map value: %w", err)
		}
		return nil
	}
	return fmt.Errorf("%w: %s", ErrUnsupportedType, t)
}

func rowFieldTypes(t *types.DataType) []types.DataType {
	ts := make([]types.DataType, len(t.Fields))
	for i, f := range t.Fields {
		ts[i] = f.Type
	}
	return ts
}

// typeError describes a Go value of the wrong type for a column.
func typeError(t *types.DataType, want string, v any) error { return codec.TypeError(t, want, v) }

func nullBitsSize(n int) int { return (n + 7) / 8 }

// layout is the per-column codec plan of a top-level row type, computed once by
// each encoder and decoder. Nested ROW values pass a nil layout and look their
// codecs up per value.
type layout struct {
	codecs []*codec.Codec // nil for ROW, ARRAY, MAP
	sizes  []int          // IndexedRow width, -1 for a variable-length column
	header int            // IndexedRow null bits plus length slots
}

func newLayout(ts []types.DataType) *layout {
	l := &layout{codecs: make([]*codec.Codec, len(ts)), sizes: make([]int, len(ts))}
	for i := range ts {
		l.codecs[i] = codec.For(ts[i].Kind)
		l.sizes[i] = indexedSize(l.codecs[i], &ts[i])
	}
	_, l.header = indexedHeaderSize(ts, l)
	return l
}

// codec returns the codec of column i (nil for a nested type).
func (l *layout) codec(ts []types.DataType, i int) *codec.Codec {
	if l != nil {
		return l.codecs[i]
	}
	return codec.For(ts[i].Kind)
}

// indexedSize is c's IndexedRow width of t; nested types (c nil) are variable-length.
func indexedSize(c *codec.Codec, t *types.DataType) int {
	if c == nil {
		return -1
	}
	return c.IndexedSize(t)
}
