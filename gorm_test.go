package flussql_test

import (
	"database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gorm.io/gorm"
	"gorm.io/gorm/callbacks"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	_ "github.com/flussql/flussql"
	"github.com/flussql/flussql/parser"
)

// gormDialector is a GORM dialector over a *sql.DB of the "fluss" driver. It lives in a test
// file so that the module does not depend on GORM; an application copies these few lines (or
// writes its own) and opens GORM with gorm.Open(gormDialector{DB: sqlDB}, &gorm.Config{…}).
//
// What it says about flussql's SQL: placeholders are `?`, identifiers are quoted with
// backticks, a Go type maps to the Flink SQL type DataTypeOf names, and a column has no
// DEFAULT (Fluss has none), so a missing value is NULL. INSERT … RETURNING and LastInsertId
// do not exist: give the model's primary key `autoIncrement:false` and set it yourself.
type gormDialector struct {
	// DB is the connection pool GORM runs on, from sql.Open("fluss", dsn).
	DB *sql.DB
}

// Name is the dialect's name, as GORM's callbacks and plugins see it.
func (gormDialector) Name() string { return "fluss" }

// Initialize registers GORM's default create/query/update/delete callbacks with the clauses
// flussql's statements take (no RETURNING, no ON CONFLICT: an INSERT into a primary-key
// table is an upsert already) and hands GORM the pool.
func (d gormDialector) Initialize(db *gorm.DB) error {
	if d.DB == nil {
		return fmt.Errorf("gormDialector: DB is nil; pass the *sql.DB of sql.Open(\"fluss\", dsn)")
	}
	callbacks.RegisterDefaultCallbacks(db, &callbacks.Config{
		CreateClauses: []string{"INSERT", "VALUES"},
		QueryClauses:  []string{"SELECT", "FROM", "WHERE", "GROUP BY", "ORDER BY", "LIMIT"},
		UpdateClauses: []string{"UPDATE", "SET", "WHERE"},
		DeleteClauses: []string{"DELETE", "FROM", "WHERE"},
	})
	db.ConnPool = d.DB
	return nil
}

// Migrator is GORM's generic migrator. AutoMigrate is not supported: it asks
// information_schema, which Fluss does not have; create tables with flussql's DDL.
func (d gormDialector) Migrator(db *gorm.DB) gorm.Migrator {
	return migrator.Migrator{Config: migrator.Config{DB: db, Dialector: d}}
}

// DataTypeOf names the Flink SQL type of a model field.
func (gormDialector) DataTypeOf(f *schema.Field) string {
	switch f.DataType {
	case schema.Bool:
		return "BOOLEAN"
	case schema.Int, schema.Uint:
		switch {
		case f.Size <= 8:
			return "TINYINT"
		case f.Size <= 16:
			return "SMALLINT"
		case f.Size <= 32:
			return "INT"
		default:
			return "BIGINT"
		}
	case schema.Float:
		if f.Size <= 32 {
			return "FLOAT"
		}
		return "DOUBLE"
	case schema.String:
		return "STRING"
	case schema.Time:
		return "TIMESTAMP_LTZ(3)"
	case schema.Bytes:
		return "BYTES"
	}
	return string(f.DataType)
}

// DefaultValueOf is NULL: Fluss columns have no DEFAULT.
func (gormDialector) DefaultValueOf(*schema.Field) clause.Expression {
	return clause.Expr{SQL: "NULL"}
}

// BindVarTo writes a positional placeholder.
func (gormDialector) BindVarTo(w clause.Writer, stmt *gorm.Statement, v any) {
	w.WriteByte('?')
}

// QuoteTo quotes an identifier, or each part of a dotted one (db.table, table.column), with
// backticks, doubling a backtick inside.
func (gormDialector) QuoteTo(w clause.Writer, s string) {
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
func (gormDialector) Explain(sql string, vars ...any) string {
	return logger.ExplainSQL(sql, nil, "'", vars...)
}

// TestGORMDialectorSQL checks, without a cluster, the SQL GORM writes with gormDialector
// (DryRun: nothing is sent) and that flussql's parser accepts each statement.
func TestGORMDialectorSQL(t *testing.T) {
	sqlDB, err := sql.Open("fluss", "fluss://127.0.0.1:1/fluss") // never dialed: DryRun
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	db, err := gorm.Open(gormDialector{DB: sqlDB}, &gorm.Config{DryRun: true, DisableAutomaticPing: true, SkipDefaultTransaction: true})
	require.NoError(t, err)

	type model struct {
		ID    int64 `gorm:"primaryKey;autoIncrement:false"`
		Name  string
		Score float64
	}
	var m model
	var ms []model
	var n int64
	for _, c := range []struct {
		tx   *gorm.DB
		want string
	}{
		{db.Create(&model{ID: 1, Name: "a"}), "INSERT INTO `models` (`id`,`name`,`score`) VALUES (?,?,?)"},
		{db.First(&m, 3), "SELECT * FROM `models` WHERE `models`.`id` = ? ORDER BY `models`.`id` LIMIT ?"},
		{db.Where("name = ?", "a").Order("id desc").Limit(2).Find(&ms), "SELECT * FROM `models` WHERE name = ? ORDER BY id desc LIMIT ?"},
		{db.Model(&model{}).Where("id IN ?", []int64{1, 2}).Count(&n), "SELECT count(*) FROM `models` WHERE id IN (?,?)"},
		{db.Model(&model{ID: 3}).Update("name", "b"), "UPDATE `models` SET `name`=? WHERE `id` = ?"},
		{db.Delete(&model{ID: 3}), "DELETE FROM `models` WHERE `models`.`id` = ?"},
		{db.Delete(&[]model{{ID: 1}, {ID: 2}}), "DELETE FROM `models` WHERE `models`.`id` IN (?,?)"},
		{db.Table("db1.models").Limit(5).Find(&ms), "SELECT * FROM `db1`.`models` LIMIT ?"},
	} {
		require.NoError(t, c.tx.Error, c.want)
		got := c.tx.Statement.SQL.String()
		assert.Equal(t, c.want, got)
		_, err := parser.Parse(got)
		assert.NoError(t, err, got)
	}

	d := gormDialector{DB: sqlDB}
	var b strings.Builder
	d.QuoteTo(&b, "we`ird")
	assert.Equal(t, "`we``ird`", b.String())
	s, err := schema.Parse(&model{}, &sync.Map{}, schema.NamingStrategy{})
	require.NoError(t, err)
	assert.Equal(t, "BIGINT", d.DataTypeOf(s.LookUpField("ID")))
	assert.Equal(t, "STRING", d.DataTypeOf(s.LookUpField("Name")))
	assert.Equal(t, "DOUBLE", d.DataTypeOf(s.LookUpField("Score")))
	assert.Equal(t, "INSERT INTO t VALUES (1, 'it''s')", d.Explain("INSERT INTO t VALUES (?, ?)", 1, "it's"))
}
