package engine

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLikeConstPattern evaluates LIKE with constant patterns over a column,
// the compiled path, against MatchLike row by row; NULL stays NULL.
func TestLikeConstPattern(t *testing.T) {
	strs := []any{"special requests", "a special deal for requests", "requests special", nil, "", "spécial%requests", "specialrequests"}
	rows := make([][]any, len(strs))
	for i, s := range strs {
		rows[i] = []any{int64(i), s, 0.0}
	}
	for _, p := range []string{"%special%requests%", "special%", "%requests", "%", "", "special requests", "%é%", "_pecial%", "%a%a%"} {
		for _, not := range []bool{false, true} {
			got, err := evalRows(t, must(NewLike(cs, strConst(p), not)), rows)
			require.NoError(t, err)
			for i, s := range strs {
				if s == nil {
					assert.Nil(t, got[i], "NULL LIKE %q", p)
					continue
				}
				assert.Equal(t, MatchLike(s.(string), p) != not, got[i], "%q LIKE %q (NOT: %v)", s, p, not)
			}
		}
	}
	got, err := evalRows(t, must(NewLikeEscape(cs, strConst(`%!%%`), strConst("!"), false)), rows)
	require.NoError(t, err)
	assert.Equal(t, []any{false, false, false, nil, false, true, false}, got, "an escaped % is an ordinary character")
}

// likeRegexp is LIKE's definition as a regular expression: % any run of
// characters, _ one character, esc (when not 0) quoting the next one.
func likeRegexp(p string, esc rune) *regexp.Regexp {
	var re strings.Builder
	re.WriteString(`(?s)\A`)
	quoted := false
	for _, r := range p {
		switch {
		case quoted:
			re.WriteString(regexp.QuoteMeta(string(r)))
			quoted = false
		case esc != 0 && r == esc:
			quoted = true
		case r == '%':
			re.WriteString(`.*`)
		case r == '_':
			re.WriteString(`.`)
		default:
			re.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	re.WriteString(`\z`)
	return regexp.MustCompile(re.String())
}

// FuzzLikeMatcher checks the compiled matcher (both its paths: literal
// segments, and character by character) against the regular expression
// of the pattern.
func FuzzLikeMatcher(f *testing.F) {
	for _, c := range [][2]string{{"hello", "h%o"}, {"abab", "%ab%ab"}, {"héllo", "h_llo"}, {"", "%_%"}, {"aaa", "%aa%aa"}, {"x!%y", "%!%%"}, {"\xff", "%\uFFFD%"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, p string) {
		if len(s) > 64 || len(p) > 16 {
			return
		}
		m, err := compileLike(p, 0, false)
		require.NoError(t, err)
		if want := likeRegexp(p, 0).MatchString(s); !strings.ContainsRune(s, '\uFFFD') && strings.ToValidUTF8(s, "") == s {
			assert.Equal(t, want, m.match(s), "%q LIKE %q", s, p)
		}
		assert.Equal(t, matchRunes([]rune(s), []rune(p), nil), m.match(s), "%q LIKE %q, compiled and character by character", s, p)
		if m, err := compileLike(p, '!', true); err == nil {
			if strings.ToValidUTF8(s, "") == s {
				assert.Equal(t, likeRegexp(p, '!').MatchString(s), m.match(s), "%q LIKE %q ESCAPE '!'", s, p)
			}
		}
	})
}
