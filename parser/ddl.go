package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"

	"github.com/flussql/flussql/fluss/types"
)

// ddlParser is a recursive-descent parser over the token slice for the
// statements sqlparser cannot parse, or parses lossily: database and table
// DDL, partitions, SHOW, DESCRIBE and USE.
type ddlParser struct {
	l *lexed
	i int
}

func (p *ddlParser) peek() token {
	if p.i < len(p.l.toks) {
		return p.l.toks[p.i]
	}
	return eofTok(p.l.src)
}

func (p *ddlParser) peekAt(k int) token {
	if p.i+k < len(p.l.toks) {
		return p.l.toks[p.i+k]
	}
	return eofTok(p.l.src)
}

// fail reports a syntax error at the current token.
func (p *ddlParser) fail(expected ...string) error {
	t := p.peek()
	return syntaxError(p.l.src, t.start, t.text(p.l.src), oneOf(expected...))
}

// errAt reports a non-syntax problem at token t.
func (p *ddlParser) errAt(t token, msg string) error {
	return newError(p.l.src, t.start, t.text(p.l.src), "", msg)
}

// unsupportedAt refuses a construct the dialect lacks at token t (matches ErrNotSupported).
func (p *ddlParser) unsupportedAt(t token, msg string) error {
	return unsupportedError(p.l.src, t.start, t.text(p.l.src), msg)
}

// word consumes the unquoted word w if it is next.
func (p *ddlParser) word(w string) bool {
	if p.l.isWord(p.peek(), w) {
		p.i++
		return true
	}
	return false
}

// words consumes the sequence ws if it is next (all or nothing).
func (p *ddlParser) words(ws ...string) bool {
	for k, w := range ws {
		if !p.l.isWord(p.peekAt(k), w) {
			return false
		}
	}
	p.i += len(ws)
	return true
}

// expectWords consumes the words ws or fails at the first that is missing.
func (p *ddlParser) expectWords(ws ...string) error {
	for _, w := range ws {
		if !p.word(w) {
			return p.fail(strings.ToUpper(w))
		}
	}
	return nil
}

func (p *ddlParser) punct(c byte) bool {
	if p.peek().typ == int(c) {
		p.i++
		return true
	}
	return false
}

func (p *ddlParser) expectPunct(c byte) error {
	if !p.punct(c) {
		return p.fail("'" + string(c) + "'")
	}
	return nil
}

// ident consumes an identifier; what names it in the error.
func (p *ddlParser) ident(what string) (string, token, error) {
	t := p.peek()
	if v, ok := p.l.identValue(t); ok {
		p.i++
		return v, t, nil
	}
	return "", t, p.fail(what)
}

// tableName consumes [db.]table.
func (p *ddlParser) tableName() (TableName, error) {
	first, _, err := p.ident("a table name")
	if err != nil {
		return TableName{}, err
	}
	if !p.punct('.') {
		return TableName{Name: first}, nil
	}
	name, _, err := p.ident("a table name")
	if err != nil {
		return TableName{}, err
	}
	return TableName{Database: first, Name: name}, nil
}

// str consumes a string literal.
func (p *ddlParser) str(what string) (string, error) {
	t := p.peek()
	if t.typ != sqlparser.STRING {
		return "", p.fail(what)
	}
	p.i++
	return t.val, nil
}

// end requires the end of the statement; expected lists the optional
// clauses that could still have come.
func (p *ddlParser) end(expected ...string) error {
	if p.peek().typ != 0 {
		return p.fail(append(expected, "end of statement")...)
	}
	return nil
}

func (p *ddlParser) statement() (Statement, error) {
	t := p.peek()
	p.i++
	switch {
	case p.l.isWord(t, "create"):
		switch {
		case p.word("database"), p.word("schema"):
			return p.createDatabase()
		case p.word("table"):
			return p.createTable()
		case p.word("acl"):
			return p.aclStatement(true)
		}
		return nil, p.fail("DATABASE", "TABLE", "ACL")
	case p.l.isWord(t, "drop"):
		switch {
		case p.word("database"), p.word("schema"):
			return p.dropDatabase()
		case p.word("table"):
			return p.dropTable()
		case p.word("acl"):
			return p.aclStatement(false)
		}
		return nil, p.fail("DATABASE", "TABLE", "ACL")
	case p.l.isWord(t, "alter"):
		if p.word("database") || p.word("schema") {
			return p.alterDatabase()
		}
		return p.alterTable()
	case p.l.isWord(t, "show"):
		return p.show()
	case p.l.isWord(t, "call"):
		return p.call()
	case p.l.isWord(t, "describe"), p.l.isWord(t, "desc"):
		name, err := p.tableName()
		if err != nil {
			return nil, err
		}
		return &Describe{Table: name}, p.end()
	case p.l.isWord(t, "stop"):
		return p.stopJob()
	case p.l.isWord(t, "use"):
		db, _, err := p.ident("a database name")
		if err != nil {
			return nil, err
		}
		return &Use{Database: db}, p.end()
	}
	p.i--
	return nil, p.fail(statementStarts...)
}

