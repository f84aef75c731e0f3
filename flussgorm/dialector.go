package flussgorm

import (
	"database/sql"
	"fmt"

	"gorm.io/gorm"
	"gorm.io/gorm/callbacks"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/schema"

	// The "fluss" database/sql driver that Open's DSN is opened with.
	_ "github.com/flussql/flussql"
)

// Config configures a Dialector.
type Config struct {
	// DSN is the flussql DSN (fluss://host:port/db?…) GORM opens a pool of; unused when DB is set.
	DSN string
	// DB is an open pool of the "fluss" driver (sql.Open("fluss", dsn) or sql.OpenDB of a
	// flussql.Connector); GORM uses it instead of opening one from DSN.
	DB *sql.DB
	// Buckets is the bucket count ('bucket.num') of the tables the migrator creates for models
	// that set none; 0 leaves it to the server's default (default.bucket.number).
	Buckets int
	// Properties are table options (WITH) of every table the migrator creates; a model's own
	// options (TableOptioner) override them key by key.
	Properties map[string]string
}

// Dialector is GORM's dialector for flussql. Make one with Open or New.
type Dialector struct {
	*Config
}

// Open returns a dialector that opens a pool of the "fluss" driver on dsn.
func Open(dsn string) gorm.Dialector {
	return &Dialector{Config: &Config{DSN: dsn}}
}

// New returns a dialector with cfg (an open DB, or a DSN, and table defaults).
func New(cfg Config) gorm.Dialector {
	return &Dialector{Config: &cfg}
}

// Name is the dialect's name as GORM's callbacks and plugins see it.
func (d *Dialector) Name() string { return "fluss" }

// Initialize hands GORM the pool (opening it from DSN when no DB is set) and registers GORM's
// create, query, update and delete callbacks with the clauses flussql's statements take: no
// RETURNING, and no ON CONFLICT (an INSERT into a primary-key table is an upsert already, so
// GORM's Save of a new row and its ON CONFLICT fallbacks upsert). Create is flussql's own
// (see createCallback): it asks for no generated key.
func (d *Dialector) Initialize(db *gorm.DB) error {
	if d.Config == nil {
		d.Config = &Config{}
	}
	switch {
	case d.DB != nil:
	case d.DSN != "":
		pool, err := sql.Open("fluss", d.DSN)
		if err != nil {
			return fmt.Errorf("flussgorm: %w", err)
		}
		d.DB = pool
	default:
		return fmt.Errorf("flussgorm: neither DB nor DSN is set; use flussgorm.Open(\"fluss://host:port/db\") or flussgorm.New(flussgorm.Config{DB: sqlDB})")
	}
	callbacks.RegisterDefaultCallbacks(db, &callbacks.Config{
		CreateClauses: []string{"INSERT", "VALUES"},
		QueryClauses:  []string{"SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "LIMIT"},
		UpdateClauses: []string{"UPDATE", "SET", "WHERE"},
		DeleteClauses: []string{"DELETE", "FROM", "WHERE"},
	})
	if err := db.Callback().Create().Replace("gorm:create", createCallback); err != nil {
		return fmt.Errorf("flussgorm: %w", err)
	}
	db.ConnPool = d.DB
	return nil
}

// Migrator returns the migrator of db: see Migrator.
func (d *Dialector) Migrator(db *gorm.DB) gorm.Migrator {
	return Migrator{DB: db, Dialector: d}
}

// DefaultValueOf is NULL: Fluss columns have no DEFAULT.
func (d *Dialector) DefaultValueOf(*schema.Field) clause.Expression {
	return clause.Expr{SQL: "NULL"}
}

// BindVarTo writes a positional placeholder.
func (d *Dialector) BindVarTo(w clause.Writer, stmt *gorm.Statement, v any) {
	w.WriteByte('?')
}

// QuoteTo quotes an identifier, or each part of a dotted one (db.table, table.column), with
// backticks, doubling a backtick inside.
func (d *Dialector) QuoteTo(w clause.Writer, s string) {
	w.WriteByte('`')
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '`':
			w.WriteString("``")
		case '.':
			w.WriteString("`.`")
		default:
			w.WriteByte(s[i])
		}
	}
	w.WriteByte('`')
}

// Explain renders a statement with its arguments inlined, for GORM's logger and DryRun.
func (d *Dialector) Explain(sql string, vars ...any) string {
	return logger.ExplainSQL(sql, nil, "'", vars...)
}
