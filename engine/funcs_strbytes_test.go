package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The appending kernels give what the library functions they replace give,
// on ASCII (the fast paths) and on other text.
func TestAppendKernelsMatchLibrary(t *testing.T) {
	texts := []string{"", "Fluss", "hello wORLD 42x", "straße", "ǅemal İstanbul", "a\xffb", "ÀÉÎ-õü", "ﬁx"}
	for _, s := range texts {
		prefix := []byte("keep:")
		assert.Equal(t, "keep:"+strings.ToUpper(s), string(appendUpper(prefix, s)), "UPPER(%q)", s)
		assert.Equal(t, "keep:"+strings.ToLower(s), string(appendLower(prefix, s)), "LOWER(%q)", s)
		for _, from := range []string{"", "l", "ll", "ß", "-"} {
			assert.Equal(t, strings.ReplaceAll(s, from, "<>"), string(appendReplace(nil, s, from, "<>")), "REPLACE(%q, %q)", s, from)
		}
		for _, sep := range []string{"l", " ", "-", "xyz"} {
			parts := strings.Split(s, sep)
			for k := range len(parts) + 2 {
				got, ok := splitPiece(s, sep, int64(k))
				assert.Equal(t, k < len(parts), ok, "SPLIT_INDEX(%q, %q, %d)", s, sep, k)
				if ok {
					assert.Equal(t, parts[k], got, "SPLIT_INDEX(%q, %q, %d)", s, sep, k)
				}
			}
		}
		for _, pad := range []string{"*", "ab", "é", "日本"} {
			for size := range 12 {
				for _, left := range []bool{true, false} {
					assert.Equal(t, padRunes(s, size, pad, left), string(appendPad(nil, s, size, pad, left)), "PAD(%q, %d, %q, left %v)", s, size, pad, left)
				}
			}
		}
	}
	assert.Equal(t, "Hello World 42x A1b", string(appendInitcap(nil, "hello wORLD 42X a1B")))
}

// padRunes is LPAD/RPAD over characters, written plainly.
func padRunes(s string, size int, pad string, left bool) string {
	r, p := []rune(s), []rune(pad)
	if len(r) >= size {
		return string(r[:size])
	}
	var fill []rune
	for k := 0; len(fill) < size-len(r); k++ {
		fill = append(fill, p[k%len(p)])
	}
	if left {
		return string(fill) + string(r)
	}
	return string(r) + string(fill)
}
