package parser

import (
	"strconv"
	"strings"

	"github.com/flussql/flussql/fluss/types"
	"github.com/xwb1989/sqlparser"
)

// Column types of CREATE TABLE, in Flink SQL spelling:
//
//	BOOLEAN, TINYINT, SMALLINT, INT | INTEGER, BIGINT, FLOAT, DOUBLE [PRECISION],
//	DECIMAL | DEC | NUMERIC [(p [, s])]      default (10, 0), p 1..38, s 0..p
//	CHAR [(n)]                               default 1
//	VARCHAR [(n)] | STRING                   → STRING (Fluss 0.9 has no VARCHAR(n))
//	BINARY [(n)]                             default 1
//	VARBINARY [(n)] | BYTES                  → BYTES (Fluss 0.9 has no VARBINARY(n))
//	DATE, TIME [(p)]                         default 0, p 0..9
//	TIMESTAMP [(p)] [WITHOUT TIME ZONE]      default 6, p 0..9
//	TIMESTAMP [(p)] WITH LOCAL TIME ZONE | TIMESTAMP_LTZ [(p)]
//	ARRAY<T>, MAP<K, V>, ROW<name T ['description'], …> (also ROW(…))
//
// Element and field types may carry NOT NULL.

var simpleTypes = map[string]func() types.DataType{
	"boolean": types.NewBoolean, "tinyint": types.NewTinyInt, "smallint": types.NewSmallInt,
	"int": types.NewInt, "integer": types.NewInt, "bigint": types.NewBigInt,
	"float": types.NewFloat, "string": types.NewString, "bytes": types.NewBytes, "date": types.NewDate,
}

var typeNames = []string{"BOOLEAN", "TINYINT", "SMALLINT", "INT", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL",
	"CHAR", "VARCHAR", "STRING", "BINARY", "VARBINARY", "BYTES", "DATE", "TIME", "TIMESTAMP",
	"TIMESTAMP_LTZ", "ARRAY", "MAP", "ROW"}

// dataType consumes a type (without a trailing NOT NULL).
func (p *ddlParser) dataType() (types.DataType, error) {
	t := p.peek()
	if !p.l.isWordTok(t) {
		return types.DataType{}, p.fail("a type")
	}
	name := strings.ToLower(p.l.src[t.start:t.end])
	p.i++
	if mk, ok := simpleTypes[name]; ok {
		return mk(), nil
	}
	switch name {
	case "double":
		p.word("precision")
		return types.NewDouble(), nil
	case "decimal", "dec", "numeric":
		prec, scale := 10, 0
		if p.punct('(') {
			var err error
			if prec, err = p.typeInt(1, 38, "precision"); err != nil {
				return types.DataType{}, err
			}
			if p.punct(',') {
				if scale, err = p.typeInt(0, prec, "scale"); err != nil {
					return types.DataType{}, err
				}
			}
			if err := p.expectPunct(')'); err != nil {
				return types.DataType{}, err
			}
		}
		return types.NewDecimal(prec, scale), nil
	case "char", "character":
		n, err := p.optLength(1, "length")
		return types.NewChar(n), err
	case "binary":
		n, err := p.optLength(1, "length")
		return types.NewBinary(n), err
	case "varchar":
		_, err := p.optLength(1, "length")
		return types.NewString(), err
	case "varbinary":
		_, err := p.optLength(1, "length")
		return types.NewBytes(), err
	case "time":
		n, err := p.optPrecision(0)
		return types.NewTime(n), err
	case "timestamp":
		n, err := p.optPrecision(6)
		if err != nil {
			return types.DataType{}, err
		}
		switch {
		case p.words("with", "local", "time", "zone"):
			return types.NewTimestampLTZ(n), nil
		case p.words("without", "time", "zone"):
		case p.l.isWord(p.peek(), "with"):
			if p.l.isWord(p.peekAt(1), "time") {
				return types.DataType{}, p.unsupportedAt(p.peekAt(1), "TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP_LTZ")
			}
			if p.l.isWord(p.peekAt(1), "local") {
				p.i += 2
				if err := p.expectWords("time", "zone"); err != nil {
					return types.DataType{}, err
				}
			}
		}
		return types.NewTimestamp(n), nil
	case "timestamp_ltz":
		n, err := p.optPrecision(6)
		return types.NewTimestampLTZ(n), err
	case "array":
		if err := p.open(); err != nil {
			return types.DataType{}, err
		}
		elem, err := p.nestedType()
		if err != nil {
			return types.DataType{}, err
		}
		return types.NewArray(elem), p.close()
	case "map":
		if err := p.open(); err != nil {
			return types.DataType{}, err
		}
		key, err := p.nestedType()
		if err != nil {
			return types.DataType{}, err
		}
		if err := p.expectPunct(','); err != nil {
			return types.DataType{}, err
		}
		val, err := p.nestedType()
		if err != nil {
			return types.DataType{}, err
		}
		return types.NewMap(key, val), p.close()
	case "row":
		return p.rowType()
	}
	p.i--
	return types.DataType{}, newError(p.l.src, t.start, t.text(p.l.src), oneOf(typeNames...),
		"unknown type "+quoteFound(t.text(p.l.src))+"; expected "+oneOf(typeNames...))
}

