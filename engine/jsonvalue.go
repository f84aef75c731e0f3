package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// jnode is a parsed JSON value that keeps its objects' key order (Flink's
// Jackson does; encoding/json's maps would sort them).
type jnode struct {
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	str  string
	b    bool
	keys []string
	vals []*jnode
}

// parseJSON reads one JSON document with a scanner of its own (no
// reflection, one allocation per value): JSON_VALUE runs it per row.
func parseJSON(s string) (*jnode, error) {
	p := &jsonScanner{s: s}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("text after the JSON value at byte %d", p.i)
	}
	return v, nil
}

type jsonScanner struct {
	s string
	i int
}

var errJSONSyntax = errors.New("invalid JSON")

func (p *jsonScanner) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonScanner) value(depth int) (*jnode, error) {
	if depth > 512 {
		return nil, fmt.Errorf("JSON nested deeper than 512")
	}
	p.space()
	if p.i >= len(p.s) {
		return nil, errJSONSyntax
	}
	switch c := p.s[p.i]; {
	case c == '{' || c == '[':
		n := &jnode{kind: 'a'}
		end := byte(']')
		if c == '{' {
			n.kind, end = 'o', '}'
		}
		p.i++
		p.space()
		if p.i < len(p.s) && p.s[p.i] == end {
			p.i++
			return n, nil
		}
		for {
			if n.kind == 'o' {
				p.space()
				if p.i >= len(p.s) || p.s[p.i] != '"' {
					return nil, errJSONSyntax
				}
				k, err := p.str()
				if err != nil {
					return nil, err
				}
				p.space()
				if p.i >= len(p.s) || p.s[p.i] != ':' {
					return nil, errJSONSyntax
				}
				p.i++
				n.keys = append(n.keys, k)
			}
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			n.vals = append(n.vals, v)
			p.space()
			if p.i >= len(p.s) {
				return nil, errJSONSyntax
			}
			if p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.s[p.i] != end {
				return nil, errJSONSyntax
			}
			p.i++
			return n, nil
		}
	case c == '"':
		v, err := p.str()
		return &jnode{kind: 's', str: v}, err
	case c == 't' && strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
		return &jnode{kind: 'b', b: true}, nil
	case c == 'f' && strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
		return &jnode{kind: 'b'}, nil
	case c == 'n' && strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
		return &jnode{kind: 'z'}, nil
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		num := p.s[start:p.i]
		if !json.Valid([]byte(num)) {
			return nil, errJSONSyntax
		}
		return &jnode{kind: 'n', str: javaNumber(num)}, nil
	}
	return nil, errJSONSyntax
}

// str reads a JSON string at p.i (its opening quote).
func (p *jsonScanner) str() (string, error) {
	start := p.i
	p.i++
	plain := true
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			if plain {
				return p.s[start+1 : p.i-1], nil
			}
			var out string
			if err := json.Unmarshal([]byte(p.s[start:p.i]), &out); err != nil {
				return "", errJSONSyntax
			}
			return out, nil
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", errJSONSyntax
		default:
			p.i++
		}
	}
	return "", errJSONSyntax
}

// javaNumber renders a JSON number as Jackson reads it back: integers as
// they are, others as Java's Double.toString.
func javaNumber(s string) string {
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return javaDouble(f)
}

// javaDouble is Java's Double.toString: 1.0, 0.001, 1.0E7, 1.5E-4.
func javaDouble(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	if a := math.Abs(f); a >= 1e-3 && a < 1e7 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'E', -1, 64) // 1.5E-04
	mant, exp, _ := strings.Cut(s, "E")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	e, _ := strconv.Atoi(exp)
	return mant + "E" + strconv.Itoa(e)
}

// text renders the value as compact JSON.
func (n *jnode) text(b *strings.Builder) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, k)
			b.WriteByte(':')
			n.vals[i].text(b)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteByte(',')
			}
			v.text(b)
		}
		b.WriteByte(']')
	case 's':
		writeJSONString(b, n.str)
	case 'n':
		b.WriteString(n.str)
	case 'b':
		b.WriteString(strconv.FormatBool(n.b))
	default:
		b.WriteString("null")
	}
}

