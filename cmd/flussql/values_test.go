package main

import (
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/flussql/flussql/fluss/datum"
	"github.com/stretchr/testify/assert"
)

type decimal struct{ r *big.Rat }

func (d decimal) String() string { return d.r.FloatString(2) }

func TestNewColumnPrecision(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		base string
		frac int
	}{
		{"TIMESTAMP(3)", "TIMESTAMP", 3},
		{"timestamp_ltz(6) NOT NULL", "TIMESTAMP_LTZ", 6},
		{"TIME(0)", "TIME", 0},
		{"TIMESTAMP", "TIMESTAMP", -1},
		{"DECIMAL(10, 2)", "DECIMAL", -1},
		{"", "", -1},
	} {
		c := newColumn("c", tc.typ)
		assert.Equal(t, tc.base, c.base, tc.typ)
		assert.Equal(t, tc.frac, c.frac, tc.typ)
	}
}

func TestRenderAndCells(t *testing.T) {
	ts := time.Date(2025, 3, 5, 10, 4, 5, 120_000_000, time.UTC)
	cet := time.FixedZone("CET", 3600)
	for _, tc := range []struct {
		name    string
		v       any
		typ     string
		table   string // aligned formats
		right   bool
		csv     string
		tsv     string
		jsonVal string
	}{
		{"null", nil, "STRING", "NULL", false, "", `\N`, "null"},
		{"string NULL", "NULL", "STRING", `"NULL"`, false, "NULL", "NULL", `"NULL"`},
		{"empty string", "", "STRING", "", false, `""`, "", `""`},
		{"control chars", "a\tb\nc\x1b", "STRING", `a\tb\nc\x1b`, false, "\"a\tb\nc\x1b\"", `a\tb\nc` + "\x1b", `"a\tb\nc\u001b"`},
		{"csv quoting", `say "hi", ok`, "STRING", `say "hi", ok`, false, `"say ""hi"", ok"`, `say "hi", ok`, `"say \"hi\", ok"`},
		{"backslash", `a\b`, "STRING", `a\b`, false, `a\b`, `a\\b`, `"a\\b"`},
		{"html stays", "<a&b>", "STRING", "<a&b>", false, "<a&b>", "<a&b>", `"<a&b>"`},
		{"bytes", []byte{0x01, 0xab}, "BYTES", "0x01ab", false, "0x01ab", "0x01ab", `"0x01ab"`},
		{"nil bytes", []byte(nil), "BYTES", "NULL", false, "", `\N`, "null"},
		{"bool", true, "BOOLEAN", "true", false, "true", "true", "true"},
		{"int64", int64(-42), "BIGINT", "-42", true, "-42", "-42", "-42"},
		{"int8", int8(7), "TINYINT", "7", true, "7", "7", "7"},
		{"int32 pointer", ptr(int32(9)), "INT", "9", true, "9", "9", "9"},
		{"float64", 1.5, "DOUBLE", "1.5", true, "1.5", "1.5", "1.5"},
		{"big float", 1e21, "DOUBLE", "1e+21", true, "1e+21", "1e+21", "1e+21"},
		{"million", 1e6, "DOUBLE", "1000000", true, "1000000", "1000000", "1000000"},
		{"float column", float64(float32(1.1)), "FLOAT", "1.1", true, "1.1", "1.1", "1.1"},
		{"float32", float32(0.1), "FLOAT", "0.1", true, "0.1", "0.1", "0.1"},
		{"nan", math.NaN(), "DOUBLE", "NaN", true, "NaN", "NaN", `"NaN"`},
		{"decimal", decimal{big.NewRat(12345, 100)}, "DECIMAL(10, 2)", "123.45", true, "123.45", "123.45", "123.45"},
		{"timestamp(3)", ts, "TIMESTAMP(3)", "2025-03-05T10:04:05.120", false, "2025-03-05T10:04:05.120", "2025-03-05T10:04:05.120", `"2025-03-05T10:04:05.120"`},
		{"timestamp(0)", ts, "TIMESTAMP(0)", "2025-03-05T10:04:05", false, "2025-03-05T10:04:05", "2025-03-05T10:04:05", `"2025-03-05T10:04:05"`},
		{"ltz(3) in UTC", ts, "TIMESTAMP_LTZ(3)", "2025-03-05T10:04:05.120Z", false, "2025-03-05T10:04:05.120Z", "2025-03-05T10:04:05.120Z", `"2025-03-05T10:04:05.120Z"`},
		{"decimal text", "-0.50", "DECIMAL", "-0.50", true, "-0.50", "-0.50", "-0.50"},
		{"not a decimal", "abc", "DECIMAL", "abc", false, "abc", "abc", `"abc"`},
		{"ltz in a zone", ts.In(cet), "TIMESTAMP_LTZ(6)", "2025-03-05T11:04:05.120000+01:00", false, "2025-03-05T11:04:05.120000+01:00", "2025-03-05T11:04:05.120000+01:00", `"2025-03-05T11:04:05.120000+01:00"`},
		{"timestamp unknown precision", ts, "", "2025-03-05T10:04:05.12Z", false, "2025-03-05T10:04:05.12Z", "2025-03-05T10:04:05.12Z", `"2025-03-05T10:04:05.12Z"`},
		{"date", ts, "DATE", "2025-03-05", false, "2025-03-05", "2025-03-05", `"2025-03-05"`},
		{"time(3)", ts, "TIME(3)", "10:04:05.120", false, "10:04:05.120", "10:04:05.120", `"10:04:05.120"`},
		{"array", []any{"a", nil, int64(3)}, "ARRAY", "[a, NULL, 3]", false, "\"[a, NULL, 3]\"", "[a, NULL, 3]", `["a",null,3]`},
		{"nested array", []any{[]any{int64(1)}, []any{}}, "ARRAY", "[[1], []]", false, "\"[[1], []]\"", "[[1], []]", `[[1],[]]`},
		{"map", []datum.MapEntry{{Key: "k", Value: int64(1)}, {Key: "j", Value: nil}}, "MAP", "{k=1, j=NULL}", false, "\"{k=1, j=NULL}\"", "{k=1, j=NULL}", `{"k":1,"j":null}`},
		{"row", []any{"Oslo", int64(150)}, "ROW", "(Oslo, 150)", false, "\"(Oslo, 150)\"", "(Oslo, 150)", `["Oslo",150]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newColumn("c", tc.typ)
			text, right := tableCell(tc.v, &c)
			assert.Equal(t, tc.table, text)
			assert.Equal(t, tc.right, right)
			assert.Equal(t, tc.csv, csvField(tc.v, &c))
			assert.Equal(t, tc.tsv, tsvField(tc.v, &c))
			var b strings.Builder
			j := newJSONWriter(&b, []column{{name: "c", typeName: c.typeName, base: c.base, frac: c.frac}})
			assert.NoError(t, j.row([]any{tc.v}))
			assert.Equal(t, `{"c":`+tc.jsonVal+"}\n", b.String())
		})
	}
}

func ptr[T any](v T) *T { return &v }

func TestIsNumericText(t *testing.T) {
	for s, want := range map[string]bool{
		"1": true, "-1.50": true, "1e+21": true, "0.001": true,
		"": false, "01": false, "1.": false, "NaN": false, "+1": false, "1 2": false, "-": false,
	} {
		assert.Equal(t, want, isNumericText(s), s)
	}
}
