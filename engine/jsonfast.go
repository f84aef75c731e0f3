package engine

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// The JSON family's fast path: for a constant lax path of member accessors
// and array indexes only ($, $.a.b, $.d[1]) JSON_VALUE, JSON_QUERY and
// JSON_EXISTS stream over each row's bytes, validating the whole document
// as parseJSON does but building no tree, and render only the selected
// value into a reused buffer and the Arrow builder. Every other call
// (wildcards, strict paths, a path per row, RETURNING other than STRING,
// DEFAULT ON ERROR …) takes the tree path of jsonvalue.go; both answer the
// same (jsonfast_test.go, FuzzJSONFastPath).

// jsonFastOff turns the fast path off (the tests compare both paths).
var jsonFastOff bool

// jsonFastPath is c's path when the fast path applies to c, else nil.
func jsonFastPath(c *Call) *jsonPath {
	st, ok := c.state.(jsonPathState)
	if jsonFastOff || !ok || st.path == nil || st.path.strict {
		return nil
	}
	for _, s := range st.path.steps {
		if s.index == -2 {
			return nil
		}
	}
	switch c.Name {
	case "JSON_VALUE":
		if st.opts.returning.Kind != types.String || st.opts.onError != "NULL" && st.opts.onError != "ERROR" {
			return nil
		}
	case "JSON_QUERY":
		if st.opts.onError != "NULL" && st.opts.onError != "ERROR" && st.opts.onError != "EMPTY ARRAY" && st.opts.onError != "EMPTY OBJECT" {
			return nil
		}
	}
	return st.path
}

// jsonFastKernel answers c over the rows when the fast path applies (ok).
func jsonFastKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (out arrow.Array, ok bool, err error) {
	path := jsonFastPath(c)
	if path == nil {
		return nil, false, nil
	}
	st := c.state.(jsonPathState)
	doc := strs(ins[0])
	fail := func(why string, dst []byte) ([]byte, bool, error) {
		v, err := st.opts.onErrorValue(c.Name, why)
		if err != nil || v == nil {
			return dst, false, err
		}
		return append(dst, v.(string)...), true, nil
	}
	switch c.Name {
	case "JSON_EXISTS":
		out, err = jsonFastExists(ec, c, st.opts, path, ins, doc, n)
	case "JSON_VALUE":
		out, err = appendRows(ec, n, ins[:2], false, func(i int, dst []byte) ([]byte, bool, error) {
			v, found, valid := jsonFastSelect(doc(i), path)
			switch {
			case !valid:
				return fail("invalid JSON or no match of a strict path", dst)
			case !found || v[0] == 'n':
				return dst, false, nil
			case v[0] == '{' || v[0] == '[':
				return fail("the path selects no scalar", dst)
			case v[0] == '"':
				return append(dst, jsonFastString(v)...), true, nil
			case v[0] == 't' || v[0] == 'f':
				return append(dst, v...), true, nil
			}
			return append(dst, javaNumber(v)...), true, nil
		})
	default: // JSON_QUERY
		wrap := st.opts.wrapper
		out, err = appendRows(ec, n, ins[:2], false, func(i int, dst []byte) ([]byte, bool, error) {
			v, found, valid := jsonFastSelect(doc(i), path)
			switch {
			case !valid:
				return fail("invalid JSON or no match of a strict path", dst)
			case !found:
				return dst, false, nil
			}
			container := v[0] == '{' || v[0] == '['
			switch {
			case wrap == "UNCONDITIONAL" || wrap == "CONDITIONAL" && !container:
				dst = append(dst, '[')
				dst = jsonFastCompact(dst, v)
				return append(dst, ']'), true, nil
			case !container:
				return fail("the path selects a scalar (WITH WRAPPER makes it an array)", dst)
			}
			return jsonFastCompact(dst, v), true, nil
		})
	}
	return out, true, err
}

func jsonFastExists(ec *evalCtx, c *Call, o jsonOpts, path *jsonPath, ins []arrow.Array, doc func(int) string, n int) (arrow.Array, error) {
	b := array.NewBooleanBuilder(ec.mem)
	defer b.Release()
	b.Reserve(n)
	for i := range n {
		if ins[0].IsNull(i) || ins[1].IsNull(i) {
			b.AppendNull()
			continue
		}
		_, found, valid := jsonFastSelect(doc(i), path)
		if valid {
			b.Append(found)
			continue
		}
		v, err := o.onErrorValue(c.Name, "invalid JSON or no match of a strict path")
		if err != nil {
			return nil, err
		}
		if v == nil {
			b.AppendNull()
		} else {
			b.Append(v.(bool))
		}
	}
	return b.NewArray(), nil
}

// jsonFastSelect finds the value path selects in s (lax, keys and indexes
// only): its text (with inner white space) when found, and whether s is
// valid JSON as parseJSON sees it.
func jsonFastSelect(s string, path *jsonPath) (sel string, found, valid bool) {
	p := jsonStream{s: s, steps: path.steps, start: -1}
	if !p.walk(0, 0) {
		return "", false, false
	}
	p.space()
	if p.i != len(p.s) {
		return "", false, false
	}
	if p.start < 0 {
		return "", false, true
	}
	return s[p.start:p.end], true, true
}

// jsonStream is a validating scan of one document that records where the
// value at steps starts and ends (start -1: none).
type jsonStream struct {
	s          string
	i          int
	steps      []jstep
	start, end int
}

