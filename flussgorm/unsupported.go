package flussgorm

import (
	"fmt"

	"gorm.io/gorm"

	"github.com/flussql/flussql"
)

// notSupported is the error of a change Fluss cannot make: what was asked, why not and what to
// do instead, matching flussql.ErrNotSupported.
func notSupported(what, why string) error {
	return fmt.Errorf("flussgorm: %s: %s: %w", what, why, flussql.ErrNotSupported)
}

// DropColumn fails: Fluss cannot drop a column.
func (m Migrator) DropColumn(value any, field string) error {
	return notSupported("DropColumn "+field, "Fluss cannot drop a column (create a new table and copy the rows with INSERT INTO … SELECT)")
}

// AlterColumn fails: Fluss cannot change a column's type, nullability or comment.
func (m Migrator) AlterColumn(value any, field string) error {
	return notSupported("AlterColumn "+field, "Fluss cannot change a column's type, nullability or comment (add a new column instead)")
}

// RenameColumn fails: Fluss cannot rename a column.
func (m Migrator) RenameColumn(value any, oldName, newName string) error {
	return notSupported("RenameColumn "+oldName, "Fluss cannot rename a column (add a new column instead)")
}

// RenameTable fails: Fluss cannot rename a table.
func (m Migrator) RenameTable(oldName, newName any) error {
	return notSupported(fmt.Sprintf("RenameTable %v", oldName), "Fluss cannot rename a table (create a new table and copy the rows with INSERT INTO … SELECT)")
}

// CreateView fails: Fluss has no views.
func (m Migrator) CreateView(name string, option gorm.ViewOption) error {
	return notSupported("CreateView "+name, "Fluss has no views")
}

// DropView fails: Fluss has no views.
func (m Migrator) DropView(name string) error {
	return notSupported("DropView "+name, "Fluss has no views")
}

// CreateConstraint fails: Fluss has no constraints beyond the primary key.
func (m Migrator) CreateConstraint(value any, name string) error {
	return notSupported("CreateConstraint "+name, "Fluss has no constraints beyond the primary key")
}

// DropConstraint fails: Fluss has no constraints beyond the primary key.
func (m Migrator) DropConstraint(value any, name string) error {
	return notSupported("DropConstraint "+name, "Fluss has no constraints beyond the primary key")
}

// HasConstraint is false: Fluss has no constraints beyond the primary key.
func (m Migrator) HasConstraint(value any, name string) bool { return false }

// CreateIndex fails: Fluss has no secondary indexes.
func (m Migrator) CreateIndex(value any, name string) error {
	return notSupported("CreateIndex "+name, "Fluss has no secondary indexes (a primary-key table is looked up by its key, and by a bucket-key prefix)")
}

// DropIndex fails: Fluss has no secondary indexes.
func (m Migrator) DropIndex(value any, name string) error {
	return notSupported("DropIndex "+name, "Fluss has no secondary indexes")
}

// HasIndex is false: Fluss has no secondary indexes.
func (m Migrator) HasIndex(value any, name string) bool { return false }

// RenameIndex fails: Fluss has no secondary indexes.
func (m Migrator) RenameIndex(value any, oldName, newName string) error {
	return notSupported("RenameIndex "+oldName, "Fluss has no secondary indexes")
}

// GetIndexes is empty: Fluss has no secondary indexes.
func (m Migrator) GetIndexes(value any) ([]gorm.Index, error) { return nil, nil }