// rowType consumes the field list of ROW<…> or ROW(…).
func (p *ddlParser) rowType() (types.DataType, error) {
	closer := byte('>')
	if p.punct('(') {
		closer = ')'
	} else if err := p.open(); err != nil {
		return types.DataType{}, p.fail("'<'", "'('")
	}
	var fields []types.Field
	seen := map[string]bool{}
	for {
		name, nt, err := p.ident("a field name")
		if err != nil {
			return types.DataType{}, err
		}
		if seen[name] {
			return types.DataType{}, p.errAt(nt, "field "+QuoteIdent(name)+" is defined twice")
		}
		seen[name] = true
		f := types.Field{Name: name}
		if f.Type, err = p.nestedType(); err != nil {
			return types.DataType{}, err
		}
		if p.peek().typ == sqlparser.STRING {
			f.Description = p.peek().val
			p.i++
		}
		fields = append(fields, f)
		if p.punct(',') {
			continue
		}
		if closer == ')' {
			return types.NewRow(fields...), p.expectPunct(')')
		}
		return types.NewRow(fields...), p.close()
	}
}

// nestedType is an element or field type with its nullability.
func (p *ddlParser) nestedType() (types.DataType, error) {
	t, err := p.dataType()
	if err != nil {
		return t, err
	}
	return p.nullability(t)
}

// open consumes the '<' of a nested type; a '<>' token (the tokenizer's
// not-equal) is split so that the error points at the missing type.
func (p *ddlParser) open() error {
	t := p.peek()
	if t.typ == sqlparser.NE && p.l.src[t.start] == '<' {
		p.l.toks[p.i] = token{typ: '>', start: t.start + 1, end: t.end}
		return nil
	}
	return p.expectPunct('<')
}

// close consumes the '>' of a nested type; a '>>' token (which the
// tokenizer reads as one shift operator) closes two levels.
func (p *ddlParser) close() error {
	t := p.peek()
	if t.typ == sqlparser.SHIFT_RIGHT {
		p.l.toks[p.i] = token{typ: '>', start: t.start + 1, end: t.end}
		return nil
	}
	return p.expectPunct('>')
}

// optLength consumes an optional (n) with n >= min.
func (p *ddlParser) optLength(def int, what string) (int, error) {
	if !p.punct('(') {
		return def, nil
	}
	n, err := p.typeInt(1, int(^uint32(0)>>1), what)
	if err != nil {
		return 0, err
	}
	return n, p.expectPunct(')')
}

// optPrecision consumes an optional (p) with p in 0..9.
func (p *ddlParser) optPrecision(def int) (int, error) {
	if !p.punct('(') {
		return def, nil
	}
	n, err := p.typeInt(0, 9, "precision")
	if err != nil {
		return 0, err
	}
	return n, p.expectPunct(')')
}

// typeInt consumes an integer type parameter within [min, max].
func (p *ddlParser) typeInt(min, max int, what string) (int, error) {
	t := p.peek()
	if t.typ != sqlparser.INTEGRAL {
		return 0, p.fail("an integer " + what)
	}
	n, err := strconv.Atoi(t.val)
	if err != nil || n < min || n > max {
		return 0, p.errAt(t, what+" must be between "+strconv.Itoa(min)+" and "+strconv.Itoa(max))
	}
	p.i++
	return n, nil
}
