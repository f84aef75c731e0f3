package main

import (
	"fmt"
	"strings"

	"github.com/flussql/flussql/engine"
)

// \h [STATEMENT], as psql's: \h alone lists the statements, \h followed by a statement's
// first words shows its syntax (all the statements that start with the words given, so
// \h SHOW lists every SHOW). The syntax is the README's "SQL dialect"; `go doc ./parser`
// has the whole grammar.

// statementHelp is one statement's syntax.
type statementHelp struct {
	name   string // the words it starts with, upper case
	syntax string
}

// statementHelps are the statements of flussql's dialect, in the order \h lists them.
var statementHelps = []statementHelp{
	{"ALTER DATABASE", "ALTER DATABASE [IF EXISTS] db SET ('k' = 'v', …) | RESET ('k', …) | COMMENT '…'   -- Fluss 1.0+"},
	{"ALTER TABLE", "ALTER TABLE [IF EXISTS] t ADD [COLUMN] col TYPE [COMMENT '…'] | ADD (col TYPE, …)\n  [WITH ('fields.col.agg' = 'sum', …)]\nALTER TABLE t SET ('k' = 'v', …) | RESET ('k', …)\nALTER TABLE t ADD [IF NOT EXISTS] PARTITION (k = 'v', …)\nALTER TABLE t DROP [IF EXISTS] PARTITION (k = 'v', …)"},
	{"CREATE ACL", "CREATE ACL (resource => 'db.t', principal => 'User:alice', operation => 'READ'\n  [, permission => 'ALLOW'] [, host => '*'])"},
	{"CREATE DATABASE", "CREATE DATABASE [IF NOT EXISTS] db [COMMENT '…'] [WITH ('k' = 'v', …)]"},
	{"CREATE TABLE", "CREATE TABLE [IF NOT EXISTS] [db.]t (\n  col TYPE [NOT NULL] [COMMENT '…'], …\n  [, PRIMARY KEY (col, …) NOT ENFORCED])\n  [COMMENT '…'] [PARTITIONED BY (col, …)]\n  [WITH ('bucket.num' = '4', 'bucket.key' = 'a,b', 'table.…' = '…')]"},
	{"DELETE", "DELETE FROM t WHERE pk = value | pk IN (value, …)   -- primary-key tables"},
	{"DESCRIBE", "DESCRIBE t"},
	{"DROP ACL", "DROP ACL (resource => 'db.t', principal => 'User:alice', operation => 'READ')"},
	{"DROP DATABASE", "DROP DATABASE [IF EXISTS] db [CASCADE | RESTRICT]"},
	{"DROP TABLE", "DROP TABLE [IF EXISTS] t"},
	{"EXPLAIN", "EXPLAIN statement"},
	{"INSERT", "INSERT INTO t [(col, …)] VALUES (value, …), …\nINSERT INTO t [(col, …)] SELECT …"},
	{"SELECT", "[WITH name AS (SELECT …), …]\nSELECT [DISTINCT] * | expr [[AS] alias], …\n  FROM t [/*+ OPTIONS('scan.startup.mode' = 'earliest', 'scan.bounded' = 'false') */]\n    [[INNER | LEFT | CROSS] JOIN t2 ON …]\n  [WHERE condition] [GROUP BY expr, …] [HAVING condition]\n  [UNION [ALL] | INTERSECT | EXCEPT SELECT …]\n  [ORDER BY expr [ASC | DESC], …] [LIMIT n] [OFFSET n]"},
	{"SHOW ACLS", "SHOW ACLS [FOR 'db' | 'db.t']"},
	{"SHOW CLUSTER CONFIGS", "SHOW CLUSTER CONFIGS [LIKE '…']"},
	{"SHOW CLUSTER HEALTH", "SHOW CLUSTER HEALTH   -- Fluss 1.0+"},
	{"SHOW CREATE DATABASE", "SHOW CREATE DATABASE db"},
	{"SHOW CREATE TABLE", "SHOW CREATE TABLE t"},
	{"SHOW DATABASES", "SHOW DATABASES [LIKE '…']"},
	{"SHOW FUNCTIONS", "SHOW FUNCTIONS [LIKE '…']   -- \\h FUNCTION_NAME shows one function"},
	{"SHOW KV SNAPSHOTS", "SHOW [ACTIVE] KV SNAPSHOTS FOR t [PARTITION (k = 'v', …)]"},
	{"SHOW OFFSETS", "SHOW OFFSETS FOR t [PARTITION (k = 'v', …)]"},
	{"SHOW PARTITIONS", "SHOW PARTITIONS t [PARTITION (k = 'v', …)]"},
	{"SHOW SERVERS", "SHOW SERVERS"},
	{"SHOW TABLES", "SHOW TABLES [FROM db] [LIKE '…']"},
	{"UPDATE", "UPDATE t SET col = value, … WHERE pk = value | pk IN (value, …)   -- primary-key tables"},
	{"UPSERT", "UPSERT INTO t [(col, …)] VALUES (value, …), …\nUPSERT INTO t [(col, …)] SELECT …"},
	{"USE", "USE db"},
}

// statementHelpText is \h's answer for the words given (none: the list).
func statementHelpText(words []string) (string, error) {
	var b strings.Builder
	if len(words) == 0 {
		b.WriteString("Statements (\\h NAME shows one's syntax; \\? lists the backslash commands):\n")
		for _, h := range statementHelps {
			fmt.Fprintf(&b, "  %s\n", h.name)
		}
		b.WriteString("Functions: SHOW FUNCTIONS lists them, \\h NAME shows one's signature and an example.\n")
		return b.String(), nil
	}
	want := strings.ToUpper(strings.Join(words, " "))
	for _, h := range statementHelps {
		if strings.HasPrefix(h.name, want) {
			if b.Len() > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "Statement: %s\nSyntax:\n%s\n", h.name, indent(h.syntax))
		}
	}
	if b.Len() == 0 && len(words) == 1 {
		if text, ok := engine.FuncHelp(words[0]); ok {
			return text, nil
		}
	}
	if b.Len() == 0 {
		return "", fmt.Errorf(`no help for %q; \h alone lists the statements`, strings.Join(words, " "))
	}
	return b.String(), nil
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(s, "\n", "\n  ")
}
