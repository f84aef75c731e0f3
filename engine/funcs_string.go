package engine

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/flussql/flussql/fluss/types"
)

// The string family. Kernels read the arrays' values as string views and
// build the result with a string builder (stringRows): no boxing.

var stringType = types.NewString()

func init() {
	register(
		&FuncDef{Name: "UPPER", Family: "string", Signature: "UPPER(s STRING) → STRING",
			Desc: "s in upper case", Example: "UPPER('Fluss') = 'FLUSS'",
			Type: fixedType("s", 0, stringType), Kernel: bytesMap(appendUpper)},
		&FuncDef{Name: "LOWER", Family: "string", Signature: "LOWER(s STRING) → STRING",
			Desc: "s in lower case", Example: "LOWER('Fluss') = 'fluss'",
			Type: fixedType("s", 0, stringType), Kernel: bytesMap(appendLower)},
		&FuncDef{Name: "TRIM", Family: "string", Signature: "TRIM([BOTH|LEADING|TRAILING] [chars] FROM s) → STRING",
			Desc: "s without the leading and trailing characters of chars (spaces by default)", Example: "TRIM('  a ') = 'a'",
			Type: fixedType("ss", 1, stringType), Kernel: trimKernel(strings.Trim)},
		&FuncDef{Name: "LTRIM", Family: "string", Signature: "LTRIM(s STRING[, chars STRING]) → STRING",
			Desc: "s without its leading spaces (or characters of chars)", Example: "LTRIM('  a ') = 'a '",
			Type: fixedType("ss", 1, stringType), Kernel: trimKernel(strings.TrimLeft)},
		&FuncDef{Name: "RTRIM", Family: "string", Signature: "RTRIM(s STRING[, chars STRING]) → STRING",
			Desc: "s without its trailing spaces (or characters of chars)", Example: "RTRIM('  a ') = '  a'",
			Type: fixedType("ss", 1, stringType), Kernel: trimKernel(strings.TrimRight)},
		&FuncDef{Name: "POSITION", Family: "string", Signature: "POSITION(x IN s) → INT",
			Desc: "the 1-based character position of the first x in s, 0 when absent", Example: "POSITION('b' IN 'abc') = 2",
			Type: fixedType("ss", 0, types.NewInt()), Kernel: locateKernel(true)},
		&FuncDef{Name: "LOCATE", Family: "string", Signature: "LOCATE(x STRING, s STRING[, from INT]) → INT",
			Desc: "the 1-based position of the first x in s at or after character from, 0 when absent", Example: "LOCATE('b', 'abcb', 3) = 4",
			Type: fixedType("ssi", 1, types.NewInt()), Kernel: locateKernel(false)},
		&FuncDef{Name: "CHAR_LENGTH", Aliases: []string{"CHARACTER_LENGTH"}, Family: "string", Signature: "CHAR_LENGTH(s STRING) → INT",
			Desc: "the number of characters of s", Example: "CHAR_LENGTH('añb') = 3",
			Type: fixedType("s", 0, types.NewInt()), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				s := strs(ins[0])
				return intRows(ec, c.T, n, ins, false, func(i int) (int64, bool, error) { return int64(utf8.RuneCountInString(s(i))), true, nil })
			}},
		&FuncDef{Name: "CONCAT", Family: "string", Signature: "CONCAT(s1 STRING, s2 STRING, …) → STRING",
			Desc: "the strings one after the other; NULL when any is NULL", Example: "CONCAT('a', 'b', 'c') = 'abc'",
			Type: variadicStrings(1), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				get := make([]func(int) string, len(ins))
				for k, a := range ins {
					get[k] = strs(a)
				}
				var b strings.Builder
				return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
					b.Reset()
					for _, g := range get {
						b.WriteString(g(i))
					}
					return b.String(), true, nil
				})
			}},
		&FuncDef{Name: "CONCAT_WS", Family: "string", Signature: "CONCAT_WS(sep STRING, s1 STRING, …) → STRING",
			Desc: "the non-NULL strings joined by sep; NULL when sep is NULL", Example: "CONCAT_WS('-', 'a', NULL, 'b') = 'a-b'",
			NullArgs: true, Type: func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
				args, _, st, err := variadicStrings(2)(name, args)
				if err != nil {
					return nil, stringType, nil, err
				}
				return args, nullable(stringType, args[0].Type().NotNull), st, nil
			}, Kernel: concatWS},
		&FuncDef{Name: "SUBSTRING", Aliases: []string{"SUBSTR"}, Family: "string", Signature: "SUBSTRING(s FROM pos [FOR len]) → STRING",
			Desc: "characters pos .. pos+len-1 of s (1-based), clipped to s", Example: "SUBSTRING('flink' FROM 2 FOR 3) = 'lin'",
			Type: fixedType("sii", 1, stringType), Kernel: substringKernel},
		&FuncDef{Name: "REPLACE", Family: "string", Signature: "REPLACE(s STRING, from STRING, to STRING) → STRING",
			Desc: "s with every from replaced by to", Example: "REPLACE('a-b-c', '-', '+') = 'a+b+c'",
			Type: fixedType("sss", 0, stringType), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				s, f, t := strs(ins[0]), strs(ins[1]), strs(ins[2])
				return appendRows(ec, n, ins, false, func(i int, dst []byte) ([]byte, bool, error) {
					return appendReplace(dst, s(i), f(i), t(i)), true, nil // '' as from: to around every character, as Java
				})
			}},
		&FuncDef{Name: "LPAD", Family: "string", Signature: "LPAD(s STRING, len INT, pad STRING) → STRING",
			Desc: "s padded on the left with pad to len characters (cut to len); NULL when len < 0 or pad is empty", Example: "LPAD('7', 3, '0') = '007'",
			Type: orNull(fixedType("sis", 0, stringType)), Kernel: padKernel(true)},
		&FuncDef{Name: "RPAD", Family: "string", Signature: "RPAD(s STRING, len INT, pad STRING) → STRING",
			Desc: "s padded on the right with pad to len characters (cut to len); NULL when len < 0 or pad is empty", Example: "RPAD('7', 3, '0') = '700'",
			Type: orNull(fixedType("sis", 0, stringType)), Kernel: padKernel(false)},
		&FuncDef{Name: "INITCAP", Family: "string", Signature: "INITCAP(s STRING) → STRING",
			Desc: "s with the first letter of each word in upper case, the others in lower case", Example: "INITCAP('hello wORLD') = 'Hello World'",
			Type: fixedType("s", 0, stringType), Kernel: bytesMap(appendInitcap)},
		&FuncDef{Name: "LEFT", Family: "string", Signature: "LEFT(s STRING, n INT) → STRING",
			Desc: "the first n characters of s ('' when n <= 0)", Example: "LEFT('flink', 2) = 'fl'",
			Type: fixedType("si", 0, stringType), Kernel: leftRight(true)},
		&FuncDef{Name: "RIGHT", Family: "string", Signature: "RIGHT(s STRING, n INT) → STRING",
			Desc: "the last n characters of s ('' when n <= 0)", Example: "RIGHT('flink', 2) = 'nk'",
			Type: fixedType("si", 0, stringType), Kernel: leftRight(false)},
		&FuncDef{Name: "SPLIT_INDEX", Family: "string", Signature: "SPLIT_INDEX(s STRING, sep STRING, i INT) → STRING",
			Desc: "the i-th (0-based) piece of s split at sep; NULL when there is none or i < 0", Example: "SPLIT_INDEX('a,b,c', ',', 1) = 'b'",
			Type: orNull(fixedType("ssi", 0, stringType)), Kernel: splitIndex},
		&FuncDef{Name: "REPEAT", Family: "string", Signature: "REPEAT(s STRING, n INT) → STRING",
			Desc: "s n times ('' when n <= 0)", Example: "REPEAT('ab', 3) = 'ababab'",
			Type: fixedType("si", 0, stringType), Kernel: func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
				s, k := strs(ins[0]), intValuesOf(ins[1])
				return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
					if k(i) <= 0 {
						return "", true, nil
					}
					if int64(len(s(i)))*k(i) > 1<<30 {
						return "", false, fmt.Errorf("REPEAT: the result of %d × %d bytes is too long", len(s(i)), k(i))
					}
					return strings.Repeat(s(i), int(k(i))), true, nil
				})
			}},
		&FuncDef{Name: "REVERSE", Family: "string", Signature: "REVERSE(s STRING) → STRING",
			Desc: "s with its characters in reverse order", Example: "REVERSE('abc') = 'cba'",
			Type: fixedType("s", 0, stringType), Kernel: strMap(func(s string) string {
				r := []rune(s)
				for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
					r[i], r[j] = r[j], r[i]
				}
				return string(r)
			})},
	)
}

