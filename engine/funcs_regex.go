package engine

import (
	"fmt"
	"regexp"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The regex family, in Java's regex dialect bridged to Go's RE2 (see
// javaregex.go). A constant pattern is translated and compiled once, when
// the call is typed (an unsupported construct is an error then); others
// once per distinct pattern of a batch.

func init() {
	register(
		&FuncDef{Name: "REGEXP", Family: "regex", Signature: "REGEXP(s STRING, regex STRING) → BOOLEAN",
			Desc: "whether a part of s matches the Java regex", Example: "REGEXP('flink-1.20', '\\d+') = TRUE",
			Type: regexType("ss", 0, types.NewBoolean()), Kernel: regexpKernel},
		&FuncDef{Name: "REGEXP_EXTRACT", Family: "regex", Signature: "REGEXP_EXTRACT(s STRING, regex STRING[, group INT]) → STRING",
			Desc: "group (0: the whole match, the default) of the first match of the Java regex in s; NULL without one", Example: "REGEXP_EXTRACT('foo123', '([a-z]+)(\\d+)', 2) = '123'",
			Type: orNull(regexType("ssi", 1, stringType)), Kernel: regexpExtractKernel},
		&FuncDef{Name: "REGEXP_REPLACE", Family: "regex", Signature: "REGEXP_REPLACE(s STRING, regex STRING, replacement STRING) → STRING",
			Desc: "s with every match of the Java regex replaced by the replacement, taken literally ($1 is no group, as in Flink)", Example: "REGEXP_REPLACE('a1b22', '\\d+', '#') = 'a#b#'",
			Type: orNull(regexType("sss", 0, stringType)), Kernel: regexpReplaceKernel},
	)
}

// regexState is a call's compiled constant pattern.
type regexState struct{ re *regexp.Regexp }

func regexType(kinds string, opt int, t types.DataType) TypeRule {
	const pattern = 1
	base := fixedType(kinds, opt, t)
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		args, rt, _, err := base(name, args)
		if err != nil {
			return nil, rt, nil, err
		}
		var st any
		if p, ok := constString(args[pattern]); ok {
			re, err := regexCache{}.compile(p)
			if err != nil {
				return nil, rt, nil, fmt.Errorf("%s: %w", name, err)
			}
			st = regexState{re}
		}
		return args, rt, st, nil
	}
}

// patternOf returns row i's compiled pattern (nil: an invalid one, NULL).
func patternOf(c *Call, ins []arrow.Array, k int) func(i int) (*regexp.Regexp, error) {
	if st, ok := c.state.(regexState); ok {
		return func(int) (*regexp.Regexp, error) { return st.re, nil }
	}
	p, rc := strs(ins[k]), regexCache{}
	return func(i int) (*regexp.Regexp, error) {
		re, err := rc.compile(p(i))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		return re, nil
	}
}

func regexpKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, re := strs(ins[0]), patternOf(c, ins, 1)
	return boolRows(ec, n, ins, false, func(i int) (bool, bool, error) {
		r, err := re(i)
		if err != nil || r == nil {
			return false, err == nil, err // an invalid pattern matches nothing, as Flink
		}
		return r.MatchString(s(i)), true, nil
	})
}

func regexpExtractKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, re := strs(ins[0]), patternOf(c, ins, 1)
	group := func(int) int64 { return 0 }
	if len(ins) > 2 {
		group = intValuesOf(ins[2])
	}
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		r, err := re(i)
		if err != nil || r == nil {
			return "", false, err
		}
		g := group(i)
		if g < 0 || g > int64(r.NumSubexp()) {
			return "", false, nil
		}
		m := r.FindStringSubmatchIndex(s(i))
		if m == nil || m[2*g] < 0 {
			return "", false, nil
		}
		return s(i)[m[2*g]:m[2*g+1]], true, nil
	})
}

func regexpReplaceKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, re, repl := strs(ins[0]), patternOf(c, ins, 1), strs(ins[2])
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		r, err := re(i)
		if err != nil || r == nil {
			return "", false, err
		}
		return r.ReplaceAllLiteralString(s(i), repl(i)), true, nil // Flink quotes the replacement: $1 is literal
	})
}
