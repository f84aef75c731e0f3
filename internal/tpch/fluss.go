package tpch

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/flussql/flussql"
)

// LoadFluss creates the eight tables as log tables in the existing Fluss database
// database through a flussql *sql.DB and appends their rows with
// flussql.ArrowConn.AppendArrowReader (one statement per table, batches of 65,536 rows:
// the fastest way to load rows). It returns the number of rows loaded.
func (g *Generator) LoadFluss(ctx context.Context, db *sql.DB, database string) (int64, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	for _, t := range Tables {
		if _, err := conn.ExecContext(ctx, t.FlussDDL(database)); err != nil {
			return 0, fmt.Errorf("tpch: creating %s: %w", t.Name, err)
		}
	}
	// Created first, loaded after: a table's buckets have leaders by the time its rows
	// are sent (appending right after each CREATE waited for them, 30 s in all).
	var total int64
	for _, t := range Tables {
		rdr := g.ArrowReader(t, 65_536)
		err := conn.Raw(func(dc any) error {
			ac, ok := dc.(flussql.ArrowConn)
			if !ok {
				return fmt.Errorf("tpch: LoadFluss needs a flussql connection, got %T", dc)
			}
			n, err := ac.AppendArrowReader(ctx, database+"."+t.Name, rdr)
			total += n
			return err
		})
		rdr.Release()
		if err != nil {
			return total, fmt.Errorf("tpch: loading %s: %w", t.Name, err)
		}
	}
	return total, nil
}

// LoadFlussValues loads like LoadFluss but with multi-row INSERT … VALUES statements of
// rowsPerInsert rows as SQL literals, in transactions of 100,000 rows: the slower way, kept
// to measure against (the benchmark's TPCH_LOAD=values).
func (g *Generator) LoadFlussValues(ctx context.Context, db *sql.DB, database string, rowsPerInsert int) (int64, error) {
	for _, t := range Tables {
		if _, err := db.ExecContext(ctx, t.FlussDDL(database)); err != nil {
			return 0, fmt.Errorf("tpch: creating %s: %w", t.Name, err)
		}
	}
	var total int64
	for _, t := range Tables {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return total, err
		}
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
			b.WriteByte('(')
			for i, c := range t.Columns {
				if i > 0 {
					b.WriteString(", ")
				}
				switch c.Kind {
				case Money:
					b.WriteString(MoneyString(row[i].I))
				case Date:
					b.WriteString("DATE '" + DateString(row[i].I) + "'")
				case String:
					b.WriteString("'" + strings.ReplaceAll(row[i].S, "'", "''") + "'")
				default:
					fmt.Fprintf(&b, "%d", row[i].I)
				}
			}
			b.WriteByte(')')
			rows++
			inTx++
			if rows == rowsPerInsert {
				if err := flush(); err != nil {
					tx.Rollback()
					return total, fmt.Errorf("tpch: loading %s: %w", t.Name, err)
				}
			}
			if inTx >= 100_000 {
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
			tx.Rollback()
			return total, fmt.Errorf("tpch: loading %s: %w", t.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return total, err
		}
	}
	return total, nil
}

// MoneyString renders a DECIMAL(15, 2) value (cents) as SQL text, e.g. -0.05.
func MoneyString(cents int64) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}
