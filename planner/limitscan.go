package planner

import (
	"fmt"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/parser"
)

// A LimitScan reads the first n rows of every bucket, so it may answer LIMIT n only when
// nothing after it drops rows: the rows a bucket holds beyond its first n must not be
// needed. A WHERE that names a column other than a partition key can reject all n rows of
// a bucket while a later row of it matches (SELECT id FROM u WHERE name = 'user500' LIMIT
// 5 found nothing), so such a statement is refused instead. A condition on partition keys
// alone is the same for every row of a partition: a bucket's rows all pass it or all fail
// it, and the first n of each passing bucket are as good as any.

// limitScanExact reports whether a LimitScan of info under where returns what the LIMIT
// asks for (see above).
func limitScanExact(info *fluss.TableInfo, where parser.Expr) bool {
	if where == nil {
		return true
	}
	keys := map[string]bool{}
	for _, k := range info.PartitionKeys() {
		keys[k] = true
	}
	exact := true
	parser.Walk(where, func(e parser.Expr) bool {
		switch n := e.(type) {
		case *parser.ColumnRef:
			if idx := info.Schema().Index(n.Name); idx < 0 || !keys[info.Schema().Columns[idx].Name] {
				exact = false
			}
		case *parser.Star, *parser.CountStar:
			exact = false
		}
		return exact
	})
	return exact
}

// fullScanNeeded is the refusal of a statement that needs every row of a primary-key table
// on a server without ScanKv. It suggests LIMIT only where a LIMIT would give a right
// answer (no WHERE but on partition keys).
func fullScanNeeded(info *fluss.TableInfo, where parser.Expr, hint string) error {
	if limitScanExact(info, where) {
		return &fullScanError{
			msg:          fmt.Sprintf("a full scan of a primary-key table needs Fluss 1.0+ (ScanKv); %s, or add LIMIT", hint),
			withoutLimit: fmt.Sprintf("a full scan of primary-key table %s needs Fluss 1.0+ (ScanKv); %s", info.Path, hint)}
	}
	return &fullScanError{msg: fmt.Sprintf("a filtered scan of a primary-key table needs Fluss 1.0+ (ScanKv): "+
		"LIMIT cannot stand in for it, since a bucket's first rows may all fail the filter; %s", hint)}
}

// inLargerQuery is err for a table read that is one part of a larger query (a join, a
// subquery): a LIMIT of the statement stands above the read, so the advice to add one is
// dropped.
func inLargerQuery(err error) error {
	if fe, ok := err.(*fullScanError); ok && fe.withoutLimit != "" {
		return &fullScanError{msg: fe.withoutLimit}
	}
	return err
}
