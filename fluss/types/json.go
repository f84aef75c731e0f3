package types

// Fluss's JSON forms of data types, schemas and table descriptors, as the
// server reads and writes them (CreateTable, GetTableInfo, GetTableSchema).
// Writers emit keys in the order Fluss's Java serde does and always spell out
// precision, scale and length (the server has no defaults for them). Column
// and nested field ids are assigned the way Fluss's Schema builder does:
// each column takes the next id, then the fields nested inside its type.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
)

// jsonVersion is the "version" written into schema and table JSON.
const jsonVersion = 1

// AggFunction is a column's aggregate function in an aggregation merge-engine
// table, e.g. {Type: "listagg", Parameters: {"delimiter": ";"}}.
type AggFunction struct {
	// Type is the function's name, lower case with underscores ("sum",
	// "last_value_ignore_nulls").
	Type string
	// Parameters are the function's parameters (e.g. listagg's "delimiter").
	Parameters map[string]string
}

// SchemaJSON is a Schema with the parts only Fluss's schema JSON carries.
type SchemaJSON struct {
	// Schema is the columns and primary key.
	Schema Schema
	// AutoIncrementColumns names auto-increment columns.
	AutoIncrementColumns []string
	// AggFunctions maps column names to their aggregate functions.
	AggFunctions map[string]AggFunction
}

// TableJSON is Fluss's table descriptor JSON.
type TableJSON struct {
	// Schema is the table's schema with its JSON-only parts.
	Schema SchemaJSON
	// Comment is the table comment.
	Comment string
	// PartitionKeys names the partition columns, in order.
	PartitionKeys []string
	// BucketKeys and BucketCount describe the distribution. BucketCount 0
	// means "server default"; with no keys and no count no distribution is sent.
	BucketKeys []string
	// BucketCount is the number of buckets (0: the server's default).
	BucketCount int
	// Properties are Fluss's table options ("table.*", "client.*").
	Properties map[string]string
	// CustomProperties are free-form user properties.
	CustomProperties map[string]string
}

// Root names of the type families in Fluss JSON.
var rootKinds = func() map[string]Kind {
	m := make(map[string]Kind, len(kinds))
	for k, ki := range kinds {
		if ki.root != "" {
			m[ki.root] = Kind(k)
		}
	}
	return m
}()

// jw builds JSON text with a fixed key order.
type jw struct {
	buf bytes.Buffer
	ids int // last field id handed out
}

func (w *jw) str(s string) {
	b, _ := json.Marshal(s)
	w.buf.Write(b)
}

func (w *jw) key(k string, first bool) {
	if !first {
		w.buf.WriteByte(',')
	}
	w.str(k)
	w.buf.WriteByte(':')
}

func (w *jw) strs(ss []string) {
	w.buf.WriteByte('[')
	for i, s := range ss {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.str(s)
	}
	w.buf.WriteByte(']')
}

func (w *jw) props(m map[string]string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.buf.WriteByte('{')
	for i, k := range keys {
		w.key(k, i == 0)
		w.str(m[k])
	}
	w.buf.WriteByte('}')
}

