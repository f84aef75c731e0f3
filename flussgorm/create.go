package flussgorm

import (
	"fmt"
	"reflect"

	"gorm.io/gorm"
	"gorm.io/gorm/callbacks"
	"gorm.io/gorm/clause"

	"github.com/flussql/flussql"
)

// createCallback runs GORM's Create: one INSERT of the rows, acknowledged (an upsert on a
// primary-key table). It replaces GORM's own, which asks the result for LastInsertId when the
// model's key is an integer GORM takes for auto-increment (any integer primary key not tagged
// autoIncrement:false) and fails when there is none: Fluss generates no keys. A row whose such key
// is zero is refused before anything is sent, since the database would not fill it in.
func createCallback(db *gorm.DB) {
	if db.Error != nil {
		return
	}
	stmt := db.Statement
	if stmt.Schema != nil && !stmt.Unscoped {
		for _, c := range stmt.Schema.CreateClauses {
			stmt.AddClause(c)
		}
	}
	if stmt.SQL.Len() == 0 {
		if err := refuseZeroGeneratedKey(stmt); err != nil {
			db.AddError(err)
			return
		}
		stmt.SQL.Grow(180)
		stmt.AddClauseIfNotExists(clause.Insert{})
		stmt.AddClause(callbacks.ConvertToCreateValues(stmt))
		stmt.Build(stmt.BuildClauses...)
	}
	if db.DryRun || db.Error != nil {
		return
	}
	res, err := stmt.ConnPool.ExecContext(stmt.Context, stmt.SQL.String(), stmt.Vars...)
	if err != nil {
		db.AddError(err)
		return
	}
	db.RowsAffected, _ = res.RowsAffected()
	if stmt.Result != nil {
		stmt.Result.Result = res
		stmt.Result.RowsAffected = db.RowsAffected
	}
}

// refuseZeroGeneratedKey fails when a row to create has a zero key that GORM would leave to the
// database to generate.
func refuseZeroGeneratedKey(stmt *gorm.Statement) error {
	if stmt.Schema == nil {
		return nil
	}
	f := stmt.Schema.PrioritizedPrimaryField
	if f == nil || !f.AutoIncrement || !f.Readable {
		return nil
	}
	zero := func(v reflect.Value) bool {
		_, isZero := f.ValueOf(stmt.Context, v)
		return isZero
	}
	rv := reflect.Indirect(stmt.ReflectValue)
	switch rv.Kind() {
	case reflect.Struct:
		if !zero(rv) {
			return nil
		}
	case reflect.Slice, reflect.Array:
		i := 0
		for ; i < rv.Len(); i++ {
			if zero(reflect.Indirect(rv.Index(i))) {
				break
			}
		}
		if i == rv.Len() {
			return nil
		}
	default: // a map of values: GORM checks what it needs
		return nil
	}
	return fmt.Errorf("flussgorm: %s.%s is zero: Fluss has no auto-increment and flussql no LastInsertId, so set the key before Create (and tag it `gorm:\"primaryKey;autoIncrement:false\"`): %w",
		stmt.Schema.Name, f.Name, flussql.ErrNotSupported)
}
