package flussmigrate

import (
	"context"
	"fmt"
	"io"

	"github.com/golang-migrate/migrate/v4/database"

	"github.com/flussql/flussql/parser"
)

// Run executes a migration file: its statements, cut at each ';' outside strings, quoted
// identifiers and comments (parser.Split, as the shell cuts a script), one after another on
// the driver's connection, which starts each file in the driver's database (a USE lasts to
// the end of the file). The first statement that fails stops it; the error is a
// database.Error naming that statement, its number and its line. Fluss has no transactions
// for DDL: the statements before it stay applied, which is what migrate's dirty flag then
// means.
func (f *Fluss) Run(migration io.Reader) error {
	text, err := io.ReadAll(migration)
	if err != nil {
		return fmt.Errorf("flussmigrate: reading the migration: %w", err)
	}
	pieces := parser.Split(string(text))
	ctx := context.Background()
	// Each file starts in the driver's database, whatever the previous one USEd.
	if _, err := f.conn.ExecContext(ctx, "USE "+quoteIdent(f.cfg.DatabaseName)); err != nil {
		return fmt.Errorf("flussmigrate: USE %s: %w", f.cfg.DatabaseName, err)
	}
	for i, p := range pieces {
		if _, err := f.conn.ExecContext(ctx, p.Text); err != nil {
			applied := "none of the statements before it"
			if i > 0 {
				applied = fmt.Sprintf("statements 1–%d stay applied", i)
			}
			if i == 1 {
				applied = "statement 1 stays applied"
			}
			return database.Error{
				OrigErr: err,
				Line:    uint(p.Line),
				Query:   []byte(p.Text),
				Err:     fmt.Sprintf("statement %d of %d failed (%s; Fluss DDL is not transactional)", i+1, len(pieces), applied),
			}
		}
	}
	return nil
}

// Drop drops every table of the database but the lock table (migrate holds the lock while
// it drops, and the lock table holds nothing but the lock), the migrations table included.
// Like every driver's Drop, it leaves the driver unusable: open a new one.
func (f *Fluss) Drop() error {
	ctx := context.Background()
	rows, err := f.db.QueryContext(ctx, "SHOW TABLES FROM "+quoteIdent(f.cfg.DatabaseName))
	if err != nil {
		return fmt.Errorf("flussmigrate: listing the tables of %s: %w", f.cfg.DatabaseName, err)
	}
	var tables []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return fmt.Errorf("flussmigrate: listing the tables of %s: %w", f.cfg.DatabaseName, err)
		}
		if name != f.cfg.LockTable {
			tables = append(tables, name)
		}
	}
	if err := rows.Close(); err != nil {
		return fmt.Errorf("flussmigrate: listing the tables of %s: %w", f.cfg.DatabaseName, err)
	}
	for _, name := range tables {
		if _, err := f.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+quoteName(f.cfg.DatabaseName, name)); err != nil {
			return fmt.Errorf("flussmigrate: dropping %s.%s: %w", f.cfg.DatabaseName, name, err)
		}
	}
	return nil
}
