package sqlkind

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/flussql/flussql/fluss/types"
)

// Every scalar kind of types.Kinds has an entry with what its family needs; a new
// kind without one fails here, naming the kind and the missing field.
func TestKindsTableComplete(t *testing.T) {
	for _, k := range types.Kinds() {
		e := Of(k)
		if k.Nested() {
			assert.Nil(t, e, "%s: nested kinds have no entry", k)
			continue
		}
		if !assert.NotNil(t, e, "%s: no entry; register one in its family's file", k) {
			continue
		}
		need := func(field string, ok bool) { assert.True(t, ok, "%s: %s is not set", k, field) }
		need("Family", e.Family != NoFamily)
		need("Text", e.Text != nil)
		need("Model", e.Model != nil)
		if e.Model != nil && e.Model.PkgPath() != "" { // a fluss value type, not a Go basic type
			need("Format", e.Format != nil)
			need("Engine", e.Engine != nil)
			need("Datum", e.Datum != nil)
			need("Compare", e.Compare != nil)
			need("Plain", e.Plain != nil)
		}
		need("Driver.Scan", e.Driver.Scan != nil)
		need("Driver.NullScan", e.Driver.NullScan != nil)
		need("Driver.Value", e.Driver.Value != nil)
		need("Driver.Cell", e.Driver.Cell != nil)
		need("Driver.FromValue", e.Driver.FromValue != nil)
		switch e.Family {
		case Integer:
			need("Width", e.Width == 8 || e.Width == 16 || e.Width == 32 || e.Width == 64)
			fallthrough
		case Float, Decimal:
			need("Number", e.Number != nil)
			need("Int", e.Int != nil)
			need("Uint", e.Uint != nil)
			need("Float", e.Float != nil)
		case Boolean:
			need("Bool", e.Bool != nil)
		case String, Binary:
			need("Bytes", e.Bytes != nil)
		case Temporal:
			need("Time", e.Time != nil)
			need("Datum", e.Datum != nil)
		}
		if e.Family != Integer {
			assert.Zero(t, e.Width, "%s: Width is for integers", k)
		}
	}
}

// The wider type of a compared value keeps the kind's family and drops NOT NULL.
func TestWidenKeepsTheFamily(t *testing.T) {
	for _, k := range types.Kinds() {
		if k.Nested() {
			continue
		}
		dt := types.DataType{Kind: k, Length: 3, Precision: 10, Scale: 2}
		assert.Equal(t, FamilyOf(k), FamilyOf(Widen(dt).Kind), "%s", k)
		assert.False(t, Widen(dt.AsNotNull()).NotNull, "%s", k)
	}
}
