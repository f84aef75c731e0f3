package flussgorm

import (
	"database/sql"
	"fmt"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	"github.com/flussql/flussql/internal/executor"
	"github.com/flussql/flussql/parser"
)

// ColumnTypes describes the columns of a model's table from DESCRIBE: name, type (ColumnType
// the whole type, DatabaseTypeName its name without parameters), nullability, primary key,
// comment, and length, precision and scan type as flussql's rows.ColumnTypes report them. No
// column has a default or auto-increment, and only the primary key is unique.
func (m Migrator) ColumnTypes(value any) ([]gorm.ColumnType, error) {
	var out []gorm.ColumnType
	err := m.withModel(value, func(stmt *gorm.Statement) error {
		rows, err := m.query().Raw((&parser.Describe{Table: tableName(stmt)}).String()).Rows()
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name, typ, key string
			var nullable bool
			var comment, agg sql.NullString
			if err := rows.Scan(&name, &typ, &nullable, &key, &comment, &agg); err != nil {
				return err
			}
			t, err := parseType(name, typ)
			if err != nil {
				return err
			}
			if !nullable {
				t = t.AsNotNull()
			}
			pk := strings.Contains(key, "primary key")
			ct := migrator.ColumnType{
				NameValue:          sql.NullString{String: name, Valid: true},
				DataTypeValue:      sql.NullString{String: t.Kind.String(), Valid: true},
				ColumnTypeValue:    sql.NullString{String: typ, Valid: true},
				PrimaryKeyValue:    sql.NullBool{Bool: pk, Valid: true},
				UniqueValue:        sql.NullBool{Bool: pk, Valid: true},
				AutoIncrementValue: sql.NullBool{Valid: true},
				NullableValue:      sql.NullBool{Bool: nullable, Valid: true},
				CommentValue:       sql.NullString{String: comment.String, Valid: true},
				ScanTypeValue:      executor.ScanType(t),
			}
			if n, ok := executor.TypeLength(t); ok {
				ct.LengthValue = sql.NullInt64{Int64: n, Valid: true}
			}
			if p, s, ok := executor.TypePrecisionScale(t); ok {
				ct.DecimalSizeValue = sql.NullInt64{Int64: p, Valid: true}
				ct.ScaleValue = sql.NullInt64{Int64: s, Valid: true}
			}
			out = append(out, ct)
		}
		return rows.Err()
	})
	return out, err
}

// HasColumn reports whether the table of a model has the column of a field (its Go name or
// its database name).
func (m Migrator) HasColumn(value any, field string) bool {
	found := false
	_ = m.withModel(value, func(stmt *gorm.Statement) error {
		name := field
		if stmt.Schema != nil {
			if f := stmt.Schema.LookUpField(field); f != nil {
				name = f.DBName
			}
		}
		cols, err := m.ColumnTypes(value)
		for _, c := range cols {
			found = found || c.Name() == name
		}
		return err
	})
	return found
}

// AddColumn adds the column of a field (Go or database name) with ALTER TABLE … ADD. Fluss adds
// a column last and nullable only: a primary-key or `not null` field fails with an error naming
// the limit, before anything changes.
func (m Migrator) AddColumn(value any, field string) error {
	return m.withSchema(value, func(stmt *gorm.Statement) error {
		f := stmt.Schema.LookUpField(field)
		if f == nil {
			return fmt.Errorf("flussgorm: %s has no field %s", stmt.Schema.Name, field)
		}
		if f.PrimaryKey || f.NotNull {
			return notSupported("AddColumn "+stmt.Table+"."+f.DBName, "Fluss adds only nullable columns outside the primary key; drop the `not null` tag, or create a new table")
		}
		if p, _, err := fieldTag(f); err != nil || p {
			return notSupported("AddColumn "+stmt.Table+"."+f.DBName, "a partition column must be there when the table is created")
		}
		col, err := m.column(f)
		if err != nil {
			return err
		}
		sql := "ALTER TABLE " + tableName(stmt).String() + " ADD " + parser.QuoteIdent(col.Name) + " " + parser.FormatType(col.Type)
		if col.Comment != "" {
			sql += " COMMENT " + parser.QuoteString(col.Comment)
		}
		return m.exec(sql)
	})
}

// MigrateColumn checks an existing column against its field: the same type (as flussql reads
// both: INTEGER is INT) and nullability. Fluss cannot retype a column or change its
// nullability, so a difference fails with an error naming the column, both types and the
// limit. Comments are not compared: Fluss cannot change them either, and they do not change
// what a column holds.
func (m Migrator) MigrateColumn(value any, f *schema.Field, c gorm.ColumnType) error {
	if f.IgnoreMigration {
		return nil
	}
	col, err := m.column(f)
	if err != nil {
		return err
	}
	have, err := parseType(c.Name(), c.DatabaseTypeName())
	if full, ok := c.ColumnType(); ok {
		have, err = parseType(c.Name(), full)
	}
	if err != nil {
		return err
	}
	if nullable, ok := c.Nullable(); ok && !nullable {
		have = have.AsNotNull()
	}
	want := col.Type
	if !want.AsNullable().Equal(have.AsNullable()) {
		return notSupported("AutoMigrate column "+c.Name(), fmt.Sprintf("the table's type is %s and the model's %s; Fluss cannot change a column's type (add a new column, or give the field `gorm:\"type:%s\"`)",
			parser.FormatType(have.AsNullable()), parser.FormatType(want.AsNullable()), parser.FormatType(have.AsNullable())))
	}
	if want.NotNull != have.NotNull {
		return notSupported("AutoMigrate column "+c.Name(), fmt.Sprintf("the table's column is %s and the model's %s; Fluss cannot change a column's nullability", nullText(have.NotNull), nullText(want.NotNull)))
	}
	return m.MigrateColumnUnique(value, f, c)
}

func nullText(notNull bool) string {
	if notNull {
		return "NOT NULL"
	}
	return "nullable"
}

// MigrateColumnUnique fails for a unique field outside the primary key: Fluss has no unique
// constraints.
func (m Migrator) MigrateColumnUnique(value any, f *schema.Field, c gorm.ColumnType) error {
	if f.Unique && !f.PrimaryKey {
		return notSupported("field "+f.Name, "Fluss has no unique constraints beyond the primary key; remove the unique tag")
	}
	return nil
}