func (p *ddlParser) ifNotExists() bool { return p.words("if", "not", "exists") }
func (p *ddlParser) ifExists() bool    { return p.words("if", "exists") }

func (p *ddlParser) createDatabase() (Statement, error) {
	s := &CreateDatabase{IfNotExists: p.ifNotExists()}
	var err error
	if s.Name, _, err = p.ident("a database name"); err != nil {
		return nil, err
	}
	if p.word("comment") {
		if s.Comment, err = p.str("a comment string"); err != nil {
			return nil, err
		}
	}
	if p.word("with") {
		if s.Properties, err = p.properties(); err != nil {
			return nil, err
		}
		return s, p.end()
	}
	if s.Comment == "" {
		return s, p.end("COMMENT", "WITH")
	}
	return s, p.end("WITH")
}

func (p *ddlParser) dropDatabase() (Statement, error) {
	s := &DropDatabase{IfExists: p.ifExists()}
	var err error
	if s.Name, _, err = p.ident("a database name"); err != nil {
		return nil, err
	}
	if p.word("cascade") {
		s.Cascade = true
	} else if !p.word("restrict") {
		return s, p.end("CASCADE", "RESTRICT")
	}
	return s, p.end()
}

func (p *ddlParser) dropTable() (Statement, error) {
	s := &DropTable{IfExists: p.ifExists()}
	var err error
	if s.Table, err = p.tableName(); err != nil {
		return nil, err
	}
	return s, p.end()
}

func (p *ddlParser) show() (Statement, error) {
	switch {
	case p.word("functions"):
		s := &ShowFunctions{}
		var err error
		if s.Like, err = p.like(); err != nil {
			return nil, err
		}
		if s.Like == nil {
			return s, p.end("LIKE")
		}
		return s, p.end()
	case p.word("databases"):
		s := &ShowDatabases{}
		var err error
		if s.Like, err = p.like(); err != nil {
			return nil, err
		}
		if s.Like == nil {
			return s, p.end("LIKE")
		}
		return s, p.end()
	case p.word("tables"):
		s := &ShowTables{}
		var err error
		from := p.word("from") || p.word("in")
		if from {
			if s.Database, _, err = p.ident("a database name"); err != nil {
				return nil, err
			}
		}
		if s.Like, err = p.like(); err != nil {
			return nil, err
		}
		switch {
		case s.Like != nil:
			return s, p.end()
		case from:
			return s, p.end("LIKE")
		}
		return s, p.end("FROM", "IN", "LIKE")
	case p.words("create", "table"):
		name, err := p.tableName()
		if err != nil {
			return nil, err
		}
		return &ShowCreateTable{Table: name}, p.end()
	case p.word("partitions"):
		s := &ShowPartitions{}
		var err error
		if s.Table, err = p.tableName(); err != nil {
			return nil, err
		}
		if !p.word("partition") {
			return s, p.end("PARTITION")
		}
		if s.Partition, err = p.partitionSpec(); err != nil {
			return nil, err
		}
		return s, p.end()
	case p.word("acls"):
		return p.showACLs()
	}
	if st, ok, err := p.showAdmin(); ok {
		return st, err
	}
	return nil, p.fail("DATABASES", "TABLES", "PARTITIONS", "CREATE TABLE", "CREATE DATABASE", "SERVERS", "OFFSETS", "KV SNAPSHOTS", "CLUSTER CONFIGS", "CLUSTER HEALTH", "ACLS", "FUNCTIONS")
}

// like consumes an optional LIKE 'pattern'.
func (p *ddlParser) like() (*string, error) {
	if !p.word("like") {
		return nil, nil
	}
	s, err := p.str("a pattern string")
	if err != nil {
		return nil, err
	}
	return &s, nil
}

func (p *ddlParser) alterTable() (Statement, error) {
	if !p.word("table") {
		return nil, p.fail("TABLE", "DATABASE")
	}
	ifTok := p.peek()
	ifExists := p.ifExists()
	name, err := p.tableName()
	if err != nil {
		return nil, err
	}
	switch {
	case p.word("set"):
		props, err := p.properties()
		if err != nil {
			return nil, err
		}
		return &AlterTableSet{Table: name, IfExists: ifExists, Properties: props}, p.end()
	case p.word("reset"):
		keys, err := p.keyList()
		if err != nil {
			return nil, err
		}
		return &AlterTableReset{Table: name, IfExists: ifExists, Keys: keys}, p.end()
	case p.l.isWord(p.peek(), "add") && !p.l.isWord(p.peekAt(1), "partition") && !p.l.isWord(p.peekAt(1), "if"):
		p.i++
		cols, err := p.addColumns()
		if err != nil {
			return nil, err
		}
		st := &AlterTableAddColumns{Table: name, IfExists: ifExists, Columns: cols}
		if !p.word("with") {
			return st, p.end("WITH")
		}
		if st.Properties, err = p.properties(); err != nil {
			return nil, err
		}
		return st, p.end()
	}
	if ifExists {
		return nil, p.errAt(ifTok, "IF EXISTS before the table name goes with SET, RESET and ADD columns; for partitions write ADD IF NOT EXISTS PARTITION or DROP IF EXISTS PARTITION")
	}
	switch {
	case p.word("add"):
		s := &AlterTableAddPartition{Table: name, IfNotExists: p.ifNotExists()}
		if !p.word("partition") {
			if s.IfNotExists {
				return nil, p.fail("PARTITION")
			}
			return nil, p.fail("IF NOT EXISTS", "PARTITION")
		}
		if s.Partition, err = p.partitionSpec(); err != nil {
			return nil, err
		}
		return s, p.end()
	case p.word("drop"):
		s := &AlterTableDropPartition{Table: name, IfExists: p.ifExists()}
		if !p.word("partition") {
			if s.IfExists {
				return nil, p.fail("PARTITION")
			}
			return nil, p.fail("IF EXISTS", "PARTITION")
		}
		if s.Partition, err = p.partitionSpec(); err != nil {
			return nil, err
		}
		return s, p.end()
	}
	return nil, p.fail("ADD PARTITION", "DROP PARTITION", "ADD", "SET", "RESET")
}

