package sqlkind

import (
	"errors"
	"fmt"

	"github.com/flussql/flussql/fluss/types"
)

// ErrNoFit is what a conversion function returns when its kind does not take the
// value; the caller reports Mismatch with the value as it was written.
var ErrNoFit = errors.New("sqlkind: the value does not fit the kind")

// TypeName renders a column type without NOT NULL, for messages.
func TypeName(t types.DataType) string { return t.AsNullable().String() }

// Mismatch is the error for a value that does not fit column col of type t; got
// shows the value.
func Mismatch(col string, t types.DataType, got string) error {
	return fmt.Errorf("column %q is %s; got %s", col, TypeName(t), got)
}

// OutOfRange is the error for a value v outside the range of column col's type t.
func OutOfRange(col string, t types.DataType, v string) error {
	return fmt.Errorf("column %q is %s; %s is out of range", col, TypeName(t), v)
}
