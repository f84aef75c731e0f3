package engine

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
)

// likeMatcher is a LIKE pattern compiled once: a pattern without _ (the
// common '%special%requests%') is its literal segments between the %s,
// matched as a prefix, a suffix and substrings in order in between,
// byte-wise (for valid UTF-8 in the pattern that is the same as
// character-wise); any other pattern is matched character by character.
type likeMatcher struct {
	segs  []string // the literal segments, when the pattern has no _ (and no U+FFFD)
	pr    []rune   // the pattern's characters, else
	lit   []bool   // pr[i] is an escaped (ordinary) character
	runes []rune   // scratch: the matched string's characters
}

// compileLike compiles pattern p; with hasEsc, esc followed by %, _ or esc
// is that character, and followed by anything else or ending the pattern
// an error (Flink's "invalid escape sequence").
func compileLike(p string, esc rune, hasEsc bool) (*likeMatcher, error) {
	m := &likeMatcher{}
	in := []rune(p)
	simple := true
	for i := 0; i < len(in); i++ {
		c, escaped := in[i], false
		if hasEsc && c == esc {
			if i+1 == len(in) || in[i+1] != '%' && in[i+1] != '_' && in[i+1] != esc {
				return nil, fmt.Errorf("invalid escape sequence in the LIKE pattern '%s' at character %d: the ESCAPE character %c must be followed by %%, _ or %c", p, i+1, esc, esc)
			}
			c, escaped = in[i+1], true
			i++
		}
		if !escaped && c == '_' || c == utf8.RuneError {
			simple = false
		}
		m.pr, m.lit = append(m.pr, c), append(m.lit, escaped)
	}
	if simple {
		var seg strings.Builder
		for i, c := range m.pr {
			if c == '%' && !m.lit[i] {
				m.segs = append(m.segs, seg.String())
				seg.Reset()
				continue
			}
			seg.WriteRune(c)
		}
		m.segs = append(m.segs, seg.String())
	}
	return m, nil
}

// match reports whether s matches the pattern.
func (m *likeMatcher) match(s string) bool {
	if m.segs == nil {
		m.runes = m.runes[:0]
		for _, r := range s {
			m.runes = append(m.runes, r)
		}
		return matchRunes(m.runes, m.pr, m.lit)
	}
	last := len(m.segs) - 1
	if last == 0 {
		return s == m.segs[0]
	}
	first, end := m.segs[0], m.segs[last]
	if len(s) < len(first)+len(end) || !strings.HasPrefix(s, first) || !strings.HasSuffix(s, end) {
		return false
	}
	s = s[len(first) : len(s)-len(end)]
	for _, seg := range m.segs[1:last] {
		i := strings.Index(s, seg)
		if i < 0 {
			return false
		}
		s = s[i+len(seg):]
	}
	return true
}

// evalConst evaluates a constant pattern over a STRING column, compiled
// once; done is false when the pattern is not constant or X is not a
// STRING column (the caller then matches row by row).
func (e *Like) evalConst(ec *evalCtx, b arrow.RecordBatch) (out arrow.Array, done bool, err error) {
	m, err := e.constMatcher()
	if err != nil || m == nil {
		return nil, false, err
	}
	x, err := e.X.eval(ec, b)
	if err != nil {
		return nil, false, err
	}
	defer x.Release()
	xs, ok := x.(*array.String)
	if !ok {
		return nil, false, nil
	}
	return likeStrings(ec, xs, m, e.Not), true, nil
}

// constMatcher compiles a constant pattern (and escape); nil when either
// is not a constant or is NULL.
func (e *Like) constMatcher() (*likeMatcher, error) {
	p, ok := e.Pattern.(*Const)
	if !ok || p.Value == nil {
		return nil, nil
	}
	if e.Escape == nil {
		return compileLike(p.Value.(string), 0, false)
	}
	c, ok := e.Escape.(*Const)
	if !ok || c.Value == nil {
		return nil, nil
	}
	esc, err := likeEscape(c.Value.(string))
	if err != nil {
		return nil, err
	}
	return compileLike(p.Value.(string), esc, true)
}

// likeStrings matches every string of xs (NULL stays NULL).
func likeStrings(ec *evalCtx, xs *array.String, m *likeMatcher, not bool) arrow.Array {
	bb := array.NewBooleanBuilder(ec.mem)
	defer bb.Release()
	n := xs.Len()
	bb.Reserve(n)
	nulls := xs.NullN() > 0
	for r := range n {
		if nulls && xs.IsNull(r) {
			bb.UnsafeAppendBoolToBitmap(false)
			continue
		}
		bb.UnsafeAppend(m.match(xs.Value(r)) != not)
	}
	return bb.NewArray()
}
