package engine

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// More of the string family: character codes, bases, URLs.

func init() {
	register(
		&FuncDef{Name: "ASCII", Family: "string", Signature: "ASCII(s STRING) → INT",
			Desc: "the code of the first character of s (0 for '')", Example: "ASCII('abc') = 97",
			Type: fixedType("s", 0, types.NewInt()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				s := strs(ins[0])
				return intRows(ec, c.T, n, ins, false, func(i int) (int64, bool, error) {
					if s(i) == "" {
						return 0, true, nil
					}
					r, _ := utf8.DecodeRuneInString(s(i))
					return int64(r), true, nil
				})
			}},
		&FuncDef{Name: "CHR", Family: "string", Signature: "CHR(n INTEGER) → STRING",
			Desc: "the character of code n modulo 256 (as Flink); NULL for n < 0", Example: "CHR(97) = 'a'",
			Type: orNull(fixedType("i", 0, stringType)), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				k := intValuesOf(ins[0])
				return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
					v := k(i)
					if v < 0 {
						return "", false, nil
					}
					v %= 256
					return string(rune(v)), true, nil
				})
			}},
		&FuncDef{Name: "OVERLAY", Family: "string", Signature: "OVERLAY(s STRING PLACING r STRING FROM p INT [FOR n INT]) → STRING",
			Desc: "s with the n characters (default: r's length) from position p replaced by r; s when p is not within s", Example: "OVERLAY('abcdefg' PLACING 'XY' FROM 3) = 'abXYefg'",
			Type: fixedType("ssii", 1, stringType), Kernel: overlayKernel},
		&FuncDef{Name: "INSTR", Family: "string", Signature: "INSTR(s STRING, x STRING) → INT",
			Desc: "the 1-based position of the first x in s, 0 when absent", Example: "INSTR('abcb', 'b') = 2",
			Type: fixedType("ss", 0, types.NewInt()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				return locateKernel(true)(ec, c, []arrow.Array{ins[1], ins[0]}, n)
			}},
		&FuncDef{Name: "BIN", Family: "string", Signature: "BIN(n INTEGER) → STRING",
			Desc: "n in binary (two's complement for negatives, as Java's Long.toBinaryString)", Example: "BIN(12) = '1100'",
			Type: fixedType("i", 0, stringType), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				k := intValuesOf(ins[0])
				return stringRows(ec, n, ins, false, func(i int) (string, bool, error) { return strconv.FormatUint(uint64(k(i)), 2), true, nil })
			}},
		&FuncDef{Name: "HEX", Family: "string", Signature: "HEX(x INTEGER|STRING) → STRING",
			Desc: "an integer in upper-case hex (two's complement for negatives), or a string's UTF-8 bytes", Example: "HEX(255) = 'FF'",
			Type: hexType, Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				if isInt(c.Args[0].Type().Kind) {
					k := intValuesOf(ins[0])
					return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
						return strings.ToUpper(strconv.FormatUint(uint64(k(i)), 16)), true, nil
					})
				}
				s := strs(ins[0])
				return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
					return strings.ToUpper(hex.EncodeToString([]byte(s(i)))), true, nil
				})
			}},
		&FuncDef{Name: "TO_BASE64", Family: "string", Signature: "TO_BASE64(s STRING) → STRING",
			Desc: "s's UTF-8 bytes in base64", Example: "TO_BASE64('hello world') = 'aGVsbG8gd29ybGQ='",
			Type: fixedType("s", 0, stringType), Kernel: strMap(func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) })},
		&FuncDef{Name: "FROM_BASE64", Family: "string", Signature: "FROM_BASE64(s STRING) → STRING",
			Desc: "the string whose base64 is s (not base64 is an error, as in Flink)", Example: "FROM_BASE64('aGVsbG8gd29ybGQ=') = 'hello world'",
			Type: fixedType("s", 0, stringType), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				s := strs(ins[0])
				return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
					b, err := base64.StdEncoding.DecodeString(s(i))
					if err != nil {
						return "", false, fmt.Errorf("FROM_BASE64: %q is not base64: %w", s(i), err)
					}
					return string(b), true, nil
				})
			}},
		&FuncDef{Name: "PARSE_URL", Family: "string", Signature: "PARSE_URL(url STRING, part STRING[, key STRING]) → STRING",
			Desc: "a part of url: HOST PATH QUERY REF PROTOCOL AUTHORITY FILE USERINFO, or QUERY's parameter key", Example: "PARSE_URL('http://a.org/p?k=v', 'QUERY', 'k') = 'v'",
			Type: orNull(fixedType("sss", 1, stringType)), Kernel: parseURLKernel},
	)
}

func hexType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 1, 1); err != nil {
		return nil, stringType, nil, err
	}
	if !isInt(args[0].Type().Kind) {
		if err := wantString(name, args, 0); err != nil {
			return nil, stringType, nil, err
		}
	}
	return args, nullable(stringType, args[0].Type().NotNull), nil, nil
}

func parseURLKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	u, part := strs(ins[0]), strs(ins[1])
	var key func(int) string
	if len(ins) > 2 {
		key = strs(ins[2])
	}
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		p, err := url.Parse(u(i))
		if err != nil {
			return "", false, nil
		}
		var v string
		switch part(i) {
		case "HOST":
			v = p.Hostname()
		case "PATH":
			v = p.EscapedPath()
		case "QUERY":
			if key != nil {
				q, err := url.ParseQuery(p.RawQuery)
				if err != nil || !q.Has(key(i)) {
					return "", false, nil
				}
				return q.Get(key(i)), true, nil
			}
			v = p.RawQuery
		case "REF":
			v = p.Fragment
		case "PROTOCOL":
			v = p.Scheme
		case "AUTHORITY":
			v = p.Host
			if p.User != nil {
				v = p.User.String() + "@" + v
			}
		case "FILE":
			v = p.EscapedPath()
			if p.RawQuery != "" {
				v += "?" + p.RawQuery
			}
		case "USERINFO":
			if p.User == nil {
				return "", false, nil
			}
			v = p.User.String()
		default:
			return "", false, nil
		}
		return v, v != "", nil
	})
}

// overlayKernel is Flink's OVERLAY: s when p is outside 1..len(s); else s's
// first p-1 characters, r, and the rest of s after n characters, nothing of
// it when n ≤ 0 or p+n goes past s's end (Flink's SqlFunctionUtils.overlay).
func overlayKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, r, p := strs(ins[0]), strs(ins[1]), intValuesOf(ins[2])
	var k func(int) int64
	if len(ins) > 3 {
		k = intValuesOf(ins[3])
	}
	var b strings.Builder
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		rs := []rune(s(i))
		start := p(i)
		if start <= 0 || start > int64(len(rs)) {
			return s(i), true, nil
		}
		length := int64(utf8.RuneCountInString(r(i)))
		if k != nil {
			length = k(i)
		}
		b.Reset()
		b.WriteString(string(rs[:start-1]))
		b.WriteString(r(i))
		if length > 0 && start+length <= int64(len(rs)) {
			b.WriteString(string(rs[start-1+length:]))
		}
		return b.String(), true, nil
	})
}