// variadicStrings types lo or more string arguments.
func variadicStrings(lo int) TypeRule {
	return func(name string, args []Expr) ([]Expr, types.DataType, any, error) {
		if err := argc(name, args, lo, -1); err != nil {
			return nil, stringType, nil, err
		}
		for i := range args {
			if err := wantString(name, args, i); err != nil {
				return nil, stringType, nil, err
			}
		}
		return args, nullable(stringType, allNotNull(args)), nil, nil
	}
}

// strMap is the kernel of a function of one string.
func strMap(f func(string) string) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		s := strs(ins[0])
		return stringRows(ec, n, ins, false, func(i int) (string, bool, error) { return f(s(i)), true, nil })
	}
}

func trimKernel(f func(string, string) string) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		s := strs(ins[0])
		cut := func(int) string { return " " }
		if len(ins) > 1 {
			cut = strs(ins[1])
		}
		return stringRows(ec, n, ins, false, func(i int) (string, bool, error) { return f(s(i), cut(i)), true, nil })
	}
}

// locateKernel: POSITION(x IN s) and LOCATE(x, s[, from]).
func locateKernel(position bool) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		needle, hay := strs(ins[0]), strs(ins[1])
		from := func(int) int64 { return 1 }
		if len(ins) > 2 {
			from = intValuesOf(ins[2])
		}
		return intRows(ec, c.T, n, ins, false, func(i int) (int64, bool, error) {
			h, start := hay(i), max(from(i), 1) // Flink searches from the start for a from below 1
			skip := 0                           // bytes of the characters before from
			for k := int64(1); k < start; k++ {
				if skip >= len(h) {
					return 0, true, nil
				}
				_, w := utf8.DecodeRuneInString(h[skip:])
				skip += w
			}
			j := strings.Index(h[skip:], needle(i))
			if j < 0 {
				return 0, true, nil
			}
			return int64(utf8.RuneCountInString(h[:skip+j]) + 1), true, nil
		})
	}
}