func writeJSONString(b *strings.Builder, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

// jsonPath is a parsed SQL/JSON path: lax or strict, then steps from $.
type jsonPath struct {
	strict bool
	steps  []jstep
}

type jstep struct {
	key   string
	index int // -1: a key step; -2: [*] or .*
}

// parseJSONPath reads [lax|strict] $ followed by .key, ."key", ['key'],
// [n], [*] and .* steps.
func parseJSONPath(p string) (*jsonPath, error) {
	out := &jsonPath{}
	s := strings.TrimSpace(p)
	if rest, ok := strings.CutPrefix(s, "strict "); ok {
		out.strict, s = true, strings.TrimSpace(rest)
	} else if rest, ok := strings.CutPrefix(s, "lax "); ok {
		s = strings.TrimSpace(rest)
	}
	if !strings.HasPrefix(s, "$") {
		return nil, fmt.Errorf("the JSON path %q does not start with $", p)
	}
	s = s[1:]
	for s != "" {
		switch {
		case strings.HasPrefix(s, ".*"):
			out.steps, s = append(out.steps, jstep{index: -2}), s[2:]
		case strings.HasPrefix(s, `."`):
			j := strings.IndexByte(s[2:], '"')
			if j < 0 {
				return nil, fmt.Errorf("the JSON path %q has an unclosed quote", p)
			}
			out.steps, s = append(out.steps, jstep{key: s[2 : 2+j], index: -1}), s[3+j:]
		case s[0] == '.':
			j := strings.IndexAny(s[1:], ".[")
			if j < 0 {
				j = len(s) - 1
			}
			if j == 0 {
				return nil, fmt.Errorf("the JSON path %q has an empty step", p)
			}
			out.steps, s = append(out.steps, jstep{key: s[1 : 1+j], index: -1}), s[1+j:]
		case s[0] == '[':
			j := strings.IndexByte(s, ']')
			if j < 0 {
				return nil, fmt.Errorf("the JSON path %q has an unclosed [", p)
			}
			in := strings.TrimSpace(s[1:j])
			switch {
			case in == "*":
				out.steps = append(out.steps, jstep{index: -2})
			case len(in) >= 2 && (in[0] == '\'' || in[0] == '"') && in[len(in)-1] == in[0]:
				out.steps = append(out.steps, jstep{key: in[1 : len(in)-1], index: -1})
			default:
				k, err := strconv.Atoi(in)
				if err != nil || k < 0 {
					return nil, fmt.Errorf("the JSON path %q has the step [%s]; flussql takes [n], [*] and ['key']", p, in)
				}
				out.steps = append(out.steps, jstep{index: k})
			}
			s = s[j+1:]
		default:
			return nil, fmt.Errorf("the JSON path %q: unexpected %q", p, s)
		}
	}
	return out, nil
}

// errJSONPath: the path does not apply in strict mode.
var errJSONPath = errors.New("the JSON path does not apply")

// eval returns the values the path selects; wild tells whether a wildcard
// step was taken (then the result is a sequence, even of one).
func (p *jsonPath) eval(root *jnode) (out []*jnode, wild bool, err error) {
	cur := []*jnode{root}
	for _, st := range p.steps {
		var next []*jnode
		for _, n := range cur {
			switch {
			case st.index == -2:
				wild = true
				if n.kind == 'o' || n.kind == 'a' {
					next = append(next, n.vals...)
				} else if p.strict {
					return nil, wild, errJSONPath
				}
			case st.index == -1:
				found := false
				if n.kind == 'o' {
					for i, k := range n.keys {
						if k == st.key {
							next, found = append(next, n.vals[i]), true
							break
						}
					}
				}
				if !found && p.strict {
					return nil, wild, errJSONPath
				}
			default:
				if n.kind == 'a' && st.index < len(n.vals) {
					next = append(next, n.vals[st.index])
				} else if p.strict {
					return nil, wild, errJSONPath
				}
			}
		}
		cur = next
	}
	return cur, wild, nil
}

// javaStrippedDecimal renders a decimal's text ("-20.00") as Java's
// BigDecimal.stripTrailingZeros().toString() does ("-2E+1"), which Flink's
// JSON functions write.
func javaStrippedDecimal(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		return "0"
	}
	scale := len(frac)
	if frac == "" {
		trimmed := strings.TrimRight(digits, "0")
		scale = -(len(digits) - len(trimmed))
		digits = trimmed
	}
	adjusted := len(digits) - 1 - scale
	if scale >= 0 && adjusted >= -6 { // plain notation
		if scale == 0 {
			return sign + digits
		}
		if len(digits) <= scale {
			return sign + "0." + strings.Repeat("0", scale-len(digits)) + digits
		}
		return sign + digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	}
	mant := digits[:1]
	if len(digits) > 1 {
		mant += "." + digits[1:]
	}
	exp := strconv.Itoa(adjusted)
	if adjusted >= 0 {
		exp = "+" + exp
	}
	return sign + mant + "E" + exp
}
