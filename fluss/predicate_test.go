package fluss

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/prototext"

	"github.com/flussql/flussql/fluss/types"
)

func predSchema() types.Schema {
	return types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt().AsNotNull()},
		{Name: "name", Type: types.NewString()},
		{Name: "v", Type: types.NewBigInt()},
		{Name: "ok", Type: types.NewBoolean()},
		{Name: "x", Type: types.NewDouble()},
		{Name: "t", Type: types.NewTinyInt()},
	}}
}

// TestPredicateToPb pins the PbPredicate of a tree to Fluss 1.0's codes
// (PredicateMessageUtils): leaf/compound types, function codes, literal type
// codes, and column ids (not positions) as field ids.
func TestPredicateToPb(t *testing.T) {
	p := Predicate{Op: PredAnd, Children: []Predicate{
		{Op: PredGreaterOrEqual, Column: 0, Values: []any{int32(10)}},
		{Op: PredOr, Children: []Predicate{
			{Op: PredIn, Column: 1, Values: []any{"a", "b"}},
			{Op: PredIsNull, Column: 2},
		}},
		{Op: PredEqual, Column: 3, Values: []any{true}},
		{Op: PredLess, Column: 2, Values: []any{int64(-5)}},
		{Op: PredNotEqual, Column: 5, Values: []any{7}},
	}}
	pb, err := p.toPb(predSchema(), []int32{10, 11, 12, 13, 14, 15}, []int{0, 1, 2, 3, 5})
	require.NoError(t, err)
	got := prototext.MarshalOptions{}.Format(pb)
	want := `type:1 compound:{function:0 ` +
		`children:{type:0 leaf:{function:5 field_id:10 literals:{literal_type:3 is_null:false int_value:10}}} ` +
		`children:{type:1 compound:{function:1 ` +
		`children:{type:0 leaf:{function:11 field_id:11 literals:{literal_type:8 is_null:false string_value:"a"} literals:{literal_type:8 is_null:false string_value:"b"}}} ` +
		`children:{type:0 leaf:{function:6 field_id:12}}}} ` +
		`children:{type:0 leaf:{function:0 field_id:13 literals:{literal_type:0 is_null:false boolean_value:true}}} ` +
		`children:{type:0 leaf:{function:2 field_id:12 literals:{literal_type:4 is_null:false bigint_value:-5}}} ` +
		`children:{type:0 leaf:{function:1 field_id:15 literals:{literal_type:1 is_null:false int_value:7}}}}`
	assert.Equal(t, normalizeSpaces(want), normalizeSpaces(got))
	assert.Equal(t, "(id >= 10 AND (name IN ('a', 'b') OR v IS NULL) AND ok = true AND v < -5 AND t <> 7)", p.Format(predSchema()))
	assert.Equal(t, []int{0, 1, 2, 3, 2, 5}, p.Columns())
}

func normalizeSpaces(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' && (len(out) == 0 || out[len(out)-1] == ' ' || out[len(out)-1] == '{') {
			continue
		}
		if c == '}' && len(out) > 0 && out[len(out)-1] == ' ' {
			out = out[:len(out)-1]
		}
		out = append(out, c)
	}
	return string(out)
}

func TestPredicateNotPushable(t *testing.T) {
	stats := []int{0, 1, 2, 3, 4, 5}
	cases := map[string]Predicate{
		"no statistics":      {Op: PredEqual, Column: 1, Values: []any{"a"}},
		"double column":      {Op: PredLess, Column: 4, Values: []any{1.5}},
		"out of INT range":   {Op: PredLess, Column: 0, Values: []any{int64(1) << 40}},
		"out of TINYINT":     {Op: PredEqual, Column: 5, Values: []any{300}},
		"string for INT":     {Op: PredEqual, Column: 0, Values: []any{"1"}},
		"NULL literal":       {Op: PredEqual, Column: 0, Values: []any{nil}},
		"two values for =":   {Op: PredEqual, Column: 0, Values: []any{1, 2}},
		"IN without values":  {Op: PredIn, Column: 0},
		"IS NULL with value": {Op: PredIsNull, Column: 0, Values: []any{1}},
		"unknown column":     {Op: PredIsNull, Column: 9},
		"unknown operator":   {Op: PredicateOp(99), Column: 0},
		"AND of one":         {Op: PredAnd, Children: []Predicate{{Op: PredIsNull, Column: 0}}},
		"OR with bad child":  {Op: PredOr, Children: []Predicate{{Op: PredIsNull, Column: 0}, {Op: PredLess, Column: 4, Values: []any{1.0}}}},
	}
	for name, p := range cases {
		s := stats
		if name == "no statistics" {
			s = []int{0}
		}
		assert.ErrorIs(t, p.Pushable(predSchema(), s), errNotPushable, name)
	}
	assert.NoError(t, Predicate{Op: PredIn, Column: 0, Values: []any{1, int8(2), int64(3)}}.Pushable(predSchema(), stats))
}

func TestStatisticsColumnsOption(t *testing.T) {
	info := &TableInfo{Descriptor: TableDescriptor{Schema: predSchema(), Properties: map[string]string{}}}
	assert.Nil(t, info.StatisticsColumns())
	info.Descriptor.Properties[PropStatisticsColumns] = "*"
	assert.Equal(t, []int{0, 1, 2, 3, 4, 5}, info.StatisticsColumns())
	info.Descriptor.Properties[PropStatisticsColumns] = " v, id "
	assert.Equal(t, []int{2, 0}, info.StatisticsColumns(), "in the option's order")
	info.Descriptor.Properties[PropStatisticsColumns] = "id,nope"
	_, err := statisticsColumns(info)
	assert.ErrorContains(t, err, `"nope"`)
}
