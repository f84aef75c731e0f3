package tpch

import (
	"context"
	"database/sql"
	"fmt"

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
