package sqlkind

import (
	"strings"
	"unsafe"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// Handing a value to database/sql boxes it in an interface, and boxing an int64, a
// float64 or a string allocates for each value. A slab converter avoids that for the
// common scalar columns: it converts a whole Arrow column once per batch into a slab of
// Go values (one allocation per column and batch) and hands out interfaces that point
// into the slab. A slab is written once and never reused, so a value a caller keeps
// (Scan into *any) stays as it was.

// eface is the layout of an empty interface: its type word and its data pointer.
type eface struct {
	typ  unsafe.Pointer
	data unsafe.Pointer
}

var (
	int64Type   = typeWord(int64(0))
	float64Type = typeWord(float64(0))
	stringType  = typeWord("")
)

func typeWord(v any) unsafe.Pointer { return (*eface)(unsafe.Pointer(&v)).typ }

// boxAt returns the interface of type typ whose value is the one at p; p must point to a
// value of that type that is never written again.
func boxAt(typ, p unsafe.Pointer) any {
	var v any
	e := (*eface)(unsafe.Pointer(&v))
	e.typ, e.data = typ, p
	return v
}

// maxSharedStringBytes is the average string length per row up to which the strings of a
// batch share one copy of the column's bytes; longer strings are copied one by one, so
// that keeping one of them does not keep a large batch alive.
const maxSharedStringBytes = 64

func int64Slab(n int, at func(i int) int64) Cell {
	slab := make([]int64, n)
	for i := range slab {
		slab[i] = at(i) // a null's slot holds whatever the buffer has; the caller checks nulls
	}
	return func(i int) any { return boxAt(int64Type, unsafe.Pointer(&slab[i])) }
}

func float64Slab(n int, at func(i int) float64) Cell {
	slab := make([]float64, n)
	for i := range slab {
		slab[i] = at(i)
	}
	return func(i int) any { return boxAt(float64Type, unsafe.Pointer(&slab[i])) }
}

// stringSlab copies the column's bytes into one string and slices the values out of it.
func stringSlab(a *array.String) Cell {
	n := a.Len()
	if n == 0 || len(a.ValueBytes()) > maxSharedStringBytes*n {
		return func(i int) any { return strings.Clone(a.Value(i)) }
	}
	all := string(a.ValueBytes())
	offs := a.ValueOffsets()
	base := offs[0]
	slab := make([]string, n)
	for i := range slab {
		slab[i] = all[offs[i]-base : offs[i+1]-base]
	}
	return func(i int) any { return boxAt(stringType, unsafe.Pointer(&slab[i])) }
}
