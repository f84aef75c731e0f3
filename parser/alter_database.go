package parser

import (
	"sort"
	"strings"
)

// AlterDatabase is ALTER DATABASE [IF EXISTS] db SET ('k' = 'v', …) |
// RESET ('k', …) | COMMENT '…' (Fluss 1.0+). Exactly one of Set, Reset and
// Comment is given.
type AlterDatabase struct {
	Name     string
	IfExists bool
	// Set are the custom properties to set.
	Set map[string]string
	// Reset are the custom properties to remove.
	Reset []string
	// Comment is the new comment, nil when the statement sets none.
	Comment *string
}

// ShowCreateDatabase is SHOW CREATE DATABASE db.
type ShowCreateDatabase struct {
	Name string
}

// ShowClusterHealth is SHOW CLUSTER HEALTH (Fluss 1.0+).
type ShowClusterHealth struct{}

func (*AlterDatabase) statement()      {}
func (*ShowCreateDatabase) statement() {}
func (*ShowClusterHealth) statement()  {}

// String renders the statement as canonical SQL.
func (s *AlterDatabase) String() string {
	out := "ALTER DATABASE " + ifClause(s.IfExists, "IF EXISTS ") + QuoteIdent(s.Name)
	switch {
	case s.Comment != nil:
		return out + " COMMENT " + QuoteString(*s.Comment)
	case s.Reset != nil:
		keys := make([]string, len(s.Reset))
		for i, k := range s.Reset {
			keys[i] = QuoteString(k)
		}
		return out + " RESET (" + strings.Join(keys, ", ") + ")"
	}
	return out + " SET " + properties(s.Set)
}

// String renders the statement as canonical SQL.
func (s *ShowCreateDatabase) String() string { return "SHOW CREATE DATABASE " + QuoteIdent(s.Name) }

// String renders the statement as canonical SQL.
func (*ShowClusterHealth) String() string { return "SHOW CLUSTER HEALTH" }

// alterDatabase parses the rest of ALTER DATABASE.
func (p *ddlParser) alterDatabase() (Statement, error) {
	s := &AlterDatabase{IfExists: p.ifExists()}
	var err error
	if s.Name, _, err = p.ident("a database name"); err != nil {
		return nil, err
	}
	switch {
	case p.word("set"):
		if s.Set, err = p.properties(); err != nil {
			return nil, err
		}
	case p.word("reset"):
		if s.Reset, err = p.keyList(); err != nil {
			return nil, err
		}
		sort.Strings(s.Reset)
	case p.word("comment"):
		c, err := p.str("a comment string")
		if err != nil {
			return nil, err
		}
		s.Comment = &c
	default:
		return nil, p.fail("SET", "RESET", "COMMENT")
	}
	return s, p.end()
}
