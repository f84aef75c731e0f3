package planner

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// scope resolves the column references of a query over a FROM with joins,
// subqueries or aliases: each column of the FROM's rows has the qualifier
// of its source (the table's alias or name, the subquery's alias) and a
// name; an unqualified name must be unique.
type scope struct {
	cols []scopeCol
}

type scopeCol struct {
	qual, name string
	typ        types.DataType
}

// resolve finds the column a reference names.
func (s *scope) resolve(ref *parser.ColumnRef) (int, error) {
	q := ref.Table.Name
	match := func(fold bool) []int {
		var out []int
		for i, c := range s.cols {
			if q != "" && !(c.qual == q || fold && strings.EqualFold(c.qual, q)) {
				continue
			}
			if c.name == ref.Name || fold && strings.EqualFold(c.name, ref.Name) {
				out = append(out, i)
			}
		}
		return out
	}
	found := match(false)
	if len(found) == 0 {
		found = match(true)
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return -1, fmt.Errorf("unknown column %s; columns: %s", ref, s.names())
	}
	var alts []string
	for _, i := range found {
		alts = append(alts, s.cols[i].qualified())
	}
	return -1, fmt.Errorf("column %s is ambiguous; qualify it: %s", ref, strings.Join(alts, " or "))
}

func (c scopeCol) qualified() string {
	if c.qual == "" {
		return parser.QuoteIdent(c.name)
	}
	return parser.QuoteIdent(c.qual) + "." + parser.QuoteIdent(c.name)
}

func (s *scope) names() string {
	out := make([]string, len(s.cols))
	for i, c := range s.cols {
		out[i] = c.qualified()
	}
	return strings.Join(out, ", ")
}

// info is a table that stands for the FROM's rows, so that the query
// builder's single-table code runs over them: its columns are named by
// their name where that is unique, else qualified (the names SELECT *
// shows).
func (s *scope) info() *fluss.TableInfo { return s.infoNamed(false) }

// infoNamed is info, with every column qualified when qualifyAll (the
// names join conditions show in EXPLAIN).
func (s *scope) infoNamed(qualifyAll bool) *fluss.TableInfo {
	count := map[string]int{}
	for _, c := range s.cols {
		count[c.name]++
	}
	cols := make([]types.Column, len(s.cols))
	for i, c := range s.cols {
		name := c.name
		if (qualifyAll || count[name] > 1) && c.qual != "" {
			name = c.qual + "." + c.name
		}
		cols[i] = types.Column{Name: name, Type: c.typ}
	}
	return &fluss.TableInfo{Path: fluss.TablePath{Table: "(from)"}, Descriptor: fluss.TableDescriptor{Schema: types.Schema{Columns: cols}}}
}

// requalify gives every column qualifier q (a subquery's alias).
func requalify(cols []engine.Column, q string) *scope {
	s := &scope{}
	for _, c := range cols {
		s.cols = append(s.cols, scopeCol{qual: q, name: c.Name, typ: c.Type})
	}
	return s
}

// concat is the scope of a join's rows: left's columns, then right's.
func concat(l, r *scope, nullableRight bool) *scope {
	out := &scope{cols: append([]scopeCol(nil), l.cols...)}
	for _, c := range r.cols {
		if nullableRight {
			c.typ = c.typ.AsNullable()
		}
		out.cols = append(out.cols, c)
	}
	return out
}

// colIndex resolves a column reference to a column of info.
func (qb *queryBuilder) colIndex(ref *parser.ColumnRef) (int, error) {
	if qb.scope != nil {
		return qb.scope.resolve(ref)
	}
	return column(qb.info, ref.Name)
}

// starColumns lists the columns of info a * or t.* stands for.
func (qb *queryBuilder) starColumns(st *parser.Star) []int {
	var out []int
	for i := range qb.info.Schema().Columns {
		if qb.scope != nil && subqueryColumn(qb.scope.cols[i]) {
			continue // a subquery's value, not a column of FROM
		}
		if st.Table == "" || qb.scope == nil || qb.scope.cols[i].qual == st.Table {
			out = append(out, i)
		}
	}
	return out
}
