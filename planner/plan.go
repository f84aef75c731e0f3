package planner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/flussql/flussql/engine"
	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// Plan is what a statement does, as plain data. String describes it in a
// stable, readable, multi-line form (EXPLAIN prints it). The concrete
// types are listed in the package documentation; execute them with a type
// switch.
type Plan interface {
	String() string
	plan()
}

// QueryPlan is a plan that returns rows: the read plans (Lookup,
// PrefixLookup, LimitScan, Scan) and the row plans (SHOW, DESCRIBE,
// EXPLAIN), whose rows the planner builds from the answers the driver
// fetches (each has a Rows method).
type QueryPlan interface {
	Plan
	// ResultColumns names and types the result columns.
	ResultColumns() []ResultColumn
}

// ResultColumn is one column of a result.
type ResultColumn struct {
	Name string
	Type types.DataType
}

// Session is the state of the connection a statement runs in.
type Session struct {
	// Database is the current database: unqualified table names resolve
	// there.
	Database string
	// Location is the time zone of TIMESTAMP_LTZ literals written without
	// an offset; nil means UTC.
	Location *time.Location
	// KvScan says the server offers full scans of primary-key tables (SCAN_KV, Fluss
	// 1.0+): a query of one that no key condition answers is planned over a KvScan
	// instead of being refused with ErrNeedsFullScan.
	KvScan bool
	// Flink says a Flink SQL gateway runs what needs a streaming engine: such statements
	// plan as *Flink instead of being refused (flink.go).
	Flink bool
	// Functions are the user-defined functions of the connector, found
	// before the built-ins (nil: none).
	Functions *engine.FunctionSet
}

// Build plans one statement. Literals are converted to their columns'
// types now; placeholders are left for Bind.
func Build(ctx context.Context, stmt parser.Statement, cat Catalog, sess Session) (Plan, error) {
	b := &builder{ctx: ctx, cat: cat, sess: sess}
	p, err := b.routed(stmt)
	if err != nil {
		return nil, err
	}
	if q, ok := p.(*Query); ok {
		shareSubtrees(q)
	}
	// Finish constant plans now (partition names, pruning, key checks), so
	// that EXPLAIN shows the final plan; Bind redoes this with arguments.
	if pr := parser.Placeholders(stmt); pr.Positional == 0 && len(pr.Names) == 0 {
		return Bind(p, nil)
	}
	return p, nil
}

// builder carries what planning one statement needs.
type builder struct {
	ctx  context.Context
	cat  Catalog
	sess Session
	topN map[*parser.Select]*topNLimit // see noteTopN
	// subqueries counts the subqueries joined so far (their columns' qualifiers).
	subqueries int
	// applied are the conjuncts a table's plan applies whole (applied.go).
	applied map[parser.Expr]bool
}

func (b *builder) build(stmt parser.Statement) (Plan, error) {
	switch s := stmt.(type) {
	case *parser.CreateDatabase:
		return planCreateDatabase(s), nil
	case *parser.DropDatabase:
		return &DropDatabase{Name: s.Name, IgnoreIfNotExists: s.IfExists, Cascade: s.Cascade}, nil
	case *parser.Use:
		return &Use{Database: s.Database}, nil
	case *parser.CreateTable:
		return b.createTable(s)
	case *parser.DropTable:
		path, err := b.path(s.Table)
		if err != nil {
			return nil, err
		}
		return &DropTable{Path: path, IgnoreIfNotExists: s.IfExists}, nil
	case *parser.AlterTableAddPartition:
		return b.addPartition(s)
	case *parser.AlterTableDropPartition:
		return b.dropPartition(s)
	case *parser.AlterTableSet:
		return b.alterTableSet(s)
	case *parser.AlterTableReset:
		return b.alterTableReset(s)
	case *parser.AlterTableAddColumns:
		return b.alterTableAdd(s)
	case *parser.ShowDatabases:
		return &ShowDatabases{Like: s.Like}, nil
	case *parser.ShowTables:
		db := s.Database
		if db == "" {
			db = b.sess.Database
		}
		if db == "" {
			return nil, errNoDatabase
		}
		return &ShowTables{Database: db, Like: s.Like}, nil
	case *parser.ShowPartitions:
		return b.showPartitions(s)
	case *parser.ShowServers:
		return &ShowServers{}, nil
	case *parser.ShowFunctions:
		return &ShowFunctions{Like: s.Like, User: b.sess.Functions}, nil
	case *parser.ShowClusterHealth:
		return &ShowClusterHealth{}, nil
	case *parser.ShowCreateDatabase:
		return &ShowCreateDatabase{Name: s.Name}, nil
	case *parser.AlterDatabase:
		return b.alterDatabase(s)
	case *parser.ShowClusterConfigs:
		return &ShowClusterConfigs{Like: s.Like}, nil
	case *parser.ShowOffsets:
		return b.showOffsets(s)
	case *parser.ShowKvSnapshots:
		return b.showKvSnapshots(s)
	case *parser.ShowCreateTable:
		info, err := b.table(s.Table)
		if err != nil {
			return nil, err
		}
		return &ShowCreateTable{Table: info}, nil
	case *parser.Describe:
		info, _, err := b.readTable(s.Table)
		if err != nil {
			return nil, err
		}
		return &Describe{Table: info}, nil
	case *parser.Insert:
		return b.insert(s)
	case *parser.Delete:
		return b.delete(s)
	case *parser.Update:
		return b.update(s)
	case *parser.Select:
		return b.selectStmt(s)
	case *parser.CreateACL:
		return planCreateACL(s)
	case *parser.DropACL:
		return planDropACL(s)
	case *parser.ShowACLs:
		return planShowACLs(s)
	case *parser.Call:
		return b.call(s)
	case *parser.Explain:
		inner, err := b.routed(s.Statement)
		if err != nil {
			return nil, err
		}
		if q, ok := inner.(*Query); ok {
			shareSubtrees(q) // as Build does
		}
		return &Explain{Plan: inner}, nil
	}
	return nil, notSupported("planner: statement %T is not supported", stmt)
}

