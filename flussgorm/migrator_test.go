package flussgorm_test

import (
	"database/sql"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/flussgorm"
	"github.com/flussql/flussql/parser"
)

// sqlLog collects the statements GORM logs (in a DryRun: the statements it would send).
type sqlLog struct {
	mu    sync.Mutex
	stmts []string
}

// Printf records the statement of one log line (its last argument).
func (l *sqlLog) Printf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if strings.Contains(format, "[rows:") && len(args) > 0 {
		if s, ok := args[len(args)-1].(string); ok {
			l.stmts = append(l.stmts, s)
		}
	}
}

// dryRun opens GORM in DryRun on a pool that is never dialed, logging to log.
func dryRun(t *testing.T, cfg flussgorm.Config, log *sqlLog) *gorm.DB {
	t.Helper()
	sqlDB, err := sql.Open("fluss", "fluss://127.0.0.1:1/fluss")
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	cfg.DB = sqlDB
	db, err := gorm.Open(flussgorm.New(cfg), &gorm.Config{DryRun: true, DisableAutomaticPing: true, SkipDefaultTransaction: true,
		Logger: logger.New(log, logger.Config{LogLevel: logger.Info})})
	require.NoError(t, err)
	return db
}

// everyType has a field of each Go type the dialector maps.
type everyType struct {
	ID      int64 `gorm:"primaryKey;autoIncrement:false"`
	Flag    bool
	Tiny    int8
	Small   int16
	Int     int32
	Big     int
	U8      uint8
	U16     uint16
	U32     uint32
	F32     float32
	F64     float64
	Name    string `gorm:"not null;comment:who it is"`
	Note    *string
	Maybe   sql.NullInt64
	Data    []byte
	At      time.Time
	AtMilli time.Time `gorm:"precision:3"`
	Price   string    `gorm:"type:DECIMAL(10,2)"`
	Day     time.Time `gorm:"type:date"`
	Skip    string    `gorm:"-"`
}

// FlussTableOptions sets the table's bucket count and an option.
func (everyType) FlussTableOptions() flussgorm.TableOptions {
	return flussgorm.TableOptions{Buckets: 4, Comment: "all the types", Properties: map[string]string{"table.log.ttl": "7d"}}
}

// event has no primary key: a log table, partitioned by day.
type event struct {
	Day  string `fluss:"partition"`
	Kind string
	At   time.Time
}

// keyed is bucketed by a key column and takes its bucket count from the Config.
type keyed struct {
	Tenant string `gorm:"primaryKey" fluss:"bucket"`
	Code   int64  `gorm:"primaryKey;autoIncrement:false"`
	Val    *float64
}

// TestCreateTableSQL checks, without a cluster, the CREATE TABLE of models (GORM's DryRun
// logs what it would send) and that flussql's parser reads it.
func TestCreateTableSQL(t *testing.T) {
	for _, c := range []struct {
		name  string
		cfg   flussgorm.Config
		model any
		want  string
	}{
		{"every type", flussgorm.Config{Buckets: 2}, &everyType{},
			"CREATE TABLE every_types (id BIGINT NOT NULL, flag BOOLEAN, tiny TINYINT, small SMALLINT, `int` INT, big BIGINT, " +
				"u8 SMALLINT, u16 INT, u32 BIGINT, f32 FLOAT, f64 DOUBLE, name STRING NOT NULL COMMENT 'who it is', note STRING, " +
				"maybe BIGINT, data BYTES, at TIMESTAMP_LTZ(6), at_milli TIMESTAMP_LTZ(3), price DECIMAL(10, 2), day DATE, " +
				"PRIMARY KEY (id) NOT ENFORCED) COMMENT 'all the types' WITH ('bucket.num' = '4', 'table.log.ttl' = '7d')"},
		{"log table, partitioned", flussgorm.Config{Properties: map[string]string{"table.auto-partition.enabled": "false"}}, &event{},
			"CREATE TABLE events (day STRING, kind STRING, at TIMESTAMP_LTZ(6)) PARTITIONED BY (day) WITH ('table.auto-partition.enabled' = 'false')"},
		{"bucket key, buckets from the config", flussgorm.Config{Buckets: 3}, &keyed{},
			"CREATE TABLE keyeds (tenant STRING NOT NULL, code BIGINT NOT NULL, val DOUBLE, PRIMARY KEY (tenant, code) NOT ENFORCED) WITH ('bucket.key' = 'tenant', 'bucket.num' = '3')"},
		{"another database", flussgorm.Config{}, "x", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				var log sqlLog
				db := dryRun(t, c.cfg, &log)
				require.NoError(t, db.Table("other.things").Migrator().CreateTable(&keyed{}))
				require.Len(t, log.stmts, 1)
				assert.True(t, strings.HasPrefix(log.stmts[0], "CREATE TABLE other.things ("), log.stmts[0])
				return
			}
			var log sqlLog
			db := dryRun(t, c.cfg, &log)
			require.NoError(t, db.Migrator().CreateTable(c.model))
			require.Len(t, log.stmts, 1)
			assert.Equal(t, c.want, log.stmts[0])
			_, err := parser.Parse(log.stmts[0])
			assert.NoError(t, err)
		})
	}
}

