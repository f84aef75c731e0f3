package flussgorm_test

import (
	"database/sql"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"github.com/flussql/flussql/flussgorm"
	"github.com/flussql/flussql/parser"
)

// TestDialectorSQL checks, without a cluster, the SQL GORM writes with the dialector
// (DryRun: nothing is sent) and that flussql's parser accepts each statement.
func TestDialectorSQL(t *testing.T) {
	sqlDB, err := sql.Open("fluss", "fluss://127.0.0.1:1/fluss") // never dialed: DryRun
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	db, err := gorm.Open(flussgorm.New(flussgorm.Config{DB: sqlDB}), &gorm.Config{DryRun: true, DisableAutomaticPing: true, SkipDefaultTransaction: true})
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

	d := flussgorm.New(flussgorm.Config{DB: sqlDB})
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
