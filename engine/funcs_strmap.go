package engine

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// Strings to collections: SPLIT (a literal delimiter) and STR_TO_MAP
// (Java regex delimiters, split as Java's String.split does).

func init() {
	register(
		&FuncDef{Name: "SPLIT", Family: "collection", Signature: "SPLIT(s STRING, delimiter STRING) → ARRAY<STRING>",
			Desc:    "s cut at every delimiter (not a regex), empty pieces kept; '' cuts between characters; [] for ''",
			Example: "SPLIT('a,b,,c', ',')[4] = 'c'",
			Type:    fixedType("ss", 0, types.NewArray(types.NewString())), Kernel: splitKernel},
		&FuncDef{Name: "STR_TO_MAP", Family: "collection",
			Signature: "STR_TO_MAP(s STRING[, listDelimiter STRING, keyValueDelimiter STRING]) → MAP<STRING, STRING>",
			Desc:      "s split into pairs at listDelimiter (',') and each pair at its first keyValueDelimiter ('='), both Java regexes; a pair without one maps to NULL, a repeated key keeps its last value",
			Example:   "STR_TO_MAP('a=1,b=2')['b'] = '2'",
			Type:      strToMapType, Kernel: strToMapKernel},
	)
}

func splitKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, d := strs(ins[0]), strs(ins[1])
	lb := array.NewListBuilder(ec.mem, arrow.BinaryTypes.String)
	defer lb.Release()
	vb := lb.ValueBuilder().(*array.StringBuilder)
	lb.Reserve(n)
	for i := range n {
		if anyNull(ins, i) {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		if s(i) == "" {
			continue
		}
		for _, piece := range strings.Split(s(i), d(i)) {
			vb.Append(piece)
		}
	}
	out := lb.NewArray()
	defer out.Release()
	return asType(ec, out, c.T)
}

// strToMapState holds the compiled delimiters when they are constants.
type strToMapState struct{ list, kv *regexp.Regexp }

func strToMapType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	t := types.NewMap(types.NewString().AsNotNull(), types.NewString())
	if len(args) == 2 {
		return nil, t, nil, fmt.Errorf("%s takes 1 or 3 arguments (s, or s with both delimiters), not 2", name)
	}
	args, _, _, err := fixedType("sss", 2, t)(name, args)
	if err != nil {
		return nil, t, nil, err
	}
	st := strToMapState{}
	pats := []string{",", "="}
	for i := 1; i < len(args); i++ {
		p, ok := constString(args[i])
		if !ok {
			return args, t, nil, nil
		}
		pats[i-1] = p
	}
	if st.list, err = compileDelimiter(regexCache{}, name, pats[0]); err != nil {
		return nil, t, nil, err
	}
	if st.kv, err = compileDelimiter(regexCache{}, name, pats[1]); err != nil {
		return nil, t, nil, err
	}
	return args, t, st, nil
}

// compileDelimiter compiles a Java regex delimiter; an invalid one is an
// error (Flink's String.split throws).
func compileDelimiter(rc regexCache, name, p string) (*regexp.Regexp, error) {
	re, err := rc.compile(p)
	if err == nil && re == nil {
		err = fmt.Errorf("%q is not a valid regular expression", p)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return re, nil
}

func strToMapKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s := strs(ins[0])
	delims := func(int) (*regexp.Regexp, *regexp.Regexp, error) {
		st := c.state.(strToMapState)
		return st.list, st.kv, nil
	}
	if _, ok := c.state.(strToMapState); !ok {
		l, kv, rc := strs(ins[1]), strs(ins[2]), regexCache{}
		delims = func(i int) (*regexp.Regexp, *regexp.Regexp, error) {
			a, err := compileDelimiter(rc, c.Name, l(i))
			if err != nil {
				return nil, nil, err
			}
			b, err := compileDelimiter(rc, c.Name, kv(i))
			return a, b, err
		}
	}
	at, err := arrowType(c.T)
	if err != nil {
		return nil, err
	}
	mb := array.NewBuilder(ec.mem, at).(*array.MapBuilder)
	defer mb.Release()
	kb, vb := mb.KeyBuilder().(*array.StringBuilder), mb.ItemBuilder().(*array.StringBuilder)
	type pair struct {
		k, v string
		ok   bool
	}
	var pairs []pair
	slot := map[string]int{}
	for i := range n {
		if anyNull(ins, i) {
			mb.AppendNull()
			continue
		}
		mb.Append(true)
		if s(i) == "" {
			continue
		}
		list, kv, err := delims(i)
		if err != nil {
			return nil, err
		}
		pairs = pairs[:0]
		clear(slot)
		for _, item := range javaSplit(list, s(i), 0) {
			p := pair{k: item}
			if kvs := javaSplit(kv, item, 2); len(kvs) == 2 {
				p = pair{k: kvs[0], v: kvs[1], ok: true}
			}
			if at, dup := slot[p.k]; dup {
				pairs[at] = p
				continue
			}
			slot[p.k] = len(pairs)
			pairs = append(pairs, p)
		}
		for _, p := range pairs {
			kb.Append(p.k)
			if p.ok {
				vb.Append(p.v)
			} else {
				vb.AppendNull()
			}
		}
	}
	return mb.NewArray(), nil
}

// javaSplit is Java's String.split(regex, limit): pieces between the
// matches of re; a zero-width match at the start adds no empty first
// piece; no match gives s itself; limit > 0 makes at most limit pieces,
// limit 0 drops the trailing empty ones.
func javaSplit(re *regexp.Regexp, s string, limit int) []string {
	var out []string
	last := 0
	for _, m := range re.FindAllStringIndex(s, -1) {
		if limit > 0 && len(out) == limit-1 {
			break
		}
		if m[1] == 0 {
			continue
		}
		out = append(out, s[last:m[0]])
		last = m[1]
	}
	if out == nil {
		return []string{s}
	}
	out = append(out, s[last:])
	if limit == 0 {
		for len(out) > 0 && out[len(out)-1] == "" {
			out = out[:len(out)-1]
		}
	}
	return out
}
