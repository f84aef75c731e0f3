package parser

import (
	"strings"

	"github.com/flussql/flussql/fluss/types"
)

// CREATE TABLE in Fluss's Flink SQL form; see CreateTable.

// identList consumes (a, b, …) of column names, without repeats.
func (p *ddlParser) identList(what string) ([]string, []token, error) {
	if err := p.expectPunct('('); err != nil {
		return nil, nil, err
	}
	var out []string
	var toks []token
	seen := map[string]bool{}
	for {
		name, t, err := p.ident(what)
		if err != nil {
			return nil, nil, err
		}
		if seen[name] {
			return nil, nil, p.errAt(t, "column "+QuoteIdent(name)+" is listed twice")
		}
		seen[name] = true
		out = append(out, name)
		toks = append(toks, t)
		if p.punct(')') {
			return out, toks, nil
		}
		if !p.punct(',') {
			return nil, nil, p.fail("','", "')'")
		}
	}
}

// checkDefined fails on the first name that is not a defined column.
func (p *ddlParser) checkDefined(names []string, toks []token, known map[string]bool) error {
	for i, n := range names {
		if !known[n] {
			return p.errAt(toks[i], "column "+QuoteIdent(n)+" is not defined in the table")
		}
	}
	return nil
}

func (p *ddlParser) createTable() (Statement, error) {
	s := &CreateTable{IfNotExists: p.ifNotExists()}
	var err error
	if s.Table, err = p.tableName(); err != nil {
		return nil, err
	}
	if err := p.expectPunct('('); err != nil {
		return nil, err
	}
	known := map[string]bool{}
	var pkToks []token
	for {
		t := p.peek()
		switch {
		case p.l.isWord(t, "primary") && p.l.isWord(p.peekAt(1), "key"):
			p.i += 2
			if s.PrimaryKey != nil {
				return nil, p.errAt(t, "the table has more than one PRIMARY KEY")
			}
			if s.PrimaryKey, pkToks, err = p.identList("a column name"); err != nil {
				return nil, err
			}
			if err := p.notEnforced(); err != nil {
				return nil, err
			}
		case p.l.isWord(t, "constraint"), p.l.isWord(t, "watermark") && p.l.isWord(p.peekAt(1), "for"):
			return nil, p.unsupportedAt(t, strings.ToUpper(p.l.src[t.start:t.end])+" is not supported")
		default:
			col, inlinePK, err := p.column(known)
			if err == nil && p.peek().typ != ')' && p.peek().typ != ',' {
				err = p.fail(append(p.columnRest(col, inlinePK), "','", "')'")...)
			}
			if err != nil {
				return nil, err
			}
			known[col.Name] = true
			s.Columns = append(s.Columns, col)
			if inlinePK {
				if s.PrimaryKey != nil {
					return nil, p.errAt(t, "the table has more than one PRIMARY KEY")
				}
				s.PrimaryKey, pkToks = []string{col.Name}, []token{t}
			}
		}
		if p.punct(')') {
			break
		}
		if !p.punct(',') {
			return nil, p.fail("','", "')'")
		}
	}
	if len(s.Columns) == 0 {
		return nil, p.fail("a column definition")
	}
	if err := p.checkDefined(s.PrimaryKey, pkToks, known); err != nil {
		return nil, err
	}
	if p.word("comment") {
		if s.Comment, err = p.str("a comment string"); err != nil {
			return nil, err
		}
	} else if p.peek().typ != 0 && !p.l.isWord(p.peek(), "partitioned") && !p.l.isWord(p.peek(), "with") {
		return nil, p.fail("COMMENT", "PARTITIONED BY", "WITH", "end of statement")
	}
	if p.word("partitioned") {
		if err := p.expectWords("by"); err != nil {
			return nil, err
		}
		var toks []token
		if s.PartitionKeys, toks, err = p.identList("a column name"); err != nil {
			return nil, err
		}
		if err := p.checkDefined(s.PartitionKeys, toks, known); err != nil {
			return nil, err
		}
	} else if p.peek().typ != 0 && !p.l.isWord(p.peek(), "with") {
		return nil, p.fail("PARTITIONED BY", "WITH", "end of statement")
	}
	if p.word("with") {
		if s.Properties, err = p.properties(); err != nil {
			return nil, err
		}
	}
	return s, p.end()
}

// notEnforced consumes the optional NOT ENFORCED after PRIMARY KEY; Fluss,
// like Flink, does not check keys on write, so ENFORCED is rejected.
func (p *ddlParser) notEnforced() error {
	if p.l.isWord(p.peek(), "not") && p.l.isWord(p.peekAt(1), "enforced") {
		p.i += 2
		return nil
	}
	if p.l.isWord(p.peek(), "enforced") {
		return p.errAt(p.peek(), "only NOT ENFORCED primary keys are supported")
	}
	return nil
}

// column consumes name TYPE [NOT NULL|NULL] [PRIMARY KEY [NOT ENFORCED]] [COMMENT '…'].
func (p *ddlParser) column(known map[string]bool) (types.Column, bool, error) {
	name, nt, err := p.ident("a column name or PRIMARY KEY")
	if err != nil {
		return types.Column{}, false, err
	}
	if known[name] {
		return types.Column{}, false, p.errAt(nt, "column "+QuoteIdent(name)+" is defined twice")
	}
	if p.l.isWord(p.peek(), "as") {
		return types.Column{}, false, p.unsupportedAt(p.peek(), "computed columns are not supported")
	}
	col := types.Column{Name: name}
	if col.Type, err = p.dataType(); err != nil {
		return col, false, err
	}
	if col.Type, err = p.nullability(col.Type); err != nil {
		return col, false, err
	}
	pk := false
	if p.words("primary", "key") {
		pk = true
		if err := p.notEnforced(); err != nil {
			return col, false, err
		}
	}
	if p.word("comment") {
		if col.Comment, err = p.str("a comment string"); err != nil {
			return col, false, err
		}
	}
	return col, pk, nil
}

// columnRest lists the column clauses that could still follow.
func (p *ddlParser) columnRest(col types.Column, pk bool) []string {
	var out []string
	if col.Comment == "" && !pk && !col.Type.NotNull {
		out = append(out, "NOT NULL")
	}
	if col.Comment == "" && !pk {
		out = append(out, "PRIMARY KEY")
	}
	if col.Comment == "" {
		out = append(out, "COMMENT")
	}
	return out
}

// nullability consumes an optional NOT NULL or NULL after a type.
func (p *ddlParser) nullability(t types.DataType) (types.DataType, error) {
	if p.word("not") {
		if err := p.expectWords("null"); err != nil {
			return t, err
		}
		return t.AsNotNull(), nil
	}
	p.word("null")
	return t, nil
}
