package flussgorm

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	"github.com/flussql/flussql/fluss/types"
	"github.com/flussql/flussql/parser"
)

// Migrator is GORM's migrator for Fluss: it creates tables from models, adds columns, and reads
// tables and columns with SHOW TABLES and DESCRIBE (Fluss has no information_schema). What Fluss
// cannot change fails with an error matching flussql.ErrNotSupported that names the limit.
type Migrator struct {
	// DB is the GORM session the migrator runs on.
	DB *gorm.DB
	// Dialector supplies the types and the table defaults (Config.Buckets, Config.Properties).
	Dialector *Dialector
}

var _ gorm.Migrator = Migrator{}

// withModel parses value (a model, or a table name as a string) into a statement and runs fc.
func (m Migrator) withModel(value any, fc func(*gorm.Statement) error) error {
	stmt := &gorm.Statement{DB: m.DB, Table: m.DB.Statement.Table, TableExpr: m.DB.Statement.TableExpr}
	if table, ok := value.(string); ok {
		stmt.Table, stmt.TableExpr = table, nil
	} else if err := stmt.ParseWithSpecialTableName(value, stmt.Table); err != nil {
		return err
	}
	return fc(stmt)
}

// withSchema is withModel for what needs a model, not a table name.
func (m Migrator) withSchema(value any, fc func(*gorm.Statement) error) error {
	return m.withModel(value, func(stmt *gorm.Statement) error {
		if stmt.Schema == nil {
			return fmt.Errorf("flussgorm: %v is not a model: pass a struct (pointer), not a table name", value)
		}
		return fc(stmt)
	})
}

// tableName is the statement's table as flussql reads it: db.table or table. GORM keeps the
// database of db.Table("db.t") and of a TableName "db.t" only in the quoted TableExpr.
func tableName(stmt *gorm.Statement) parser.TableName {
	if stmt.TableExpr != nil {
		if st, err := parser.Parse("DESCRIBE " + stmt.TableExpr.SQL); err == nil {
			if d, ok := st.(*parser.Describe); ok {
				return d.Table
			}
		}
	}
	if db, t, ok := strings.Cut(stmt.Table, "."); ok {
		return parser.TableName{Database: db, Name: t}
	}
	return parser.TableName{Name: stmt.Table}
}

// query is a session that runs statements even when the migrator's is a DryRun (the reads
// HasTable and ColumnTypes answer from; GORM's migrator does the same).
func (m Migrator) query() *gorm.DB {
	tx := m.DB.Session(&gorm.Session{NewDB: true})
	tx.DryRun = false
	return tx
}

// exec runs one DDL statement on the migrator's session (a DryRun only logs it).
func (m Migrator) exec(sql string) error {
	return m.DB.Session(&gorm.Session{NewDB: true}).Exec(sql).Error
}

// CurrentDatabase is the database of the DSN (or of the last USE on the connection).
func (m Migrator) CurrentDatabase() (name string) {
	m.query().Raw("SELECT CURRENT_DATABASE()").Row().Scan(&name)
	return name
}

