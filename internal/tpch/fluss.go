package tpch

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/flussql/flussql"
)

// Layout says how the tables are made in Fluss.
type Layout int

const (
	// LogTables makes all eight tables log tables, loaded with
	// flussql.ArrowConn.AppendArrowReader (one statement per table, batches of 65,536 rows:
	// the fastest way to load rows). It works on every server.
	LogTables Layout = iota
	// LogValues is LogTables loaded with multi-row INSERT … VALUES statements of 1,000 rows
	// as SQL literals in transactions of 100,000 rows: the slower way, kept to measure
	// against (the benchmark's TPCH_LOAD=values).
	LogValues
	// KeyedDimensions makes the dimension tables (all but orders and lineitem) primary-key
	// tables (Table.Key), loaded with INSERT … VALUES, so that joins on their keys can be
	// lookup joins and their full scans are KV scans: Fluss 1.0 and later (SCAN_KV).
	KeyedDimensions
)

// LoadFluss creates the eight tables in the existing Fluss database database through a
// flussql *sql.DB, in the given layout, and loads their rows. It returns the number of
// rows loaded.
func (g *Generator) LoadFluss(ctx context.Context, db *sql.DB, database string, layout Layout) (int64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	keyed := func(t Table) bool { return layout == KeyedDimensions && len(t.Key) > 0 }
	// Created first, loaded after: a table's buckets have leaders by the time its rows
	// are sent (appending right after each CREATE waited for them, 30 s in all).
	for _, t := range Tables {
		if _, err := conn.ExecContext(ctx, t.FlussDDL(database, keyed(t))); err != nil {
			return 0, fmt.Errorf("tpch: creating %s: %w", t.Name, err)
		}
	}
	var total int64
	for _, t := range Tables {
		var n int64
		var err error
		if keyed(t) || layout == LogValues {
			n, err = g.insertValues(ctx, db, database, t, 1000)
		} else {
			n, err = g.appendArrow(ctx, conn, database, t)
		}
		total += n
		if err != nil {
			return total, fmt.Errorf("tpch: loading %s: %w", t.Name, err)
		}
	}
	return total, nil
}

func (g *Generator) appendArrow(ctx context.Context, conn *sql.Conn, database string, t Table) (int64, error) {
	rdr := g.ArrowReader(t, 65_536)
	defer rdr.Release()
	var n int64
	err := conn.Raw(func(dc any) error {
		ac, ok := dc.(flussql.ArrowConn)
		if !ok {
			return fmt.Errorf("tpch: LoadFluss needs a flussql connection, got %T", dc)
		}
		var err error
		n, err = ac.AppendArrowReader(ctx, database+"."+t.Name, rdr)
		return err
	})
	return n, err
}

// insertValues inserts t's rows with INSERT … VALUES statements of rowsPerInsert rows as
// SQL literals, in transactions of 100,000 rows.
func (g *Generator) insertValues(ctx context.Context, db *sql.DB, database string, t Table, rowsPerInsert int) (int64, error) {
	var total int64
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return 0, err
	}
	defer func() { tx.Rollback() }()
	var b strings.Builder
	rows, inTx := 0, 0
	flush := func() error {
		if rows == 0 {
			return nil
		}
		_, err := tx.ExecContext(ctx, b.String())
		b.Reset()
		total += int64(rows)
		rows = 0
		return err
	}
	for row := range g.Rows(t.Name) {
		if rows == 0 {
			b.WriteString("INSERT INTO " + database + "." + t.Name + " VALUES ")
		} else {
			b.WriteString(", ")
		}
		writeLiterals(&b, t, row, "DATE ")
		if rows++; rows == rowsPerInsert {
			if err := flush(); err != nil {
				return total, err
			}
		}
		if inTx++; inTx >= 100_000 {
			if err := tx.Commit(); err != nil {
				return total, err
			}
			if tx, err = db.BeginTx(ctx, nil); err != nil {
				return total, err
			}
			inTx = 0
		}
	}
	if err := flush(); err != nil {
		return total, err
	}
	return total, tx.Commit()
}

// writeLiterals writes row as a parenthesised list of SQL literals; datePrefix goes
// before a date's quoted text ("DATE " in Flink SQL, "" for SQLite's text dates).
func writeLiterals(b *strings.Builder, t Table, row Row, datePrefix string) {
	b.WriteByte('(')
	for i, c := range t.Columns {
		if i > 0 {
			b.WriteString(", ")
		}
		switch c.Kind {
		case Money:
			b.WriteString(MoneyString(row[i].I))
		case Date:
			b.WriteString(datePrefix + "'" + DateString(row[i].I) + "'")
		case String:
			b.WriteString("'" + strings.ReplaceAll(row[i].S, "'", "''") + "'")
		default:
			fmt.Fprintf(b, "%d", row[i].I)
		}
	}
	b.WriteByte(')')
}

// MoneyString renders a DECIMAL(15, 2) value (cents) as SQL text, e.g. -0.05.
func MoneyString(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}
