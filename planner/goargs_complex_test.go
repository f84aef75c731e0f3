package planner

import (
	"database/sql"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
)

func TestConvertComplexArg(t *testing.T) {
	arrInt := types.NewArray(types.NewInt())
	arrStr := types.NewArray(types.NewString())
	arrNN := types.NewArray(types.NewInt().AsNotNull())
	nested := types.NewArray(types.NewArray(types.NewBigInt()))
	mapSI := types.NewMap(types.NewString().AsNotNull(), types.NewInt())
	mapIA := types.NewMap(types.NewInt().AsNotNull(), arrStr)
	rowT := types.NewRow(types.Field{Name: "city", Type: types.NewString()}, types.Field{Name: "zip", Type: types.NewInt()})
	arrDate := types.NewArray(types.NewDate())
	s := "x"
	type addr struct {
		City string
		Zip  int `db:"zip"`
	}
	type addrExtra struct {
		City, Street string
		Zip          int
	}
	tests := []struct {
		name string
		typ  types.DataType
		arg  any
		want any
		err  string
	}{
		{"[]int to ARRAY<INT>", arrInt, []int{1, 2, 3}, []any{int32(1), int32(2), int32(3)}, ""},
		{"[3]int8 array", arrInt, [3]int8{1, 2, 3}, []any{int32(1), int32(2), int32(3)}, ""},
		{"empty slice", arrInt, []int{}, []any{}, ""},
		{"nil slice is NULL", arrInt, []int(nil), nil, ""},
		{"nil map is NULL", mapSI, map[string]int(nil), nil, ""},
		{"nil is NULL", arrInt, nil, nil, ""},
		{"[]any with NULL", arrInt, []any{1, nil, int64(3)}, []any{int32(1), nil, int32(3)}, ""},
		{"[]*string with nil", arrStr, []*string{&s, nil}, []any{"x", nil}, ""},
		{"sql.Null elements", arrStr, []sql.NullString{{String: "a", Valid: true}, {}}, []any{"a", nil}, ""},
		{"pointer to slice", arrStr, &[]string{"a"}, []any{"a"}, ""},
		{"element out of range", arrInt, []int64{1, 1 << 40}, nil, `column "c[2]" is INT; 1099511627776 is out of range`},
		{"element of the wrong type", arrInt, []any{1, "two"}, nil, `column "c[2]"`},
		{"NULL into NOT NULL elements", arrNN, []any{1, nil}, nil, `column "c[2]" is INT NOT NULL; got NULL`},
		{"string to ARRAY", arrInt, "1,2", nil, "pass a slice"},
		{"nested arrays", nested, [][]int{{1}, {}, nil}, []any{[]any{int64(1)}, []any{}, nil}, ""},
		{"strings to dates", arrDate, []string{"2024-01-02"}, []any{datum.Date(19724)}, ""},
		{"Go map sorted by key", mapSI, map[string]int{"b": 2, "a": 1, "c": 3},
			[]datum.MapEntry{{Key: "a", Value: int32(1)}, {Key: "b", Value: int32(2)}, {Key: "c", Value: int32(3)}}, ""},
		{"map with NULL value", mapSI, map[string]*int{"a": nil}, []datum.MapEntry{{Key: "a", Value: nil}}, ""},
		{"entries keep order", mapSI, []datum.MapEntry{{Key: "z", Value: 1}, {Key: "a", Value: nil}},
			[]datum.MapEntry{{Key: "z", Value: int32(1)}, {Key: "a", Value: nil}}, ""},
		{"duplicate map key", mapSI, []datum.MapEntry{{Key: "k", Value: 1}, {Key: "k", Value: 2}}, nil, `column "c": the MAP key 'k' appears twice`},
		{"NULL map key", mapSI, []datum.MapEntry{{Key: nil, Value: 1}}, nil, "a MAP key must not be NULL"},
		{"int keys sorted numerically", mapIA, map[int][]string{10: {"x"}, 9: nil},
			[]datum.MapEntry{{Key: int32(9), Value: nil}, {Key: int32(10), Value: []any{"x"}}}, ""},
		{"map value error names the key", mapSI, map[string]int64{"big": 1 << 40}, nil, `column "c['big']" is INT`},
		{"slice to MAP", mapSI, []int{1}, nil, "pass a Go map or []datum.MapEntry"},
		{"ROW from []any", rowT, []any{"Paris", 75001}, []any{"Paris", int32(75001)}, ""},
		{"ROW wrong arity", rowT, []any{"Paris"}, nil, "with 2 fields; got 1 values"},
		{"ROW from struct", rowT, addr{City: "Oslo", Zip: 150}, []any{"Oslo", int32(150)}, ""},
		{"ROW from struct pointer", rowT, &addr{City: "Oslo"}, []any{"Oslo", int32(0)}, ""},
		{"ROW from struct with extra field", rowT, addrExtra{}, nil, "has fields the ROW lacks: street"},
		{"ROW field error", rowT, []any{"x", "y"}, nil, `column "c.zip" is INT`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := convertArg("c", tt.typ, tt.arg, time.UTC)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}
