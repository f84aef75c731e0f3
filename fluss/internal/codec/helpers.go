package codec

import (
	"cmp"
	"fmt"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"google.golang.org/protobuf/proto"

	"github.com/flussql/flussql/fluss/internal/protocol"
	"github.com/flussql/flussql/fluss/types"
)

// badArrowValue describes a Go value of the wrong type for an Arrow column.
func badArrowValue(t types.DataType, want string, v any) error {
	return fmt.Errorf("%s takes %s, got %T", t, want, v)
}

// badPartitionValue describes a Go value of the wrong type for a partition key.
func badPartitionValue(t *types.DataType, want string, v any) error {
	return fmt.Errorf("%s partition value must be %s, got %T", t, want, v)
}

// badLiteral describes a Go value of the wrong type for a predicate literal.
func badLiteral(t *types.DataType, v any) error {
	return fmt.Errorf("%T value for a %s column", v, t)
}

// fixedCheck is the ArrowColumn.Check of a fixed-size type with Go type T.
func fixedCheck[T any](t types.DataType, name string, size int) func(any) (int, error) {
	return func(v any) (int, error) {
		if _, ok := v.(T); !ok {
			return 0, badArrowValue(t, name, v)
		}
		return size, nil
	}
}

func cloneBytes(b []byte) []byte {
	out := make([]byte, len(b))
	copy(out, b)
	return out
}

// wrongArray describes an Arrow array that does not match a column type.
func wrongArray(a arrow.Array, t *types.DataType) error {
	return fmt.Errorf("arrow array %s for %s", a.DataType(), t)
}

// minMax scans the non-null values of an array with compare.
func minMax[T any](n int, isNull func(int) bool, value func(int) T, compare func(a, b T) int) (lo, hi any) {
	var l, h T
	seen := false
	for i := range n {
		if isNull(i) {
			continue
		}
		v := value(i)
		if !seen {
			l, h, seen = v, v, true
			continue
		}
		if compare(v, l) < 0 {
			l = v
		}
		if compare(v, h) > 0 {
			h = v
		}
	}
	if !seen {
		return nil, nil
	}
	return l, h
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// javaFloatCompare orders like Java's Double.compare: -0 < +0, NaN above everything.
func javaFloatCompare(x, y float64) int {
	switch xn, yn := math.IsNaN(x), math.IsNaN(y); {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	}
	if x == y && x == 0 {
		return cmp.Compare(b2i(!math.Signbit(x)), b2i(!math.Signbit(y)))
	}
	return cmp.Compare(x, y)
}

// Predicate literal types of PredicateMessageUtils.
const (
	literalBoolean = 0
	literalTinyInt = 1
	literalSmall   = 2
	literalInt     = 3
	literalBigInt  = 4
	literalString  = 8
)

func newLiteral(code int32) *protocol.PbLiteralValue {
	return &protocol.PbLiteralValue{IsNull: proto.Bool(false), LiteralType: proto.Int32(code)}
}

// intLiteral encodes an integer literal of any Go integer type within [lo, hi].
func intLiteral(code int32, lo, hi int64) func(t *types.DataType, v any) (*protocol.PbLiteralValue, error) {
	return func(t *types.DataType, v any) (*protocol.PbLiteralValue, error) {
		n, ok := asInt64(v)
		if !ok {
			return nil, badLiteral(t, v)
		}
		if n < lo || n > hi {
			return nil, fmt.Errorf("%d is out of range for %s", n, t)
		}
		lit := newLiteral(code)
		if code == literalBigInt {
			lit.BigintValue = proto.Int64(n)
		} else {
			lit.IntValue = proto.Int32(int32(n))
		}
		return lit, nil
	}
}

func asInt64(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int8:
		return int64(n), true
	case int16:
		return int64(n), true
	case int32:
		return int64(n), true
	case int64:
		return n, true
	case uint8:
		return int64(n), true
	case uint16:
		return int64(n), true
	case uint32:
		return int64(n), true
	}
	return 0, false
}