func (p *jsonStream) space() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// walk scans the value at p.i, whose path from $ matched steps[:k] (k < 0:
// it is off the path); false for invalid JSON.
func (p *jsonStream) walk(depth, k int) bool {
	if depth > 512 {
		return false
	}
	p.space()
	if p.i >= len(p.s) {
		return false
	}
	if k == len(p.steps) {
		p.start = p.i
		defer func() { p.end = p.i }()
		k = -1
	}
	var st jstep
	if k >= 0 {
		st = p.steps[k]
	}
	switch c := p.s[p.i]; {
	case c == '{' || c == '[':
		obj, end := c == '{', byte(']')
		if obj {
			end = '}'
		}
		p.i++
		p.space()
		if p.i < len(p.s) && p.s[p.i] == end {
			p.i++
			return true
		}
		taken := false
		for n := 0; ; n++ {
			next := -1
			if obj {
				p.space()
				if p.i >= len(p.s) || p.s[p.i] != '"' {
					return false
				}
				ks := p.i
				raw, plain, ok := p.str()
				if !ok {
					return false
				}
				if k >= 0 && st.index == -1 && !taken && jsonFastKeyIs(p.s[ks:p.i], raw, plain, st.key) {
					next, taken = k+1, true
				}
				p.space()
				if p.i >= len(p.s) || p.s[p.i] != ':' {
					return false
				}
				p.i++
			} else if k >= 0 && st.index == n {
				next = k + 1
			}
			if !p.walk(depth+1, next) {
				return false
			}
			p.space()
			if p.i >= len(p.s) {
				return false
			}
			if p.s[p.i] == ',' {
				p.i++
				continue
			}
			if p.s[p.i] != end {
				return false
			}
			p.i++
			return true
		}
	case c == '"':
		_, _, ok := p.str()
		return ok
	case c == 't' && strings.HasPrefix(p.s[p.i:], "true"):
		p.i += 4
	case c == 'f' && strings.HasPrefix(p.s[p.i:], "false"):
		p.i += 5
	case c == 'n' && strings.HasPrefix(p.s[p.i:], "null"):
		p.i += 4
	case c == '-' || c >= '0' && c <= '9':
		start := p.i
		for p.i < len(p.s) && strings.IndexByte("+-0123456789.eE", p.s[p.i]) >= 0 {
			p.i++
		}
		return jsonNumberValid(p.s[start:p.i])
	default:
		return false
	}
	return true
}

// str scans a JSON string at p.i (its opening quote) as jsonScanner.str
// does, without decoding: its content, whether it has no escape, and
// whether it is valid.
func (p *jsonStream) str() (raw string, plain, ok bool) {
	start := p.i
	p.i++
	plain = true
	for p.i < len(p.s) {
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			raw = p.s[start+1 : p.i-1]
			return raw, plain, plain || jsonEscapesValid(raw)
		case c == '\\':
			plain = false
			p.i += 2
		case c < 0x20:
			return "", false, false
		default:
			p.i++
		}
	}
	return "", false, false
}

// jsonEscapesValid tells whether the escapes of a string's content (which
// has no unescaped quote or control character) are JSON's.
func jsonEscapesValid(raw string) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' {
			continue
		}
		i++
		if i >= len(raw) {
			return false
		}
		switch raw[i] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if i+5 > len(raw) {
				return false
			}
			for _, h := range []byte(raw[i+1 : i+5]) {
				if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
					return false
				}
			}
			i += 4
		default:
			return false
		}
	}
	return true
}

// jsonFastKeyIs tells whether a member's key (quoted: its text with quotes)
// is key.
func jsonFastKeyIs(quoted, raw string, plain bool, key string) bool {
	if plain {
		return raw == key
	}
	var k string
	return json.Unmarshal([]byte(quoted), &k) == nil && k == key
}

// jsonFastString is the decoded content of a valid JSON string's text.
func jsonFastString(q string) string {
	raw := q[1 : len(q)-1]
	if strings.IndexByte(raw, '\\') < 0 {
		return raw
	}
	var out string
	_ = json.Unmarshal([]byte(q), &out)
	return out
}

// jsonNumberValid tells whether s is a JSON number: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?
func jsonNumberValid(s string) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// jsonFastCompact appends the valid JSON text v as jnode.text writes it:
// no white space, strings re-quoted as writeJSONString does, numbers as
// javaNumber.
func jsonFastCompact(dst []byte, v string) []byte {
	for i := 0; i < len(v); {
		switch c := v[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '"':
			j := i + 1
			for v[j] != '"' {
				if v[j] == '\\' {
					j++
				}
				j++
			}
			dst = jsonFastQuote(dst, v[i:j+1])
			i = j + 1
		case c == '-' || c >= '0' && c <= '9':
			j := i
			for j < len(v) && strings.IndexByte("+-0123456789.eE", v[j]) >= 0 {
				j++
			}
			dst = append(dst, javaNumber(v[i:j])...)
			i = j
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}

// jsonFastQuote appends the valid JSON string q as writeJSONString writes
// its decoded content: q itself when json.Marshal would not change it.
func jsonFastQuote(dst []byte, q string) []byte {
	ascii := true
	for k := 1; k < len(q)-1; k++ {
		switch c := q[k]; {
		case c == '\\' || c == '<' || c == '>' || c == '&':
			return jsonFastRequote(dst, q)
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	if !ascii && (!utf8.ValidString(q) || strings.Contains(q, "\u2028") || strings.Contains(q, "\u2029")) {
		return jsonFastRequote(dst, q)
	}
	return append(dst, q...)
}

func jsonFastRequote(dst []byte, q string) []byte {
	var b strings.Builder
	writeJSONString(&b, jsonFastString(q))
	return append(dst, b.String()...)
}
