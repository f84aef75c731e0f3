package main

import (
	"slices"

	"github.com/flussql/flussql/engine"
)

// sqlKeywords are the words tab completion offers for SQL: the statements, clauses,
// operators, types and functions of flussql's dialect (the README's "SQL dialect"). One
// list, kept in this file alone, so that new statements add their words here.
var sqlKeywords = []string{
	// statements and their clauses
	"SELECT", "FROM", "WHERE", "GROUP", "BY", "HAVING", "ORDER", "LIMIT", "OFFSET", "DISTINCT",
	"AS", "ASC", "DESC", "JOIN", "INNER", "LEFT", "CROSS", "ON", "UNION", "INTERSECT", "EXCEPT", "ALL",
	"INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE",
	"CREATE", "DROP", "ALTER", "ADD", "RESET", "TABLE", "TABLES", "DATABASE", "DATABASES",
	"PARTITION", "PARTITIONS", "PARTITIONED", "COLUMN", "COLUMNS", "IF", "EXISTS", "CASCADE",
	"RESTRICT", "USE", "SHOW", "DESCRIBE", "EXPLAIN", "WITH", "COMMENT", "PRIMARY", "KEY",
	"NOT", "ENFORCED", "OPTIONS", "UPSERT", "FOR", "SERVERS", "OFFSETS", "KV", "SNAPSHOTS", "ACTIVE",
	"CLUSTER", "CONFIGS", "HEALTH", "SYSTEM_TIME", "OF",
	// ACL statements: CREATE ACL (resource => …, principal => …, operation => …), SHOW ACLS
	"ACL", "ACLS", "RESOURCE", "PRINCIPAL", "OPERATION", "PERMISSION", "HOST", "ALLOW",
	"READ", "WRITE", "DESCRIBE", "ANY",
	// procedures: CALL sys.add_acl(…), sys.get_cluster_configs(…), sys.rebalance(…), …
	"CALL", "SYS",
	// expressions
	"AND", "OR", "IN", "IS", "NULL", "LIKE", "BETWEEN", "CASE", "WHEN", "THEN", "ELSE", "END",
	"CAST", "TRUE", "FALSE", "INTERVAL",
	// types
	"BOOLEAN", "TINYINT", "SMALLINT", "INT", "INTEGER", "BIGINT", "FLOAT", "DOUBLE", "DECIMAL",
	"CHAR", "STRING", "BINARY", "BYTES", "DATE", "TIME", "TIMESTAMP", "TIMESTAMP_LTZ",
	"ARRAY", "MAP", "ROW",
	// functions: the engine's registry (functionWords); window functions take
	// fn(…) OVER ([PARTITION BY …] [ORDER BY …] [ROWS|RANGE BETWEEN … AND …])
	"OVER", "WINDOW", "ROWS", "RANGE", "UNBOUNDED", "PRECEDING", "FOLLOWING", "CURRENT",
	"JOBS", "STOP", "JOB", "SAVEPOINT", "DRAIN", "FUNCTIONS",
}

// functionWords are the names of the engine's function registry (SHOW FUNCTIONS) that
// are not sqlKeywords already; completion offers them where no column matches.
var functionWords = func() []string {
	var out []string
	for _, f := range engine.FunctionNames() {
		if !slices.Contains(sqlKeywords, f) {
			out = append(out, f)
		}
	}
	return out
}()

// backslashCommands are the shell's commands that tab completion offers (see helpText).
var backslashCommands = []string{
	`\?`, `\l`, `\dt`, `\d`, `\d+`, `\dp`, `\dA`, `\c`, `\jobs`, `\timing`, `\x`, `\format`, `\pset`, `\i`, `\o`,
	`\e`, `\conninfo`, `\q`, `\copy`, `\watch`, `\g`, `\set`, `\unset`, `\echo`, `\!`, `\h`,
}
