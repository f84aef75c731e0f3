package flussgorm_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/flussql/flussql/flussgorm"
	"github.com/flussql/flussql/planner"
)

// gormUser is the model of TestGORMPrimaryKeyTable. Its key is set by the application:
// Fluss has no auto-increment, and flussql no LastInsertId.
type gormUser struct {
	ID   int64 `gorm:"primaryKey;autoIncrement:false"`
	Name string
	Age  int32
}

// TableName is the Fluss table the model maps to.
func (gormUser) TableName() string { return "users" }

// testLogWriter sends GORM's log to the test's.
type testLogWriter struct{ t *testing.T }

// Printf logs one line of GORM's logger.
func (w testLogWriter) Printf(format string, args ...any) { w.t.Logf(format, args...) }

// TestGORMPrimaryKeyTable opens GORM on flussql and runs what an application does with it
// against a primary-key table: Create, First, Find, Where, Order, Limit, Count, Update,
// Delete — with the SQL GORM generates, checked by the values, counts and RowsAffected a user
// would check.
func TestGORMPrimaryKeyTable(t *testing.T) {
	sqlDB, _ := openTestDB(t)
	_, err := sqlDB.Exec(`CREATE TABLE users (id BIGINT NOT NULL, name STRING, age INT,
		PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)

	db, err := gorm.Open(flussgorm.New(flussgorm.Config{DB: sqlDB}), &gorm.Config{
		SkipDefaultTransaction: true,
		// Every statement GORM sends is in the test's log (go test -v).
		Logger: logger.New(testLogWriter{t}, logger.Config{LogLevel: logger.Info, IgnoreRecordNotFoundError: true}),
	})
	require.NoError(t, err)

	var version string
	require.NoError(t, db.Raw("SELECT VERSION()").Scan(&version).Error)
	assert.NotEmpty(t, version)

	// Create: one row, then a slice in one INSERT.
	ada := gormUser{ID: 1, Name: "ada", Age: 36}
	res := db.Create(&ada)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	more := []gormUser{{ID: 2, Name: "bob", Age: 25}, {ID: 3, Name: "cy", Age: 41}, {ID: 4, Name: "bob", Age: 52}}
	res = db.Create(&more)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 3, res.RowsAffected)

	// First by primary key: a point lookup.
	var got gormUser
	require.NoError(t, db.First(&got, 3).Error)
	assert.Equal(t, gormUser{ID: 3, Name: "cy", Age: 41}, got)
	got = gormUser{}
	require.NoError(t, db.First(&got, "id = ?", 1).Error)
	assert.Equal(t, ada, got)
	// A missing key is gorm.ErrRecordNotFound, as on any database.
	got = gormUser{}
	assert.ErrorIs(t, db.First(&got, 99).Error, gorm.ErrRecordNotFound)

	// Find by keys (batched lookups), and with Where, Order and Limit over them.
	var us []gormUser
	require.NoError(t, db.Order("id").Find(&us, []int64{1, 2, 4}).Error)
	assert.Equal(t, []gormUser{ada, more[0], more[2]}, us)
	us = nil
	require.NoError(t, db.Where("id IN ?", []int64{1, 2, 3, 4}).Where("name = ?", "bob").Order("age desc").Find(&us).Error)
	assert.Equal(t, []gormUser{more[2], more[0]}, us)
	us = nil
	require.NoError(t, db.Where("id IN ?", []int64{1, 2, 3, 4}).Order("id desc").Limit(2).Find(&us).Error)
	assert.Equal(t, []gormUser{more[2], more[1]}, us)

	// Find without a key: a limit scan (n rows per bucket; this table has one), filtered in the client.
	us = nil
	require.NoError(t, db.Limit(100).Find(&us).Error)
	assert.ElementsMatch(t, []gormUser{ada, more[0], more[1], more[2]}, us)
	us = nil
	err = db.Where("name = ?", "bob").Limit(100).Find(&us).Error
	if testServerVersion(t).AtLeast(1, 0) {
		require.NoError(t, err)
		assert.ElementsMatch(t, []gormUser{more[0], more[2]}, us)
	} else { // a limit scan filtered afterwards could miss rows, so it is refused
		assert.ErrorIs(t, err, planner.ErrNeedsFullScan)
		assert.NotContains(t, err.Error(), "add LIMIT")
	}
	// A whole primary-key table needs a full scan: a KV scan on Fluss 1.0 (SCAN_KV); on
	// older servers the error says what to do instead.
	us = nil
	err = db.Find(&us).Error
	if testServerVersion(t).AtLeast(1, 0) {
		require.NoError(t, err)
		assert.ElementsMatch(t, []gormUser{ada, more[0], more[1], more[2]}, us)
	} else {
		assert.ErrorIs(t, err, planner.ErrNeedsFullScan)
		assert.Contains(t, err.Error(), "or add LIMIT")
	}

	// Count over keys.
	var n int64
	require.NoError(t, db.Model(&gormUser{}).Where("id IN ?", []int64{1, 2, 3, 99}).Count(&n).Error)
	assert.EqualValues(t, 3, n)
	require.NoError(t, db.Model(&gormUser{}).Where("id IN ?", []int64{1, 2, 3, 4}).Where("name = ?", "bob").Count(&n).Error)
	assert.EqualValues(t, 2, n)

	// Update one column of a model: UPDATE … SET `name`=? WHERE `id` = ?.
	res = db.Model(&more[1]).Update("name", "cyd")
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	got = gormUser{}
	require.NoError(t, db.First(&got, 3).Error)
	assert.Equal(t, gormUser{ID: 3, Name: "cyd", Age: 41}, got)
	// Updates with a map, and an update of a key that does not exist changes nothing.
	res = db.Model(&gormUser{ID: 2}).Updates(map[string]any{"name": "rob", "age": 26})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	res = db.Model(&gormUser{ID: 99}).Update("name", "nobody")
	require.NoError(t, res.Error)
	assert.EqualValues(t, 0, res.RowsAffected)
	got = gormUser{}
	require.NoError(t, db.First(&got, 2).Error)
	assert.Equal(t, gormUser{ID: 2, Name: "rob", Age: 26}, got)

	// Save of an existing key updates every column; of a new key, GORM's UPDATE affects no row
	// and it falls back to an INSERT (its ON CONFLICT clause is dropped: on a primary-key table
	// an INSERT is an upsert already).
	res = db.Save(&gormUser{ID: 3, Name: "cyd", Age: 42})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	res = db.Save(&gormUser{ID: 5, Name: "eve", Age: 30})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	us = nil
	require.NoError(t, db.Order("id").Find(&us, []int64{3, 5}).Error)
	assert.Equal(t, []gormUser{{ID: 3, Name: "cyd", Age: 42}, {ID: 5, Name: "eve", Age: 30}}, us)
	require.NoError(t, db.Delete(&gormUser{}, 5).Error)

	// Delete by model, then by key; a second delete of the same key affects no row.
	res = db.Delete(&ada)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	res = db.Delete(&gormUser{}, 4)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	res = db.Delete(&gormUser{}, 4)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 0, res.RowsAffected)
	got = gormUser{}
	assert.ErrorIs(t, db.First(&got, 1).Error, gorm.ErrRecordNotFound)
	require.NoError(t, db.Model(&gormUser{}).Where("id IN ?", []int64{1, 2, 3, 4}).Count(&n).Error)
	assert.EqualValues(t, 2, n)
	us = nil
	require.NoError(t, db.Order("id").Limit(10).Find(&us, []int64{1, 2, 3, 4}).Error)
	assert.Equal(t, []gormUser{{ID: 2, Name: "rob", Age: 26}, {ID: 3, Name: "cyd", Age: 42}}, us)

	// Statements over several keys: WHERE `id` IN (…). Rows affected count the keys that
	// existed, each once.
	res = db.Model(&gormUser{}).Where("id IN ?", []int64{2, 3, 3, 99}).Update("age", 50)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 2, res.RowsAffected)
	us = nil
	require.NoError(t, db.Order("id").Find(&us, []int64{2, 3, 99}).Error)
	assert.Equal(t, []gormUser{{ID: 2, Name: "rob", Age: 50}, {ID: 3, Name: "cyd", Age: 50}}, us)
	res = db.Delete(&[]gormUser{{ID: 2}, {ID: 3}, {ID: 99}})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 2, res.RowsAffected)
	require.NoError(t, db.Model(&gormUser{}).Where("id IN ?", []int64{1, 2, 3, 4, 5}).Count(&n).Error)
	assert.EqualValues(t, 0, n)
}

// TestGORMNotNullColumns runs GORM on a primary-key table with a NOT NULL column outside
// the key: Fluss's partial updates need those nullable, so Update of one column is refused
// with the fix in the error, while Save (which sets every column) and Create work.
func TestGORMNotNullColumns(t *testing.T) {
	sqlDB, _ := openTestDB(t)
	_, err := sqlDB.Exec(`CREATE TABLE users (id BIGINT NOT NULL, name STRING NOT NULL, age INT,
		PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	db, err := gorm.Open(flussgorm.New(flussgorm.Config{DB: sqlDB}), &gorm.Config{
		SkipDefaultTransaction: true,
		Logger:                 logger.New(testLogWriter{t}, logger.Config{LogLevel: logger.Info, IgnoreRecordNotFoundError: true}),
	})
	require.NoError(t, err)

	require.NoError(t, db.Create(&gormUser{ID: 1, Name: "ada", Age: 36}).Error)
	err = db.Model(&gormUser{ID: 1}).Update("age", 37).Error
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"name" is NOT NULL; SET every column, or write the whole row with UPSERT`)

	res := db.Save(&gormUser{ID: 1, Name: "ada", Age: 37})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	var got gormUser
	require.NoError(t, db.First(&got, 1).Error)
	assert.Equal(t, gormUser{ID: 1, Name: "ada", Age: 37}, got)
	// An UPDATE of every column still touches only an existing key.
	res = db.Model(&gormUser{ID: 2}).Select("name", "age").Updates(gormUser{Name: "bob", Age: 1})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 0, res.RowsAffected)
	assert.ErrorIs(t, db.First(&gormUser{}, 2).Error, gorm.ErrRecordNotFound)
}

// TestGORMTransactions runs GORM with its default transactions, which flussql makes
// client-side write batches: nothing is sent before Commit, a rolled-back batch is never sent,
// and rows affected inside a batch count the rows buffered, not the keys that existed.
func TestGORMTransactions(t *testing.T) {
	sqlDB, _ := openTestDB(t)
	_, err := sqlDB.Exec(`CREATE TABLE users (id BIGINT NOT NULL, name STRING, age INT,
		PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket.num' = '1')`)
	require.NoError(t, err)
	db, err := gorm.Open(flussgorm.New(flussgorm.Config{DB: sqlDB}), &gorm.Config{
		Logger: logger.New(testLogWriter{t}, logger.Config{LogLevel: logger.Info, IgnoreRecordNotFoundError: true}),
	})
	require.NoError(t, err)

	// Create, Update and Delete each run in a transaction of their own.
	res := db.Create(&gormUser{ID: 1, Name: "ada", Age: 36})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	res = db.Model(&gormUser{ID: 1}).Update("age", 37)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	var got gormUser
	require.NoError(t, db.First(&got, 1).Error)
	assert.Equal(t, gormUser{ID: 1, Name: "ada", Age: 37}, got)
	// Inside a batch the key is not looked up: the delete of a missing key counts its buffered row.
	res = db.Delete(&gormUser{}, 99)
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)

	// db.Transaction: committed when the function returns nil, discarded when it fails.
	require.NoError(t, db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&gormUser{ID: 2, Name: "bob", Age: 25}).Error; err != nil {
			return err
		}
		return tx.Create(&gormUser{ID: 3, Name: "cy", Age: 41}).Error
	}))
	errRollback := errors.New("changed my mind")
	assert.ErrorIs(t, db.Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&gormUser{ID: 4, Name: "dan", Age: 19}).Error; err != nil {
			return err
		}
		if err := tx.Delete(&gormUser{}, 1).Error; err != nil {
			return err
		}
		return errRollback
	}), errRollback)

	var us []gormUser
	require.NoError(t, db.Order("id").Find(&us, []int64{1, 2, 3, 4}).Error)
	assert.Equal(t, []gormUser{{ID: 1, Name: "ada", Age: 37}, {ID: 2, Name: "bob", Age: 25}, {ID: 3, Name: "cy", Age: 41}}, us)
}