func concatWS(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	get := make([]func(int) string, len(ins))
	for k, a := range ins {
		get[k] = strs(a)
	}
	var b strings.Builder
	return stringRows(ec, n, ins, true, func(i int) (string, bool, error) {
		if ins[0].IsNull(i) {
			return "", false, nil
		}
		b.Reset()
		first := true
		for k := 1; k < len(ins); k++ {
			if ins[k].IsNull(i) {
				continue
			}
			if !first {
				b.WriteString(get[0](i))
			}
			first = false
			b.WriteString(get[k](i))
		}
		return b.String(), true, nil
	})
}

// substringKernel: SUBSTRING(s, pos[, len]), SQL's: characters pos ..
// pos+len-1 (1-based), clipped to the string.
func substringKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, p := strs(ins[0]), intValuesOf(ins[1])
	var l func(int) int64
	if len(ins) > 2 {
		l = intValuesOf(ins[2])
	}
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		r := []rune(s(i))
		start := p(i)
		end := int64(len(r)) + 1
		if l != nil {
			if l(i) < 0 {
				return "", false, fmt.Errorf("SUBSTRING length %d is negative", l(i))
			}
			end = start + l(i)
		}
		start, end = max(start, 1), min(end, int64(len(r))+1)
		if start >= end {
			return "", true, nil
		}
		return string(r[start-1 : end-1]), true, nil
	})
}

func padKernel(left bool) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		s, l, p := strs(ins[0]), intValuesOf(ins[1]), strs(ins[2])
		return appendRows(ec, n, ins, false, func(i int, dst []byte) ([]byte, bool, error) {
			size, pad := l(i), p(i)
			if size < 0 || pad == "" {
				return dst, false, nil
			}
			if size > 1<<28 {
				return dst, false, fmt.Errorf("%s: length %d is too long", c.Name, size)
			}
			return appendPad(dst, s(i), int(size), pad, left), true, nil
		})
	}
}

func leftRight(left bool) Kernel {
	return func(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
		s, k := strs(ins[0]), intValuesOf(ins[1])
		return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
			r := []rune(s(i))
			m := int(min(max(k(i), 0), int64(len(r))))
			if left {
				return string(r[:m]), true, nil
			}
			return string(r[len(r)-m:]), true, nil
		})
	}
}

func splitIndex(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, sep, k := strs(ins[0]), strs(ins[1]), intValuesOf(ins[2])
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		if k(i) < 0 || s(i) == "" { // '' has no pieces, as Flink
			return "", false, nil
		}
		if sep(i) != "" {
			p, ok := splitPiece(s(i), sep(i), k(i))
			return p, ok, nil
		}
		parts := strings.FieldsFunc(s(i), unicode.IsSpace) // Flink (commons-lang) splits at each white space then
		if k(i) >= int64(len(parts)) {
			return "", false, nil
		}
		return parts[k(i)], true, nil
	})
}
