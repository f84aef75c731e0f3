package sqlkind

import (
	"testing"

	"github.com/flussql/flussql/fluss/types"
)

// BenchmarkDecimalNumber is the bulk-load path of a DECIMAL argument given
// as a Go string.
func BenchmarkDecimalNumber(b *testing.B) {
	for _, c := range []struct {
		name string
		t    types.DataType
		text string
	}{
		{"DECIMAL(15,2)", types.NewDecimal(15, 2), "104949.5"},
		{"DECIMAL(15,2)/negative", types.NewDecimal(15, 2), "-0.07"},
		{"DECIMAL(38,10)", types.NewDecimal(38, 10), "1234567890123456789012345.0123456789"},
	} {
		k := Of(types.Decimal)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := k.Number("c", c.t, c.text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