var errNoDatabase = errors.New("no database selected: write db.table or run USE db first")

// path resolves a table name against the session's database.
func (b *builder) path(t parser.TableName) (fluss.TablePath, error) {
	if err := virtualWriteError(t); err != nil {
		return fluss.TablePath{}, err
	}
	db := t.Database
	if db == "" {
		db = b.sess.Database
	}
	if db == "" {
		return fluss.TablePath{}, errNoDatabase
	}
	return fluss.TablePath{Database: db, Table: t.Name}, nil
}

// table resolves a table name and fetches its info.
func (b *builder) table(t parser.TableName) (*fluss.TableInfo, error) {
	path, err := b.path(t)
	if err != nil {
		return nil, err
	}
	info, err := b.cat.Table(b.ctx, path)
	if err != nil {
		if errors.Is(err, fluss.ErrTableNotExist) {
			return nil, missingTable(b.ctx, b.cat, path, err)
		}
		return nil, fmt.Errorf("table %s: %w", path, err)
	}
	return info, nil
}

// partitions fetches the partitions of a partitioned table.
func (b *builder) partitions(info *fluss.TableInfo) ([]fluss.PartitionInfo, error) {
	parts, err := b.cat.Partitions(b.ctx, info.Path)
	if err != nil {
		return nil, fmt.Errorf("partitions of %s: %w", info.Path, err)
	}
	return parts, nil
}

// TableNotExistError reports a table that does not exist. It matches
// fluss.ErrTableNotExist with errors.Is.
type TableNotExistError struct {
	Path fluss.TablePath
	// Suggestions are the closest existing table names (or database names,
	// with NoDatabase), when the catalog can list them.
	Suggestions []string
	// NoDatabase reports that the table's database does not exist either.
	NoDatabase bool
	cause      error
}

// Unwrap returns the catalog's error.
func (e *TableNotExistError) Unwrap() error { return e.cause }

// column resolves a column name of the table: exactly as written, else a
// unique case-insensitive match. The error lists the table's columns.
func column(info *fluss.TableInfo, name string) (int, error) {
	s := info.Schema()
	if i := s.Index(name); i >= 0 {
		return i, nil
	}
	found := -1
	for i, c := range s.Columns {
		if strings.EqualFold(c.Name, name) {
			if found >= 0 {
				found = -2
				break
			}
			found = i
		}
	}
	if found >= 0 {
		return found, nil
	}
	return -1, fmt.Errorf("unknown column %q in table %s; columns: %s", name, info.Path, strings.Join(s.ColumnNames(), ", "))
}

// keyRole describes the key columns of a table for messages, e.g.
// "primary key (user_id, region)".
func keyList(names []string) string { return "(" + strings.Join(names, ", ") + ")" }

// tableKind describes a table in plan output, e.g. "primary-key table,
// partitioned by (region), 3 buckets".
func tableKind(info *fluss.TableInfo) string {
	var parts []string
	if info.HasPrimaryKey() {
		parts = append(parts, "primary-key table "+keyList(info.Schema().PrimaryKey))
	} else {
		parts = append(parts, "log table")
	}
	if info.IsPartitioned() {
		parts = append(parts, "partitioned by "+keyList(info.PartitionKeys()))
	}
	if n := info.NumBuckets(); n == 1 {
		parts = append(parts, "1 bucket")
	} else {
		parts = append(parts, fmt.Sprintf("%d buckets", n))
	}
	return strings.Join(parts, ", ")
}
