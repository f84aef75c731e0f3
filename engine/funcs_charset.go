package engine

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/flussql/flussql/fluss/types"
)

// ENCODE and DECODE convert between strings and bytes in one of the six
// charsets Flink documents (Java's names, any case): a character the
// charset cannot hold encodes as '?', a byte sequence it cannot read decodes
// as U+FFFD, one per byte (Java's replacement for these charsets).

func init() {
	register(
		&FuncDef{Name: "ENCODE", Family: "string", Signature: "ENCODE(s STRING, charset STRING) → BYTES",
			Desc: "s as bytes in charset: 'US-ASCII', 'ISO-8859-1', 'UTF-8', 'UTF-16BE', 'UTF-16LE' or 'UTF-16' (big-endian after a byte-order mark)", Example: "ENCODE('hé', 'ISO-8859-1') = X'68E9'",
			Type: fixedType("ss", 0, types.NewBytes()), Kernel: encodeKernel},
		&FuncDef{Name: "DECODE", Family: "string", Signature: "DECODE(b BYTES, charset STRING) → STRING",
			Desc: "the bytes b read as text in charset (as ENCODE's)", Example: "DECODE(X'68E9', 'ISO-8859-1') = 'hé'",
			Type: decodeType, Kernel: decodeKernel},
	)
}

func decodeType(name string, args []Expr) ([]Expr, types.DataType, any, error) {
	if err := argc(name, args, 2, 2); err != nil {
		return nil, stringType, nil, err
	}
	args[0] = retype(args[0], types.NewBytes())
	if k := args[0].Type().Kind; k != types.Bytes && k != types.Binary {
		return nil, stringType, nil, fmt.Errorf("%s needs bytes, not %s (%s)", name, args[0], TypeName(args[0].Type()))
	}
	if err := wantString(name, args, 1); err != nil {
		return nil, stringType, nil, err
	}
	return args, nullable(stringType, allNotNull(args)), nil, nil
}

// charsetOf is the canonical name of a charset ENCODE and DECODE know.
func charsetOf(name string) (string, error) {
	switch n := strings.ToUpper(name); n {
	case "US-ASCII", "ISO-8859-1", "UTF-8", "UTF-16BE", "UTF-16LE", "UTF-16":
		return n, nil
	}
	return "", fmt.Errorf("unsupported charset %q: write 'US-ASCII', 'ISO-8859-1', 'UTF-8', 'UTF-16BE', 'UTF-16LE' or 'UTF-16'", name)
}

// encodeCharset appends s in charset cs to b.
func encodeCharset(b []byte, s, cs string) []byte {
	switch cs {
	case "UTF-8":
		return append(b, strings.ToValidUTF8(s, "?")...)
	case "US-ASCII", "ISO-8859-1":
		limit := rune(0x7F)
		if cs == "ISO-8859-1" {
			limit = 0xFF
		}
		for _, r := range s {
			if r > limit || r == utf8.RuneError {
				r = '?'
			}
			b = append(b, byte(r))
		}
		return b
	}
	if cs == "UTF-16" && s != "" { // Java writes no byte-order mark for ''
		b = append(b, 0xFE, 0xFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		if cs == "UTF-16LE" {
			b = append(b, byte(u), byte(u>>8))
		} else {
			b = append(b, byte(u>>8), byte(u))
		}
	}
	return b
}

// decodeCharset reads b as text in charset cs.
func decodeCharset(b []byte, cs string) string {
	var sb strings.Builder
	switch cs {
	case "UTF-8":
		for len(b) > 0 {
			r, n := utf8.DecodeRune(b)
			sb.WriteRune(r)
			b = b[n:]
		}
		return sb.String()
	case "US-ASCII", "ISO-8859-1":
		for _, c := range b {
			r := rune(c)
			if cs == "US-ASCII" && c > 0x7F {
				r = utf8.RuneError
			}
			sb.WriteRune(r)
		}
		return sb.String()
	}
	little := cs == "UTF-16LE"
	if cs == "UTF-16" && len(b) >= 2 {
		switch {
		case b[0] == 0xFE && b[1] == 0xFF:
			b = b[2:]
		case b[0] == 0xFF && b[1] == 0xFE:
			b, little = b[2:], true
		}
	}
	us := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		if little {
			us = append(us, uint16(b[i])|uint16(b[i+1])<<8)
		} else {
			us = append(us, uint16(b[i])<<8|uint16(b[i+1]))
		}
	}
	sb.WriteString(string(utf16.Decode(us)))
	if len(b)%2 == 1 {
		sb.WriteRune(utf8.RuneError)
	}
	return sb.String()
}

// charsetAt is the charset of row i of a call's charset argument.
func charsetAt(a arrow.Array) func(i int) (string, error) {
	s, cache := strs(a), map[string]string{}
	return func(i int) (string, error) {
		if cs, ok := cache[s(i)]; ok {
			return cs, nil
		}
		cs, err := charsetOf(s(i))
		if err == nil {
			cache[s(i)] = cs
		}
		return cs, err
	}
}

func encodeKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	s, cs := strs(ins[0]), charsetAt(ins[1])
	var buf []byte
	return fillRows[[]byte](array.NewBinaryBuilder(ec.mem, arrow.BinaryTypes.Binary), n, ins, false, func(i int) ([]byte, bool, error) {
		name, err := cs(i)
		if err != nil {
			return nil, false, fmt.Errorf("ENCODE: %w", err)
		}
		buf = encodeCharset(buf[:0], s(i), name)
		return buf, true, nil
	})
}

func decodeKernel(ec *evalCtx, c *Call, ins []arrow.Array, n int) (arrow.Array, error) {
	b, cs := strs(ins[0]), charsetAt(ins[1])
	return stringRows(ec, n, ins, false, func(i int) (string, bool, error) {
		name, err := cs(i)
		if err != nil {
			return "", false, fmt.Errorf("DECODE: %w", err)
		}
		return decodeCharset([]byte(b(i)), name), true, nil
	})
}