// MarshalDataType returns the Fluss JSON of t. Nested ROW field ids are
// numbered from 0.
func MarshalDataType(t DataType) ([]byte, error) {
	w := &jw{ids: -1}
	if err := w.dataType(t); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

func (w *jw) dataType(t DataType) error {
	ki, ok := t.Kind.info()
	if !ok {
		return fmt.Errorf("types: cannot write %v as Fluss JSON", t.Kind)
	}
	w.buf.WriteString(`{"type":`)
	w.str(ki.root)
	if t.NotNull {
		w.buf.WriteString(`,"nullable":false`)
	}
	switch p := ki.params; {
	case p == lengthParam:
		n := t.Length
		if n == 0 {
			n = 1 // Fluss's default length
		}
		if n < 1 {
			return fmt.Errorf("types: %v length %d must be positive", t.Kind, t.Length)
		}
		fmt.Fprintf(&w.buf, `,"length":%d`, n)
	case p == decimalParams:
		prec, scale := t.Precision, t.Scale
		if prec == 0 {
			prec = 10 // Fluss's default precision
		}
		if prec < 1 || prec > 38 || scale < 0 || scale > prec {
			return fmt.Errorf("types: DECIMAL(%d, %d) out of range (precision 1..38, scale 0..precision)", t.Precision, t.Scale)
		}
		fmt.Fprintf(&w.buf, `,"precision":%d,"scale":%d`, prec, scale)
	case p == precisionParam:
		if t.Precision < 0 || t.Precision > 9 {
			return fmt.Errorf("types: %v precision %d out of range 0..9", t.Kind, t.Precision)
		}
		fmt.Fprintf(&w.buf, `,"precision":%d`, t.Precision)
	case t.Kind == Array:
		if t.Elem == nil {
			return errors.New("types: ARRAY without an element type")
		}
		w.buf.WriteString(`,"element_type":`)
		if err := w.dataType(*t.Elem); err != nil {
			return err
		}
	case t.Kind == Map:
		if t.Key == nil || t.Value == nil {
			return errors.New("types: MAP without a key or value type")
		}
		w.buf.WriteString(`,"key_type":`)
		if err := w.dataType(*t.Key); err != nil {
			return err
		}
		w.buf.WriteString(`,"value_type":`)
		if err := w.dataType(*t.Value); err != nil {
			return err
		}
	case t.Kind == Row:
		w.buf.WriteString(`,"fields":[`)
		for i, f := range t.Fields {
			if i > 0 {
				w.buf.WriteByte(',')
			}
			w.ids++
			id := w.ids
			w.buf.WriteString(`{"name":`)
			w.str(f.Name)
			w.buf.WriteString(`,"field_type":`)
			if err := w.dataType(f.Type); err != nil {
				return err
			}
			if f.Description != "" {
				w.buf.WriteString(`,"description":`)
				w.str(f.Description)
			}
			fmt.Fprintf(&w.buf, `,"field_id":%d}`, id)
		}
		w.buf.WriteByte(']')
	}
	w.buf.WriteByte('}')
	return nil
}

// MarshalSchema returns Fluss's schema JSON. Primary-key columns are written
// NOT NULL, as the server forces them to be.
func MarshalSchema(s SchemaJSON) ([]byte, error) {
	w := &jw{ids: -1}
	if err := w.schema(s); err != nil {
		return nil, err
	}
	return w.buf.Bytes(), nil
}

func (w *jw) schema(s SchemaJSON) error {
	if err := checkSchema(s); err != nil {
		return err
	}
	fmt.Fprintf(&w.buf, `{"version":%d,"columns":[`, jsonVersion)
	for i, c := range s.Schema.Columns {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		w.ids++
		id := w.ids
		t := c.Type
		if slices.Contains(s.Schema.PrimaryKey, c.Name) {
			t.NotNull = true
		}
		w.buf.WriteString(`{"name":`)
		w.str(c.Name)
		w.buf.WriteString(`,"data_type":`)
		if err := w.dataType(t); err != nil {
			return fmt.Errorf("column %q: %w", c.Name, err)
		}
		if c.Comment != "" {
			w.buf.WriteString(`,"comment":`)
			w.str(c.Comment)
		}
		if agg, ok := s.AggFunctions[c.Name]; ok {
			w.buf.WriteString(`,"agg_function":{"type":`)
			w.str(agg.Type)
			if len(agg.Parameters) > 0 {
				w.buf.WriteString(`,"parameters":`)
				w.props(agg.Parameters)
			}
			w.buf.WriteByte('}')
		}
		fmt.Fprintf(&w.buf, `,"id":%d}`, id)
	}
	w.buf.WriteByte(']')
	if len(s.Schema.PrimaryKey) > 0 {
		w.buf.WriteString(`,"primary_key":`)
		w.strs(s.Schema.PrimaryKey)
	}
	if len(s.AutoIncrementColumns) > 0 {
		w.buf.WriteString(`,"auto_increment_column":`)
		w.strs(s.AutoIncrementColumns)
	}
	fmt.Fprintf(&w.buf, `,"highest_field_id":%d}`, w.ids)
	return nil
}

func checkSchema(s SchemaJSON) error {
	if len(s.Schema.Columns) == 0 {
		return errors.New("types: a schema needs at least one column")
	}
	seen := make(map[string]bool, len(s.Schema.Columns))
	for _, c := range s.Schema.Columns {
		if c.Name == "" {
			return errors.New("types: a column has an empty name")
		}
		if seen[c.Name] {
			return fmt.Errorf("types: duplicate column %q", c.Name)
		}
		seen[c.Name] = true
	}
	for _, group := range [][]string{s.Schema.PrimaryKey, s.AutoIncrementColumns} {
		for _, k := range group {
			if !seen[k] {
				return fmt.Errorf("types: key column %q is not in the schema", k)
			}
		}
	}
	for k := range s.AggFunctions {
		if !seen[k] {
			return fmt.Errorf("types: aggregate function for unknown column %q", k)
		}
	}
	return nil
}

// MarshalTable returns Fluss's table descriptor JSON.
func MarshalTable(t TableJSON) ([]byte, error) {
	w := &jw{ids: -1}
	fmt.Fprintf(&w.buf, `{"version":%d,"schema":`, jsonVersion)
	if err := w.schema(t.Schema); err != nil {
		return nil, err
	}
	if t.Comment != "" {
		w.buf.WriteString(`,"comment":`)
		w.str(t.Comment)
	}
	w.buf.WriteString(`,"partition_key":`)
	w.strs(nonNil(t.PartitionKeys))
	if t.BucketCount < 0 {
		return nil, fmt.Errorf("types: bucket count %d is negative", t.BucketCount)
	}
	if t.BucketCount > 0 || len(t.BucketKeys) > 0 {
		// The reader takes bucket_key whenever bucket_count is present, so
		// both are always written together.
		w.buf.WriteString(`,"bucket_key":`)
		w.strs(nonNil(t.BucketKeys))
		if t.BucketCount > 0 {
			fmt.Fprintf(&w.buf, `,"bucket_count":%d`, t.BucketCount)
		}
	}
	w.buf.WriteString(`,"properties":`)
	w.props(t.Properties)
	w.buf.WriteString(`,"custom_properties":`)
	w.props(t.CustomProperties)
	w.buf.WriteByte('}')
	return w.buf.Bytes(), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ---------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------

type typeNode struct {
	Type        *string         `json:"type"`
	Nullable    *bool           `json:"nullable"`
	Length      *int            `json:"length"`
	Precision   *int            `json:"precision"`
	Scale       *int            `json:"scale"`
	ElementType json.RawMessage `json:"element_type"`
	KeyType     json.RawMessage `json:"key_type"`
	ValueType   json.RawMessage `json:"value_type"`
	Fields      []struct {
		Name        *string         `json:"name"`
		FieldType   json.RawMessage `json:"field_type"`
		Description *string         `json:"description"`
	} `json:"fields"`
}

// maxTypeDepth bounds nesting of ARRAY/MAP/ROW when reading.
const maxTypeDepth = 64

// UnmarshalDataType reads a Fluss data type JSON. Parameters the server
// requires (length, precision, scale, element/key/value types, fields) must
// be present.
func UnmarshalDataType(b []byte) (DataType, error) {
	return readType(b, 0)
}

func readType(b []byte, depth int) (DataType, error) {
	if depth > maxTypeDepth {
		return DataType{}, errors.New("types: data type nested too deeply")
	}
	var n typeNode
	if err := json.Unmarshal(b, &n); err != nil {
		return DataType{}, fmt.Errorf("types: data type JSON: %w", err)
	}
	if n.Type == nil {
		return DataType{}, errors.New(`types: data type JSON without "type"`)
	}
	kind, ok := rootKinds[*n.Type]
	if !ok {
		return DataType{}, fmt.Errorf("types: unknown Fluss type %q", *n.Type)
	}
	t := DataType{Kind: kind, NotNull: n.Nullable != nil && !*n.Nullable}
	need := func(name string, v *int, lo, hi int) (int, error) {
		if v == nil {
			return 0, fmt.Errorf("types: %s JSON without %q", *n.Type, name)
		}
		if *v < lo || *v > hi {
			return 0, fmt.Errorf("types: %s %s %d out of range %d..%d", *n.Type, name, *v, lo, hi)
		}
		return *v, nil
	}
	var err error
	switch p := kind.params(); {
	case p == lengthParam:
		t.Length, err = need("length", n.Length, 1, 1<<31-1)
	case p == decimalParams:
		if t.Precision, err = need("precision", n.Precision, 1, 38); err == nil {
			t.Scale, err = need("scale", n.Scale, 0, t.Precision)
		}
	case p == precisionParam:
		t.Precision, err = need("precision", n.Precision, 0, 9)
	case kind == Array:
		t.Elem, err = readChild(n.ElementType, "element_type", depth)
	case kind == Map:
		if t.Key, err = readChild(n.KeyType, "key_type", depth); err == nil {
			t.Value, err = readChild(n.ValueType, "value_type", depth)
		}
	case kind == Row:
		if n.Fields == nil {
			return DataType{}, errors.New(`types: ROW JSON without "fields"`)
		}
		t.Fields = make([]Field, 0, len(n.Fields))
		for _, f := range n.Fields {
			if f.Name == nil {
				return DataType{}, errors.New("types: ROW field without a name")
			}
			ft, err := readChild(f.FieldType, "field_type", depth)
			if err != nil {
				return DataType{}, err
			}
			fld := Field{Name: *f.Name, Type: *ft}
			if f.Description != nil {
				fld.Description = *f.Description
			}
			t.Fields = append(t.Fields, fld)
		}
	}
	if err != nil {
		return DataType{}, err
	}
	return t, nil
}

func readChild(raw json.RawMessage, name string, depth int) (*DataType, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, fmt.Errorf("types: missing %q", name)
	}
	t, err := readType(raw, depth+1)
	if err != nil {
		return nil, err
	}
	return &t, nil
}

type schemaNode struct {
	Columns []struct {
		Name        *string         `json:"name"`
		DataType    json.RawMessage `json:"data_type"`
		Comment     *string         `json:"comment"`
		AggFunction *struct {
			Type       string            `json:"type"`
			Parameters map[string]string `json:"parameters"`
		} `json:"agg_function"`
	} `json:"columns"`
	PrimaryKey          []string `json:"primary_key"`
	AutoIncrementColumn []string `json:"auto_increment_column"`
}

// UnmarshalSchema reads Fluss's schema JSON (with or without column ids).
func UnmarshalSchema(b []byte) (SchemaJSON, error) {
	var n schemaNode
	if err := json.Unmarshal(b, &n); err != nil {
		return SchemaJSON{}, fmt.Errorf("types: schema JSON: %w", err)
	}
	return n.toSchema()
}

func (n *schemaNode) toSchema() (SchemaJSON, error) {
	if n.Columns == nil {
		return SchemaJSON{}, errors.New(`types: schema JSON without "columns"`)
	}
	var s SchemaJSON
	for _, c := range n.Columns {
		if c.Name == nil {
			return SchemaJSON{}, errors.New("types: schema column without a name")
		}
		t, err := readChild(c.DataType, "data_type", 0)
		if err != nil {
			return SchemaJSON{}, fmt.Errorf("column %q: %w", *c.Name, err)
		}
		col := Column{Name: *c.Name, Type: *t}
		if c.Comment != nil {
			col.Comment = *c.Comment
		}
		if c.AggFunction != nil {
			if s.AggFunctions == nil {
				s.AggFunctions = make(map[string]AggFunction)
			}
			s.AggFunctions[col.Name] = AggFunction{Type: c.AggFunction.Type, Parameters: c.AggFunction.Parameters}
		}
		s.Schema.Columns = append(s.Schema.Columns, col)
	}
	s.Schema.PrimaryKey = n.PrimaryKey
	s.AutoIncrementColumns = n.AutoIncrementColumn
	if err := checkSchema(s); err != nil {
		return SchemaJSON{}, err
	}
	return s, nil
}

type tableNode struct {
	Schema           *schemaNode                `json:"schema"`
	Comment          *string                    `json:"comment"`
	PartitionKey     []string                   `json:"partition_key"`
	BucketKey        []string                   `json:"bucket_key"`
	BucketCount      *int                       `json:"bucket_count"`
	Properties       map[string]json.RawMessage `json:"properties"`
	CustomProperties map[string]json.RawMessage `json:"custom_properties"`
}

// UnmarshalTable reads Fluss's table descriptor JSON.
func UnmarshalTable(b []byte) (TableJSON, error) {
	var n tableNode
	if err := json.Unmarshal(b, &n); err != nil {
		return TableJSON{}, fmt.Errorf("types: table JSON: %w", err)
	}
	if n.Schema == nil {
		return TableJSON{}, errors.New(`types: table JSON without "schema"`)
	}
	s, err := n.Schema.toSchema()
	if err != nil {
		return TableJSON{}, err
	}
	t := TableJSON{Schema: s, PartitionKeys: n.PartitionKey, BucketKeys: n.BucketKey}
	if n.Comment != nil {
		t.Comment = *n.Comment
	}
	if n.BucketCount != nil {
		if *n.BucketCount < 0 {
			return TableJSON{}, fmt.Errorf("types: bucket count %d is negative", *n.BucketCount)
		}
		t.BucketCount = *n.BucketCount
	}
	if t.Properties, err = readProps(n.Properties); err != nil {
		return TableJSON{}, err
	}
	if t.CustomProperties, err = readProps(n.CustomProperties); err != nil {
		return TableJSON{}, err
	}
	return t, nil
}

// readProps reads a property object; non-string values keep their JSON text,
// as Jackson's asText does for numbers and booleans.
func readProps(m map[string]json.RawMessage) (map[string]string, error) {
	out := make(map[string]string, len(m))
	for k, raw := range m {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			if len(raw) == 0 || raw[0] == '{' || raw[0] == '[' {
				return nil, fmt.Errorf("types: property %q is not a scalar", k)
			}
			s = string(raw)
		}
		out[k] = s
	}
	return out, nil
}
