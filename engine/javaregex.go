package engine

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ErrUnsupported marks a construct flussql refuses where Flink would take
// it (a Java regex feature RE2 lacks); the planner reports it as
// flussql.ErrNotSupported.
var ErrUnsupported = errors.New("not supported")

// Bridging Java's regex dialect (java.util.regex, Flink's) to Go's RE2:
//   - the same: literals, classes, [[:alpha:]], \d \w \s \b, *, +, ?, {n,m},
//     lazy quantifiers, groups, (?:…), (?i) (?s) (?m), \Q…\E, \A \z, anchors;
//   - translated: named groups (?<name>…) → (?P<name>…); Java's POSIX
//     classes \p{Lower} \p{Upper} \p{Alpha} \p{Digit} \p{Alnum} \p{Punct}
//     \p{Space} \p{XDigit} \p{Blank} \p{Cntrl} \p{Print} \p{Graph} \p{ASCII}
//     → RE2's [[:lower:]] …; \h → [\t \x{A0}…] (horizontal space);
//   - refused with ErrUnsupported, naming the construct: backreferences
//     (\1, \k<name>), lookahead and lookbehind ((?=, (?!, (?<=, (?<!),
//     atomic groups (?>…), possessive quantifiers (*+ ++ ?+ }+), \G, \Z, \R,
//     \X and the flags RE2 lacks ((?x), (?d), (?u)).
// RE2 matches in linear time, so no pattern can run away as a Java one can.

// javaPosix maps Java's \p{…} POSIX names to RE2 classes.
var javaPosix = map[string]string{
	"Lower": "[[:lower:]]", "Upper": "[[:upper:]]", "ASCII": `[\x00-\x7F]`, "Alpha": "[[:alpha:]]",
	"Digit": "[[:digit:]]", "Alnum": "[[:alnum:]]", "Punct": "[[:punct:]]", "Graph": "[[:graph:]]",
	"Print": "[[:print:]]", "Blank": "[[:blank:]]", "Cntrl": "[[:cntrl:]]", "XDigit": "[[:xdigit:]]",
	"Space": "[[:space:]]",
}

// javaRegex translates a Java regex to RE2 syntax.
func javaRegex(p string) (string, error) {
	refuse := func(what string) (string, error) {
		return "", fmt.Errorf("%w: the regex %q uses %s, which Go's RE2 engine does not have (RE2 has no backtracking); rewrite the pattern without it", ErrUnsupported, p, what)
	}
	var b strings.Builder
	inClass, quant := false, false // quant: the last token was a quantifier
	for i := 0; i < len(p); i++ {
		c := p[i]
		wasQuant := quant
		quant = false
		switch {
		case c == '\\' && i+1 < len(p):
			n := p[i+1]
			switch {
			case n == 'Q': // \Q…\E is RE2's too; copy it whole
				j := strings.Index(p[i:], `\E`)
				if j < 0 {
					b.WriteString(p[i:])
					return b.String(), nil
				}
				b.WriteString(p[i : i+j+2])
				i += j + 1
				continue
			case n >= '1' && n <= '9' && !inClass:
				return refuse("a backreference (\\" + string(n) + ")")
			case n == 'k':
				return refuse("a named backreference (\\k<…>)")
			case n == 'G', n == 'Z', n == 'R', n == 'X':
				return refuse(`\` + string(n))
			case n == 'h':
				if inClass {
					b.WriteString(`\t \x{A0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}`)
				} else {
					b.WriteString(`[\t \x{A0}\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}]`)
				}
				i++
				continue
			case (n == 'p' || n == 'P') && i+2 < len(p) && p[i+2] == '{':
				j := strings.IndexByte(p[i:], '}')
				if j > 0 {
					name := strings.TrimPrefix(p[i+3:i+j], "Is")
					if cls, ok := javaPosix[name]; ok {
						if n == 'P' {
							cls = "[^" + cls[1:]
						}
						if inClass {
							cls = cls[1 : len(cls)-1]
						}
						b.WriteString(cls)
						i += j
						continue
					}
				}
			}
			b.WriteByte(c)
			b.WriteByte(n)
			i++
			continue
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if strings.HasPrefix(p[i:], "[^]") || strings.HasPrefix(p[i:], "[]") {
				k := strings.IndexByte(p[i:], ']')
				b.WriteString(p[i : i+k+1])
				i += k
				continue
			}
		case c == '(' && strings.HasPrefix(p[i:], "(?"):
			rest := p[i+2:]
			switch {
			case strings.HasPrefix(rest, "="), strings.HasPrefix(rest, "!"):
				return refuse("a lookahead (" + p[i:i+3] + "…)")
			case strings.HasPrefix(rest, "<="), strings.HasPrefix(rest, "<!"):
				return refuse("a lookbehind (" + p[i:i+4] + "…)")
			case strings.HasPrefix(rest, ">"):
				return refuse("an atomic group ((?>…))")
			case strings.HasPrefix(rest, "<"):
				b.WriteString("(?P<")
				i += 2
				continue
			}
			if j := strings.IndexAny(rest, ":)"); j >= 0 && strings.ContainsAny(rest[:j], "xdu") {
				return refuse("the flag (?" + rest[:j] + ")")
			}
		case c == '+' && wasQuant:
			return refuse("a possessive quantifier (" + p[i-1:i+1] + ")")
		case c == '*' || c == '+' || c == '?' && !wasQuant || c == '}':
			quant = true
		}
		b.WriteByte(c)
	}
	return b.String(), nil
}

// regexCache compiles the patterns of one call's rows once each.
type regexCache map[string]*regexp.Regexp

// compile translates and compiles p; a pattern Java would not take either
// gives (nil, nil) (Flink answers NULL), one RE2 cannot run an error.
func (rc regexCache) compile(p string) (*regexp.Regexp, error) {
	if re, ok := rc[p]; ok {
		return re, nil
	}
	t, err := javaRegex(p)
	if err != nil {
		return nil, err
	}
	re, err := regexp.Compile(t)
	if err != nil {
		re = nil // an invalid pattern: NULL, as Flink
	}
	rc[p] = re
	return re, nil
}
