package logbatch

import (
	"encoding/hex"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss/types"
)

// The schemas of the Java golden vectors (testdata/javagen Main.scalars/nested).
func scalarSchema() types.Schema {
	c := func(name string, t types.DataType) types.Column { return types.Column{Name: name, Type: t} }
	return types.Schema{Columns: []types.Column{
		c("id", types.NewInt().AsNotNull()),
		c("b", types.NewBoolean()),
		c("ti", types.NewTinyInt()),
		c("si", types.NewSmallInt()),
		c("i", types.NewInt()),
		c("bi", types.NewBigInt()),
		c("f", types.NewFloat()),
		c("d", types.NewDouble()),
		c("dec_s", types.NewDecimal(10, 2)),
		c("dec_l", types.NewDecimal(38, 10)),
		c("ch", types.NewChar(5)),
		c("s", types.NewString()),
		c("bin", types.NewBinary(4)),
		c("by", types.NewBytes()),
		c("dt", types.NewDate()),
		c("t0", types.NewTime(0)),
		c("t3", types.NewTime(3)),
		c("t6", types.NewTime(6)),
		c("t9", types.NewTime(9)),
		c("ts0", types.NewTimestamp(0)),
		c("ts3", types.NewTimestamp(3)),
		c("ts6", types.NewTimestamp(6)),
		c("ts9", types.NewTimestamp(9)),
		c("ltz0", types.NewTimestampLTZ(0)),
		c("ltz3", types.NewTimestampLTZ(3)),
		c("ltz6", types.NewTimestampLTZ(6)),
		c("ltz9", types.NewTimestampLTZ(9)),
	}}
}

func nestedSchema() types.Schema {
	return types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt().AsNotNull()},
		{Name: "arr", Type: types.NewArray(types.NewInt())},
		{Name: "strs", Type: types.NewArray(types.NewString())},
		{Name: "m", Type: types.NewMap(types.NewString().AsNotNull(), types.NewBigInt())},
		{Name: "r", Type: types.NewRow(
			types.Field{Name: "x", Type: types.NewInt()},
			types.Field{Name: "y", Type: types.NewString()})},
	}}
}

func schemaByName(t testing.TB, name string) types.Schema {
	switch name {
	case "scalars":
		return scalarSchema()
	case "nested":
		return nestedSchema()
	}
	t.Fatalf("unknown schema %q", name)
	return types.Schema{}
}

func arrowSchema(t testing.TB, s types.Schema, cols []int) *arrow.Schema {
	as, err := types.ProjectedArrowSchema(s, cols)
	require.NoError(t, err)
	return as
}

// formatBatch renders decoded records in the canonical text of the Java
// generator (see javagen Main): a "batch ..." line, then one line per row.
func formatBatch(r *Records) string {
	h := r.Header
	var b strings.Builder
	fmt.Fprintf(&b, "batch base=%d last=%d count=%d magic=%d schema=%d writer=%d seq=%d ts=%d\n",
		h.BaseOffset, h.LastOffset(), h.RecordCount, h.Magic, h.SchemaID, h.WriterID, h.BatchSequence, h.CommitTimestamp)
	for i := 0; i < r.NumRows(); i++ {
		fmt.Fprintf(&b, "%d %s ", r.Offset(i), r.ChangeType(i))
		for c, col := range r.Record.Columns() {
			if c > 0 {
				b.WriteByte('|')
			}
			b.WriteString(formatValue(col, i))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// formatValue renders one Arrow value the way javagen renders the Fluss value
// Java reads back from it (TIME as millis, timestamps as epoch nanos, …).
func formatValue(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	switch a := a.(type) {
	case *array.Boolean:
		return strconv.FormatBool(a.Value(i))
	case *array.Int8:
		return strconv.Itoa(int(a.Value(i)))
	case *array.Int16:
		return strconv.Itoa(int(a.Value(i)))
	case *array.Int32:
		return strconv.Itoa(int(a.Value(i)))
	case *array.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *array.Float32:
		return fmt.Sprintf("%08x", math.Float32bits(a.Value(i)))
	case *array.Float64:
		return fmt.Sprintf("%016x", math.Float64bits(a.Value(i)))
	case *array.Decimal128:
		return a.Value(i).BigInt().String()
	case *array.String:
		return hex.EncodeToString([]byte(a.Value(i)))
	case *array.Binary:
		return hex.EncodeToString(a.Value(i))
	case *array.FixedSizeBinary:
		return hex.EncodeToString(a.Value(i))
	case *array.Date32:
		return strconv.Itoa(int(a.Value(i)))
	case *array.Time32:
		v := int64(a.Value(i))
		if a.DataType().(*arrow.Time32Type).Unit == arrow.Second {
			v *= 1000
		}
		return strconv.FormatInt(v, 10)
	case *array.Time64:
		v := int64(a.Value(i))
		if a.DataType().(*arrow.Time64Type).Unit == arrow.Microsecond {
			v /= 1000
		} else {
			v /= 1_000_000
		}
		return strconv.FormatInt(v, 10)
	case *array.Timestamp:
		v := int64(a.Value(i))
		switch a.DataType().(*arrow.TimestampType).Unit {
		case arrow.Second:
			v *= 1_000_000_000
		case arrow.Millisecond:
			v *= 1_000_000
		case arrow.Microsecond:
			v *= 1000
		}
		return strconv.FormatInt(v, 10)
	case *array.Map: // before *array.List: Map embeds List
		keys, items := a.Keys(), a.Items()
		start, end := a.ValueOffsets(i)
		var b strings.Builder
		b.WriteByte('{')
		for j := start; j < end; j++ {
			if j > start {
				b.WriteByte(',')
			}
			b.WriteString(formatValue(keys, int(j)) + "=" + formatValue(items, int(j)))
		}
		return b.String() + "}"
	case *array.List:
		start, end := a.ValueOffsets(i)
		parts := make([]string, 0, end-start)
		for j := start; j < end; j++ {
			parts = append(parts, formatValue(a.ListValues(), int(j)))
		}
		return "[" + strings.Join(parts, ",") + "]"
	case *array.Struct:
		parts := make([]string, a.NumField())
		for f := range parts {
			parts[f] = formatValue(a.Field(f), i)
		}
		return "(" + strings.Join(parts, ",") + ")"
	}
	return fmt.Sprintf("<%s>", a.DataType())
}
