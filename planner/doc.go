// Package planner turns parsed statements (package parser) into plans:
// plain, printable data that say exactly what the database/sql driver has
// to do with the Fluss client (package fluss). The planner never talks to
// the network itself; table metadata comes from a Catalog.
//
// # Flow
//
//	st, _ := parser.Parse(sql)
//	p, err := planner.Build(ctx, st, catalog, planner.Session{Database: "fluss"})
//	p, err = planner.Bind(p, args) // always, also without placeholders
//	// execute p with a type switch (see below); EXPLAIN prints p.String()
//
// Build resolves names (unqualified tables in Session.Database; columns
// exactly as written, else a unique case-insensitive match), converts
// every literal to the type of the column it
// is compared with or written to, and picks a strategy. Bind converts the
// arguments of placeholders the same way (with range checks), refuses NULL
// in key columns, computes partition names, expands IN lists into lookup
// keys and prunes partitions. Bind never changes its input: a prepared plan
// can be bound again and again, also concurrently.
//
// # Plans and how to execute them
//
//   - DDL: *CreateDatabase, *DropDatabase, *CreateTable, *DropTable,
//     *AddPartition, *DropPartition map one to one onto fluss.Admin calls.
//     After DDL on a table, invalidate it in the catalog.
//   - *Use changes the session's database (check that it exists first).
//   - *ShowDatabases, *ShowTables, *ShowPartitions, *ShowCreateTable,
//     *ShowServers, *ShowOffsets, *ShowKvSnapshots, *ShowClusterConfigs,
//     *Describe and *Explain return rows that their Rows method builds from
//     the admin answers (or from the table info the planner already holds).
//   - *Write: Append / Upsert / PartialUpdate / Delete / Update rows, in
//     table column order; RowsAffected is len(Rows). CheckPartitions turns
//     a missing partition into an error naming the ALTER TABLE to run.
//   - *InsertSelect: INSERT / UPSERT INTO t … SELECT: a Write without rows (the
//     target), the table column of each query column, and the query's read
//     plan (Source); Row converts each result row into a bound WriteRow.
//   - *Lookup, *PrefixLookup, *LimitScan, *Scan read rows; their Output
//     filters, limits, counts and projects them (Output.Begin, then
//     Results.Add per input row and Results.Finish at the end).
//   - *Query is every other SELECT (expressions, aggregates, GROUP BY,
//     HAVING, DISTINCT, ORDER BY, OFFSET, no FROM): Source is one of the read
//     plans above (or a *KvScan) with every pushdown it allows but a pass-through Output,
//     Root the operator tree (package engine) the driver runs over Source's
//     rows: a Scan's or KvScan's batches as they come, the other sources' rows as a batch
//     of full table rows. BuildQuery plans any SELECT this way.
//
// Every plan that returns rows is a QueryPlan: ResultColumns names and
// types the result columns (names exactly as the select list writes them).
//
// # SELECT strategies
//
// On a primary-key table: equality or IN on every primary-key column is a
// Lookup; on every bucket-key column (when the bucket key is a strict
// prefix of the physical primary key) and every partition key a
// PrefixLookup; otherwise, when Session.KvScan says the server offers ScanKv
// (Fluss 1.0+), a Query over a KvScan (partitions pruned, columns projected,
// LIMIT + OFFSET pushed to each bucket when nothing filters or reorders);
// without it LIMIT n makes a LimitScan and anything else is an error
// matching ErrNeedsFullScan. On a
// log table every SELECT is a Scan: partitions pruned by equality or IN on
// partition columns, columns projected, bounded by default (up to the end
// offsets seen at the start) and started at the earliest offset unless a
// hint says otherwise:
//
//	SELECT * FROM t /*+ OPTIONS('scan.startup.mode' = 'latest', 'scan.bounded' = 'false') */
//
// The whole WHERE clause is kept as the residual filter and evaluated on
// the client with SQL's three-valued logic, so pruning and key extraction
// only ever narrow what is read; they never decide a row's fate alone.
package planner
