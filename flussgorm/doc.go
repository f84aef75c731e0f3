// Package flussgorm is a GORM dialector for flussql, the database/sql driver for Apache Fluss.
//
//	db, err := gorm.Open(flussgorm.Open("fluss://127.0.0.1:9123/mydb"), &gorm.Config{SkipDefaultTransaction: true})
//
// It tells GORM how flussql writes SQL (`?` placeholders, backtick quoting, Flink SQL types, no
// RETURNING, no ON CONFLICT: an INSERT into a primary-key table is an upsert already) and ships a
// Migrator for what Fluss can change:
//
//   - AutoMigrate and CreateTable create a table from a model: a model with a primary key becomes a
//     primary-key table (PRIMARY KEY (…) NOT ENFORCED), one without a log table; the bucket count,
//     bucket key, partition keys, comment and other table options come from the model's
//     FlussTableOptions method (see TableOptioner), the `fluss:"partition"` and `fluss:"bucket"` field
//     tags, or Config.Buckets and Config.Properties.
//   - AutoMigrate of an existing table adds the model's new columns (ALTER TABLE … ADD, nullable: Fluss
//     adds only nullable columns, last) and checks every other column against DESCRIBE.
//   - HasTable, GetTables, HasColumn, ColumnTypes and TableType read SHOW TABLES and DESCRIBE.
//   - What Fluss cannot do fails with an error that names the limit and matches
//     flussql.ErrNotSupported: drop, rename or retype a column, change a column's nullability or the
//     primary key, rename a table, indexes, unique and check constraints, foreign keys, views.
//
// Fluss has no auto-increment and flussql no LastInsertId: give the primary key
// `gorm:"primaryKey;autoIncrement:false"` and set it yourself (Create refuses a zero key of a
// model whose key GORM would leave to the database).
//
// The package is a module of its own (github.com/flussql/flussql/flussgorm), so that the driver's
// module does not depend on GORM.
package flussgorm