// TestCreateTableRefusals checks that what Fluss has not got fails before anything is sent,
// with an error naming it.
func TestCreateTableRefusals(t *testing.T) {
	type withIndex struct {
		ID   int64  `gorm:"primaryKey;autoIncrement:false"`
		Name string `gorm:"index"`
	}
	type withUnique struct {
		ID   int64  `gorm:"primaryKey;autoIncrement:false"`
		Mail string `gorm:"unique"`
	}
	type withDefault struct {
		ID   int64  `gorm:"primaryKey;autoIncrement:false"`
		Kind string `gorm:"default:new"`
	}
	type withCheck struct {
		ID  int64 `gorm:"primaryKey;autoIncrement:false"`
		Age int   `gorm:"check:age > 0"`
	}
	type badType struct {
		ID   int64  `gorm:"primaryKey;autoIncrement:false"`
		Name string `gorm:"type:VARCHAR2(10)"`
	}
	type badTag struct {
		ID   int64 `gorm:"primaryKey;autoIncrement:false" fluss:"bucket.num=4"`
		Name string
	}
	type withGormModel struct {
		gorm.Model
		Name string
	}
	for _, c := range []struct {
		model        any
		want         string
		notSupported bool
	}{
		{&withIndex{}, "index idx_with_indices_name: Fluss has no secondary indexes (a primary-key table is looked up by its key, and by a bucket-key prefix); remove the index tag", true},
		{&withGormModel{}, "declare ID, CreatedAt and UpdatedAt in the model instead of embedding gorm.Model", true},
		{&withUnique{}, "Fluss has no unique constraints", true},
		{&withDefault{}, "default:new — Fluss columns have no DEFAULT", true},
		{&withCheck{}, "Fluss has no check constraints", true},
		{&badType{}, `type "VARCHAR2(10)" is not a Fluss type`, false},
		{&badTag{}, `unknown fluss tag "bucket.num=4"`, false},
	} {
		var log sqlLog
		db := dryRun(t, flussgorm.Config{}, &log)
		err := db.Migrator().CreateTable(c.model)
		require.Error(t, err, c.want)
		assert.Contains(t, err.Error(), c.want)
		assert.Equal(t, c.notSupported, errors.Is(err, flussql.ErrNotSupported), err.Error())
		assert.Empty(t, log.stmts)
	}
}

// TestUnsupportedMigrations checks the migrator's refusals of what Fluss cannot change.
func TestUnsupportedMigrations(t *testing.T) {
	var log sqlLog
	m := dryRun(t, flussgorm.Config{}, &log).Migrator()
	for _, err := range []error{
		m.DropColumn(&keyed{}, "Val"),
		m.AlterColumn(&keyed{}, "Val"),
		m.RenameColumn(&keyed{}, "val", "value"),
		m.RenameTable("keyeds", "keyed2"),
		m.CreateIndex(&keyed{}, "idx_val"),
		m.DropIndex(&keyed{}, "idx_val"),
		m.RenameIndex(&keyed{}, "a", "b"),
		m.CreateConstraint(&keyed{}, "fk"),
		m.DropConstraint(&keyed{}, "fk"),
		m.CreateView("v", gorm.ViewOption{}),
		m.DropView("v"),
	} {
		require.Error(t, err)
		assert.ErrorIs(t, err, flussql.ErrNotSupported)
		assert.Contains(t, err.Error(), "Fluss ")
	}
	assert.False(t, m.HasIndex(&keyed{}, "idx_val"))
	assert.False(t, m.HasConstraint(&keyed{}, "fk"))
	assert.Empty(t, log.stmts)
}
