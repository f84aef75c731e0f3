package logbatch

import "fmt"

// ChangeType is the kind of change a log record carries, one byte on the wire
// (Fluss's ChangeType.toByteValue).
type ChangeType int8

// The Fluss change types. Log tables write AppendOnly; primary-key table
// changelogs carry Insert, UpdateBefore, UpdateAfter and Delete.
const (
	AppendOnly   ChangeType = 0 // +A
	Insert       ChangeType = 1 // +I
	UpdateBefore ChangeType = 2 // -U
	UpdateAfter  ChangeType = 3 // +U
	Delete       ChangeType = 4 // -D
)

var changeTypeNames = [...]string{"+A", "+I", "-U", "+U", "-D"}

// String returns Fluss's short form, e.g. "+I" or "-D".
func (c ChangeType) String() string {
	if c.Valid() {
		return changeTypeNames[c]
	}
	return fmt.Sprintf("ChangeType(%d)", int8(c))
}

// Valid reports whether c is one of the five Fluss change types.
func (c ChangeType) Valid() bool { return c >= AppendOnly && c <= Delete }

// ParseChangeType returns the change type for its short form ("+A", "+I",
// "-U", "+U", "-D").
func ParseChangeType(s string) (ChangeType, error) {
	for i, n := range changeTypeNames {
		if n == s {
			return ChangeType(i), nil
		}
	}
	return 0, fmt.Errorf("logbatch: unknown change type %q", s)
}
