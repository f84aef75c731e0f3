package planner

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/datum"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// FuzzBuild plans and binds arbitrary statements: any input is an error or
// a plan, never a panic, and plans evaluate their filters on sample rows.
func FuzzBuild(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(goldenDir, "*.sql"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, c := range strings.Split(string(data), "\n====\n") {
			f.Add(c, int64(1), "US")
		}
	}
	cat := testCatalog()
	sample := []any{int64(1), "US", datum.Date(19723), int32(3), []byte("x")}
	f.Fuzz(func(t *testing.T, sql string, n int64, s string) {
		st, err := parser.Parse(sql)
		if err != nil {
			return
		}
		p, err := Build(context.Background(), st, cat, Session{Database: "fluss", Location: time.UTC})
		if err != nil {
			return
		}
		_ = p.String()
		ph := parser.Placeholders(st)
		var args []Arg
		for i := range ph.Positional {
			var v any = n
			switch i % 3 {
			case 1:
				v = s
			case 2:
				v = nil
			}
			args = append(args, Arg{Ordinal: i + 1, Value: v})
		}
		for i, name := range ph.Names {
			args = append(args, Arg{Ordinal: i + 1, Name: name, Value: s})
		}
		bp, err := Bind(p, args)
		if err != nil {
			return
		}
		_ = bp.String()
		var out *Output
		switch x := bp.(type) {
		case *Scan:
			out = &x.Output
		case *Lookup:
			out = &x.Output
		case *PrefixLookup:
			out = &x.Output
		case *LimitScan:
			out = &x.Output
		}
		if out != nil {
			row := make([]any, 32)
			copy(row, sample)
			res := out.Begin()
			_, _ = res.Add(row)
			_, _ = res.Add(make([]any, 32))
			_ = res.Finish()
		}
		if q, ok := bp.(*Query); ok {
			runQuery(t, q)
		}
	})
}

// runQuery runs a Query's operators over two sample rows of its input (one of values,
// one of NULLs where the columns allow): any outcome but a panic is fine.
func runQuery(t *testing.T, q *Query) {
	var input engine.Operator
	if in := queryInput(q.Root); in != nil {
		rec, err := sampleBatch(in)
		if err != nil {
			return
		}
		input = &oneBatch{rec: rec}
	}
	op, err := engine.Build(context.Background(), q.Root, input, engine.Options{Budget: &engine.Budget{Limit: 1 << 20}})
	if err != nil {
		if input != nil {
			input.Close()
		}
		return
	}
	_ = engine.Drain(op, func(arrow.RecordBatch) error { return nil })
}

// sampleBatch is a batch of the input's columns with two rows: sample values, and NULLs
// where the columns allow.
func sampleBatch(in *engine.Input) (arrow.RecordBatch, error) {
	var cols []types.Column
	for _, c := range in.Cols {
		cols = append(cols, types.Column{Name: c.Name, Type: c.Type})
	}
	b, err := fluss.NewArrowRowBuilder(nil, cols)
	if err != nil {
		return nil, err
	}
	defer b.Release()
	vals, nulls := make([]any, len(cols)), make([]any, len(cols))
	for i, c := range cols {
		vals[i] = sampleValue(c.Type)
		if c.Type.NotNull {
			nulls[i] = vals[i]
		}
	}
	for _, r := range [][]any{vals, nulls} {
		if err := b.Append(r); err != nil {
			return nil, err
		}
	}
	return b.NewRecordBatch(), nil
}

func queryInput(n engine.Node) *engine.Input {
	if in, ok := n.(*engine.Input); ok {
		return in
	}
	for _, c := range n.Inputs() {
		if in := queryInput(c); in != nil {
			return in
		}
	}
	return nil
}

func sampleValue(t types.DataType) any {
	switch t.Kind {
	case types.Boolean:
		return true
	case types.TinyInt:
		return int8(-3)
	case types.SmallInt:
		return int16(300)
	case types.Int:
		return int32(7)
	case types.BigInt:
		return int64(1) << 40
	case types.Float:
		return float32(1.5)
	case types.Double:
		return -2.25
	case types.Decimal:
		return datum.NewDecimal(12345%pow(t.Precision), t.Scale)
	case types.Char:
		return strings.Repeat("x", t.Length)
	case types.String:
		return "US"
	case types.Binary:
		return make([]byte, t.Length)
	case types.Bytes:
		return []byte("b")
	case types.Date:
		return datum.Date(19723)
	case types.Time:
		return datum.Time(3600_000)
	case types.Timestamp:
		return datum.TimestampNTZ{Millis: 1_700_000_000_000}
	case types.TimestampLTZ:
		return datum.TimestampLTZ{EpochMillis: 1_700_000_000_000}
	}
	return nil
}

func pow(p int) int64 {
	n := int64(1)
	for range min(p, 18) {
		n *= 10
	}
	return n
}

type oneBatch struct{ rec arrow.RecordBatch }

func (o *oneBatch) Next() (arrow.RecordBatch, error) {
	if o.rec == nil {
		return nil, io.EOF
	}
	r := o.rec
	o.rec = nil
	return r, nil
}

func (o *oneBatch) Close() {
	if o.rec != nil {
		o.rec.Release()
		o.rec = nil
	}
}

// FuzzMatchLike checks LIKE against a regular expression built from the
// pattern.
func FuzzMatchLike(f *testing.F) {
	f.Add("hello", "h%o")
	f.Add("abab", "%ab%ab")
	f.Add("héllo", "h_llo")
	f.Add("", "%_%")
	f.Fuzz(func(t *testing.T, s, p string) {
		if len(s) > 64 || len(p) > 16 {
			return
		}
		var re strings.Builder
		re.WriteString(`(?s)\A`)
		for _, r := range p {
			switch r {
			case '%':
				re.WriteString(`.*`)
			case '_':
				re.WriteString(`.`)
			default:
				re.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
		re.WriteString(`\z`)
		want := regexp.MustCompile(re.String()).MatchString(s)
		if got := matchLike(s, p); got != want {
			t.Fatalf("%q LIKE %q = %v, want %v", s, p, got, want)
		}
	})
}
