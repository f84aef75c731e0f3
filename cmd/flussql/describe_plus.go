package main

import (
	"context"
	"fmt"
	"strings"
)

// \d+ t, as psql's \d+: what \d shows (columns, primary key, partition keys, bucket count
// and every table option, from DESCRIBE and SHOW CREATE TABLE), then the table's
// partitions (SHOW PARTITIONS) when it is partitioned, the earliest and latest offset of
// every bucket (SHOW OFFSETS FOR), and for a primary-key table its latest KV snapshots
// (SHOW KV SNAPSHOTS FOR).
func (s *shell) describePlus(ctx context.Context, table string) error {
	ddl, err := s.describeDDL(ctx, table)
	if err != nil {
		return err
	}
	upper := strings.ToUpper(ddl)
	if strings.Contains(upper, "PARTITIONED BY") {
		fmt.Fprintln(s.out, "Partitions:")
		if err := s.runQuery(ctx, "SHOW PARTITIONS "+table); err != nil {
			return err
		}
	}
	fmt.Fprintln(s.out, "Offsets:")
	if err := s.runQuery(ctx, "SHOW OFFSETS FOR "+table); err != nil {
		return err
	}
	if strings.Contains(upper, "PRIMARY KEY") {
		fmt.Fprintln(s.out, "KV snapshots:")
		if err := s.runQuery(ctx, "SHOW KV SNAPSHOTS FOR "+table); err != nil {
			return err
		}
	}
	return nil
}
