package types

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestArrowTypeMapping pins the Fluss → Arrow mapping of Fluss's ArrowUtils
// (DataTypeToArrowTypeConverter) for every type.
func TestArrowTypeMapping(t *testing.T) {
	cases := []struct {
		in   DataType
		want string // arrow.DataType.String()
	}{
		{NewBoolean(), "bool"},
		{NewTinyInt(), "int8"},
		{NewSmallInt(), "int16"},
		{NewInt(), "int32"},
		{NewBigInt(), "int64"},
		{NewFloat(), "float32"},
		{NewDouble(), "float64"},
		{NewDecimal(5, 2), "decimal(5, 2)"}, // Decimal128 even for small precision
		{NewDecimal(38, 10), "decimal(38, 10)"},
		{NewChar(3), "utf8"},
		{NewString(), "utf8"},
		{NewBinary(4), "fixed_size_binary[4]"},
		{NewBytes(), "binary"},
		{NewDate(), "date32"},
		{NewTime(0), "time32[s]"},
		{NewTime(3), "time32[ms]"},
		{NewTime(6), "time64[us]"},
		{NewTime(9), "time64[ns]"},
		{NewTimestamp(0), "timestamp[s]"},
		{NewTimestamp(2), "timestamp[ms]"},
		{NewTimestamp(6), "timestamp[us]"},
		{NewTimestamp(7), "timestamp[ns]"},
		{NewTimestampLTZ(3), "timestamp[ms]"}, // no time zone for LTZ either
		{NewTimestampLTZ(9), "timestamp[ns]"},
		{NewArray(NewInt()), "list<element: int32, nullable>"},
		{NewArray(NewString().AsNotNull()), "list<element: utf8>"},
		{NewMap(NewString(), NewBigInt()), "map<utf8, int64, items_nullable>"},
		{NewRow(Field{Name: "x", Type: NewInt()}, Field{Name: "y", Type: NewString().AsNotNull()}),
			"struct<x: int32 nullable, y: utf8>"},
	}
	for _, c := range cases {
		got, err := ArrowType(c.in)
		require.NoError(t, err, c.in.String())
		assert.Equal(t, c.want, got.String(), c.in.String())
	}
}

func TestArrowTypeDetails(t *testing.T) {
	ts, err := ArrowType(NewTimestampLTZ(6))
	require.NoError(t, err)
	assert.Equal(t, "", ts.(*arrow.TimestampType).TimeZone, "Fluss writes zone-less timestamps")

	m, err := ArrowType(NewMap(NewString(), NewInt().AsNotNull()))
	require.NoError(t, err)
	mt := m.(*arrow.MapType)
	assert.False(t, mt.KeysSorted)
	entries := mt.ElemField()
	assert.Equal(t, ArrowMapEntriesName, entries.Name)
	assert.False(t, entries.Nullable, "entries struct is NOT NULL")
	st := entries.Type.(*arrow.StructType)
	assert.Equal(t, ArrowMapKeyName, st.Field(0).Name)
	assert.False(t, st.Field(0).Nullable, "map keys are NOT NULL in Fluss")
	assert.Equal(t, ArrowMapValueName, st.Field(1).Name)
	assert.False(t, st.Field(1).Nullable)

	l, err := ArrowType(NewArray(NewInt()))
	require.NoError(t, err)
	assert.Equal(t, ArrowListElementName, l.(*arrow.ListType).ElemField().Name)
}

func TestArrowTypeErrors(t *testing.T) {
	for _, in := range []DataType{
		NewDecimal(0, 0), NewDecimal(39, 0), NewDecimal(5, 6), NewBinary(0),
		NewTime(10), NewTimestamp(-1), {Kind: Array}, {Kind: Map}, {Kind: Kind(99)},
	} {
		_, err := ArrowType(in)
		assert.Error(t, err, in.String())
	}
}

func TestToArrowSchemaAndProjection(t *testing.T) {
	s := Schema{Columns: []Column{
		{Name: "id", Type: NewBigInt().AsNotNull()},
		{Name: "name", Type: NewString()},
		{Name: "amount", Type: NewDecimal(10, 2)},
		{Name: "ts", Type: NewTimestampLTZ(3)},
	}, PrimaryKey: []string{"id"}}

	full, err := ToArrowSchema(s)
	require.NoError(t, err)
	require.Equal(t, 4, full.NumFields())
	assert.Equal(t, []string{"id", "name", "amount", "ts"}, fieldNames(full))
	assert.False(t, full.Field(0).Nullable)
	assert.True(t, full.Field(1).Nullable)
	assert.False(t, full.HasMetadata())

	proj, err := ProjectedArrowSchema(s, []int{1, 3})
	require.NoError(t, err)
	assert.Equal(t, []string{"name", "ts"}, fieldNames(proj))
	assert.True(t, proj.Field(1).Equal(full.Field(3)))

	_, err = ProjectedArrowSchema(s, []int{4})
	assert.Error(t, err)
	_, err = ToArrowSchema(Schema{Columns: []Column{{Name: "bad", Type: NewDecimal(40, 0)}}})
	assert.ErrorContains(t, err, `"bad"`)
}

func fieldNames(s *arrow.Schema) []string {
	var out []string
	for _, f := range s.Fields() {
		out = append(out, f.Name)
	}
	return out
}

func TestKindNested(t *testing.T) {
	for k := Boolean; k <= Row; k++ {
		want := k == Array || k == Map || k == Row
		if k.Nested() != want {
			t.Errorf("%s.Nested() = %v, want %v", k, k.Nested(), want)
		}
	}
}
