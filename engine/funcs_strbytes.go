package engine

import (
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
)

// Appending forms of the string family's kernels: each writes its result
// into a scratch buffer reused from row to row (appendRows), with ASCII fast
// paths, so that a row costs no allocation.

// bytesMap is the kernel of a function of one string that appends its
// result to a buffer.
func bytesMap(f func(dst []byte, s string) []byte) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		s := strs(ins[0])
		return appendRows(ec, n, ins, false, func(i int, dst []byte) ([]byte, bool, error) { return f(dst, s(i)), true, nil })
	}
}

// isASCII reports whether s has only ASCII characters.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// appendUpper appends strings.ToUpper(s).
func appendUpper(dst []byte, s string) []byte {
	if !isASCII(s) {
		return append(dst, strings.ToUpper(s)...)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendLower appends strings.ToLower(s).
func appendLower(dst []byte, s string) []byte {
	if !isASCII(s) {
		return append(dst, strings.ToLower(s)...)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendInitcap appends s with the first ASCII letter of each word (a
// run of ASCII letters and digits) upper-cased, the others lower-cased, as
// Flink; other bytes are copied.
func appendInitcap(dst []byte, s string) []byte {
	start := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			start = false
		case c >= 'A' && c <= 'Z':
			if !start {
				c += 32
			}
			start = false
		case c >= 'a' && c <= 'z':
			if start {
				c -= 32
			}
			start = false
		default:
			start = true
		}
		dst = append(dst, c)
	}
	return dst
}

// appendReplace appends strings.ReplaceAll(s, from, to).
func appendReplace(dst []byte, s, from, to string) []byte {
	if from == "" { // to around every character, as Java: rare, the library's
		return append(dst, strings.ReplaceAll(s, from, to)...)
	}
	for {
		j := strings.Index(s, from)
		if j < 0 {
			return append(dst, s...)
		}
		dst = append(append(dst, s[:j]...), to...)
		s = s[j+len(from):]
	}
}

// appendPad appends s padded with pad (not empty) to size characters on
// the left or right, or cut to size, as LPAD and RPAD.
func appendPad(dst []byte, s string, size int, pad string, left bool) []byte {
	if !isASCII(s) || !isASCII(pad) {
		return appendPadRunes(dst, []rune(s), size, []rune(pad), left)
	}
	fill := max(size-len(s), 0)
	padding := func() {
		for k := range fill {
			dst = append(dst, pad[k%len(pad)])
		}
	}
	if left {
		padding()
		return append(dst, s[:min(len(s), size-fill)]...)
	}
	dst = append(dst, s[:min(len(s), size)]...)
	padding()
	return dst
}

// appendPadRunes is appendPad over characters.
func appendPadRunes(dst []byte, base []rune, size int, pad []rune, left bool) []byte {
	fill := max(size-len(base), 0)
	padding := func() {
		for k := range fill {
			dst = utf8.AppendRune(dst, pad[k%len(pad)])
		}
	}
	appendRunes := func(rs []rune) {
		for _, r := range rs {
			dst = utf8.AppendRune(dst, r)
		}
	}
	if left {
		padding()
		appendRunes(base[:min(len(base), size-fill)])
		return dst
	}
	appendRunes(base[:min(len(base), size)])
	padding()
	return dst
}

// splitPiece is piece k (k >= 0) of strings.Split(s, sep) for a non-empty
// sep, without building the pieces.
func splitPiece(s, sep string, k int64) (string, bool) {
	for ; k > 0; k-- {
		j := strings.Index(s, sep)
		if j < 0 {
			return "", false
		}
		s = s[j+len(sep):]
	}
	if j := strings.Index(s, sep); j >= 0 {
		return s[:j], true
	}
	return s, true
}