// AutoMigrate creates the table of each model that has none, and adds to an existing one the
// model's new columns; it checks every other column (type, nullability, primary key) against
// DESCRIBE and fails, naming the column and the limit, where the model asks for a change
// Fluss cannot make.
func (m Migrator) AutoMigrate(values ...any) error {
	for _, value := range values {
		if !m.HasTable(value) {
			if err := m.CreateTable(value); err != nil {
				return err
			}
			continue
		}
		if err := m.withSchema(value, func(stmt *gorm.Statement) error {
			if err := refuseSchemaObjects(m.DB, stmt.Schema); err != nil {
				return err
			}
			cols, err := m.ColumnTypes(value)
			if err != nil {
				return err
			}
			have := make(map[string]gorm.ColumnType, len(cols))
			var key []string
			for _, c := range cols {
				have[c.Name()] = c
				if pk, _ := c.PrimaryKey(); pk {
					key = append(key, c.Name())
				}
			}
			var want []string
			for _, f := range stmt.Schema.PrimaryFields {
				want = append(want, f.DBName)
			}
			if !slices.Equal(key, want) {
				return notSupported("AutoMigrate "+stmt.Table, fmt.Sprintf("the table's primary key is %v and the model's %v; Fluss cannot change a table's primary key (create a new table and copy the rows with INSERT INTO … SELECT)", key, want))
			}
			for _, name := range stmt.Schema.DBNames {
				f := stmt.Schema.FieldsByDBName[name]
				if f.IgnoreMigration {
					continue
				}
				c, ok := have[name]
				if !ok {
					if err := m.AddColumn(value, name); err != nil {
						return err
					}
					continue
				}
				if err := m.MigrateColumn(value, f, c); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// createTableStatement is the CREATE TABLE of a model.
func (m Migrator) createTableStatement(stmt *gorm.Statement, model any) (*parser.CreateTable, error) {
	if err := refuseSchemaObjects(m.DB, stmt.Schema); err != nil {
		return nil, err
	}
	ct := &parser.CreateTable{Table: tableName(stmt)}
	for _, name := range stmt.Schema.DBNames {
		f := stmt.Schema.FieldsByDBName[name]
		if f.IgnoreMigration {
			continue
		}
		col, err := m.column(f)
		if err != nil {
			return nil, err
		}
		ct.Columns = append(ct.Columns, col)
	}
	for _, f := range stmt.Schema.PrimaryFields {
		ct.PrimaryKey = append(ct.PrimaryKey, f.DBName)
	}
	o, err := m.Dialector.tableOptions(stmt.Schema, model)
	if err != nil {
		return nil, err
	}
	ct.PartitionKeys, ct.Comment = o.PartitionedBy, o.Comment
	if len(o.Properties) > 0 {
		ct.Properties = o.Properties
	}
	return ct, nil
}

// column is the Fluss column of a field.
func (m Migrator) column(f *schema.Field) (types.Column, error) {
	if f.HasDefaultValue && f.DefaultValue != "" && !strings.EqualFold(f.DefaultValue, "null") && !f.AutoIncrement {
		return types.Column{}, notSupported("field "+f.Name, fmt.Sprintf("default:%s — Fluss columns have no DEFAULT; drop the tag and set the value in Go (a BeforeCreate hook)", f.DefaultValue))
	}
	t, err := m.Dialector.fieldType(f)
	if err != nil {
		return types.Column{}, err
	}
	return types.Column{Name: f.DBName, Type: t, Comment: f.Comment}, nil
}

// CreateTable creates the table of each model: a primary-key table (PRIMARY KEY (…) NOT
// ENFORCED) when the model has a primary key, a log table otherwise, with the options of
// TableOptions.
func (m Migrator) CreateTable(values ...any) error {
	for _, value := range values {
		if err := m.withSchema(value, func(stmt *gorm.Statement) error {
			ct, err := m.createTableStatement(stmt, value)
			if err != nil {
				return err
			}
			return m.exec(ct.String())
		}); err != nil {
			return err
		}
	}
	return nil
}

// DropTable drops the table of each model or name, if it exists, last first.
func (m Migrator) DropTable(values ...any) error {
	for i := len(values) - 1; i >= 0; i-- {
		if err := m.withModel(values[i], func(stmt *gorm.Statement) error {
			return m.exec((&parser.DropTable{Table: tableName(stmt), IfExists: true}).String())
		}); err != nil {
			return err
		}
	}
	return nil
}

// tables lists the tables of a database ("" for the current one).
func (m Migrator) tables(database string) ([]string, error) {
	q := "SHOW TABLES"
	if database != "" {
		q += " FROM " + parser.QuoteIdent(database)
	}
	var names []string
	err := m.query().Raw(q).Scan(&names).Error
	return names, err
}

// HasTable reports whether the table of a model (or a table name) exists. An error (the
// database does not exist, the server is down) reads as false; GetTables returns it.
func (m Migrator) HasTable(value any) bool {
	found := false
	_ = m.withModel(value, func(stmt *gorm.Statement) error {
		tn := tableName(stmt)
		names, err := m.tables(tn.Database)
		found = err == nil && slices.Contains(names, tn.Name)
		return err
	})
	return found
}

// GetTables lists the tables of the current database.
func (m Migrator) GetTables() ([]string, error) { return m.tables("") }

// TableType describes the table of a model: its name, its kind ("PRIMARY KEY TABLE" or
// "LOG TABLE") and its database.
func (m Migrator) TableType(value any) (gorm.TableType, error) {
	var tt migrator.TableType
	err := m.withModel(value, func(stmt *gorm.Statement) error {
		cols, err := m.ColumnTypes(value)
		if err != nil {
			return err
		}
		tn := tableName(stmt)
		tt.NameValue, tt.TypeValue, tt.SchemaValue = tn.Name, "LOG TABLE", tn.Database
		if tt.SchemaValue == "" {
			tt.SchemaValue = m.CurrentDatabase()
		}
		for _, c := range cols {
			if pk, _ := c.PrimaryKey(); pk {
				tt.TypeValue = "PRIMARY KEY TABLE"
			}
		}
		return nil
	})
	return tt, err
}

// FullDataTypeOf is a field's type as CREATE TABLE writes it: the type, NOT NULL, COMMENT.
func (m Migrator) FullDataTypeOf(f *schema.Field) clause.Expr {
	col, err := m.column(f)
	if err != nil {
		_ = m.DB.AddError(err)
		return clause.Expr{SQL: m.Dialector.DataTypeOf(f)}
	}
	sql := parser.FormatType(col.Type)
	if col.Comment != "" {
		sql += " COMMENT " + parser.QuoteString(col.Comment)
	}
	return clause.Expr{SQL: sql}
}

// GetTypeAliases is empty: the migrator compares types after reading both as flussql does
// (INTEGER is INT, VARCHAR(n) is STRING).
func (m Migrator) GetTypeAliases(string) []string { return nil }

// refuseSchemaObjects fails for what a model asks of the table that Fluss does not have:
// indexes, unique and check constraints, foreign keys.
func refuseSchemaObjects(db *gorm.DB, s *schema.Schema) error {
	if idxs := s.ParseIndexes(); len(idxs) > 0 {
		idx, hint := idxs[0], "remove the index tag"
		for _, f := range idx.Fields {
			if f.Field.FieldType == reflect.TypeFor[gorm.DeletedAt]() {
				hint = "gorm.Model's DeletedAt has one: declare ID, CreatedAt and UpdatedAt in the model instead of embedding gorm.Model"
			}
		}
		return notSupported(s.Name, fmt.Sprintf("index %s: Fluss has no secondary indexes (a primary-key table is looked up by its key, and by a bucket-key prefix); %s", idx.Name, hint))
	}
	for _, f := range s.Fields {
		if f.Unique && !f.PrimaryKey {
			return notSupported(s.Name, fmt.Sprintf("field %s is unique: Fluss has no unique constraints beyond the primary key; remove the unique tag", f.Name))
		}
	}
	if chk := s.ParseCheckConstraints(); len(chk) > 0 {
		for _, c := range chk {
			return notSupported(s.Name, fmt.Sprintf("check constraint %s: Fluss has no check constraints; remove the check tag", c.Name))
		}
	}
	if !db.DisableForeignKeyConstraintWhenMigrating && !db.IgnoreRelationshipsWhenMigrating {
		for _, rel := range s.Relationships.Relations {
			if c := rel.ParseConstraint(); c != nil && c.Schema == s && !rel.Field.IgnoreMigration {
				return notSupported(s.Name, fmt.Sprintf("foreign key %s: Fluss has no foreign keys; open GORM with DisableForeignKeyConstraintWhenMigrating: true", c.Name))
			}
		}
	}
	return nil
}