// addColumns consumes, after ADD, [COLUMN] col TYPE … or (col TYPE …, …).
func (p *ddlParser) addColumns() ([]types.Column, error) {
	known := map[string]bool{}
	one := func() (types.Column, error) {
		col, pk, err := p.column(known)
		if err != nil {
			return col, err
		}
		if pk {
			return col, p.errAt(p.l.toks[p.i-1], "ALTER TABLE … ADD cannot add a primary key; Fluss fixes the key at CREATE TABLE")
		}
		if t := p.peek(); p.l.isWord(t, "first") || p.l.isWord(t, "after") {
			return col, p.errAt(t, "Fluss adds columns last only; leave out "+strings.ToUpper(t.text(p.l.src)))
		}
		known[col.Name] = true
		return col, nil
	}
	if !p.punct('(') {
		p.word("column")
		col, err := one()
		if err != nil {
			return nil, err
		}
		return []types.Column{col}, nil
	}
	var cols []types.Column
	for {
		col, err := one()
		if err != nil {
			return nil, err
		}
		cols = append(cols, col)
		if p.punct(')') {
			return cols, nil
		}
		if !p.punct(',') {
			return nil, p.fail(append(p.columnRest(col, false), "','", "')'")...)
		}
	}
}

// keyList consumes ('key', …) after RESET.
func (p *ddlParser) keyList() ([]string, error) {
	if err := p.expectPunct('('); err != nil {
		return nil, err
	}
	var keys []string
	seen := map[string]bool{}
	for {
		kt := p.peek()
		key, err := p.str("an option key string")
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, p.errAt(kt, "option "+QuoteString(key)+" is given twice")
		}
		seen[key] = true
		keys = append(keys, key)
		if p.punct(')') {
			return keys, nil
		}
		if !p.punct(',') {
			return nil, p.fail("','", "')'")
		}
	}
}

// partitionSpec consumes (key = value, …) after PARTITION.
func (p *ddlParser) partitionSpec() ([]PartitionValue, error) {
	if err := p.expectPunct('('); err != nil {
		return nil, err
	}
	var spec []PartitionValue
	seen := map[string]bool{}
	for {
		key, kt, err := p.ident("a partition column")
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, p.errAt(kt, "partition column "+QuoteIdent(key)+" is given twice")
		}
		seen[key] = true
		if err := p.expectPunct('='); err != nil {
			return nil, err
		}
		var v Expr
		switch t := p.peek(); t.typ {
		case sqlparser.STRING:
			v = &Literal{Kind: LitString, Value: t.val}
		case sqlparser.INTEGRAL:
			v = &Literal{Kind: LitInt, Value: t.val}
		case sqlparser.VALUE_ARG:
			v = p.l.placeholder(t)
		default:
			return nil, p.fail("a string", "an integer", "a placeholder")
		}
		p.i++
		spec = append(spec, PartitionValue{Column: key, Value: v})
		if p.punct(')') {
			return spec, nil
		}
		if !p.punct(',') {
			return nil, p.fail("','", "')'")
		}
	}
}

// properties consumes ('key' = 'value', …) after WITH.
func (p *ddlParser) properties() (map[string]string, error) {
	if err := p.expectPunct('('); err != nil {
		return nil, err
	}
	props := map[string]string{}
	for {
		kt := p.peek()
		key, err := p.str("an option key string")
		if err != nil {
			return nil, err
		}
		if _, dup := props[key]; dup {
			return nil, p.errAt(kt, "option "+QuoteString(key)+" is given twice")
		}
		if err := p.expectPunct('='); err != nil {
			return nil, err
		}
		if props[key], err = p.str("an option value string"); err != nil {
			return nil, err
		}
		if p.punct(')') {
			return props, nil
		}
		if !p.punct(',') {
			return nil, p.fail("','", "')'")
		}
	}
}
