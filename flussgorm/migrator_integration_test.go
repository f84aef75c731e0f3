package flussgorm_test

import (
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/flussgorm"
)

// account is the model TestAutoMigrate creates; accountV2 is its next version with a new field;
// accountRetyped changes a column's type.
type account struct {
	ID      int64  `gorm:"primaryKey;autoIncrement:false"`
	Owner   string `gorm:"not null"`
	Balance float64
	Note    *string
	Opened  time.Time
	Data    []byte
	Level   int8
}

func (account) TableName() string { return "accounts" }

// FlussTableOptions gives the table 3 buckets.
func (account) FlussTableOptions() flussgorm.TableOptions { return flussgorm.TableOptions{Buckets: 3} }

type accountV2 struct {
	ID      int64  `gorm:"primaryKey;autoIncrement:false"`
	Owner   string `gorm:"not null"`
	Balance float64
	Note    *string
	Opened  time.Time
	Data    []byte
	Level   int8
	Email   *string `gorm:"comment:added later"`
}

func (accountV2) TableName() string { return "accounts" }

type accountRetyped struct {
	ID      int64  `gorm:"primaryKey;autoIncrement:false"`
	Owner   string `gorm:"not null"`
	Balance int64
}

func (accountRetyped) TableName() string { return "accounts" }

type accountNotNullAdd struct {
	ID     int64  `gorm:"primaryKey;autoIncrement:false"`
	Owner  string `gorm:"not null"`
	Region string `gorm:"not null"`
}

func (accountNotNullAdd) TableName() string { return "accounts" }

type accountOtherKey struct {
	ID    int64  `gorm:"primaryKey;autoIncrement:false"`
	Owner string `gorm:"primaryKey"`
}

func (accountOtherKey) TableName() string { return "accounts" }

// visit has no primary key: AutoMigrate makes it a log table.
type visit struct {
	Page string
	User int64
	At   time.Time `gorm:"precision:3"`
}

// TestAutoMigrate creates a primary-key table and a log table from models, writes and reads
// them with GORM, evolves the primary-key table with a new field, and checks what Fluss
// cannot change fails with ErrNotSupported before anything changes.
func TestAutoMigrate(t *testing.T) {
	db := openGORM(t, flussgorm.Config{}, nil)
	m := db.Migrator()

	assert.False(t, m.HasTable(&account{}))
	require.NoError(t, db.AutoMigrate(&account{}, &visit{}))
	assert.True(t, m.HasTable(&account{}))
	assert.True(t, m.HasTable("accounts"))
	assert.True(t, m.HasTable(&visit{}))
	tables, err := m.GetTables()
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"accounts", "visits"}, tables)
	// AutoMigrate again changes nothing.
	require.NoError(t, db.AutoMigrate(&account{}, &visit{}))

	// The table is what the model says: DESCRIBE through ColumnTypes.
	cols, err := m.ColumnTypes(&account{})
	require.NoError(t, err)
	type col struct {
		Name, Type string
		Nullable   bool
		PK         bool
	}
	var got []col
	for _, c := range cols {
		typ, _ := c.ColumnType()
		nullable, _ := c.Nullable()
		pk, _ := c.PrimaryKey()
		got = append(got, col{c.Name(), typ, nullable, pk})
	}
	assert.Equal(t, []col{
		{"id", "BIGINT", false, true}, {"owner", "STRING", false, false}, {"balance", "DOUBLE", true, false},
		{"note", "STRING", true, false}, {"opened", "TIMESTAMP_LTZ(6)", true, false}, {"data", "BYTES", true, false},
		{"level", "TINYINT", true, false},
	}, got)
	assert.Equal(t, "TIMESTAMP_LTZ", cols[4].DatabaseTypeName())
	var createSQL string
	require.NoError(t, db.Raw("SHOW CREATE TABLE accounts").Row().Scan(new(string), &createSQL))
	assert.Contains(t, createSQL, "'bucket.num' = '3'")
	assert.Contains(t, createSQL, "PRIMARY KEY (id) NOT ENFORCED")
	tt, err := m.TableType(&account{})
	require.NoError(t, err)
	assert.Equal(t, "PRIMARY KEY TABLE", tt.Type())
	assert.Equal(t, "accounts", tt.Name())
	assert.True(t, strings.HasPrefix(tt.Schema(), "gorm_testautomigrate_"), tt.Schema()) // openTestDB's database
	assert.Equal(t, tt.Schema(), m.CurrentDatabase())
	tt, err = m.TableType(&visit{})
	require.NoError(t, err)
	assert.Equal(t, "LOG TABLE", tt.Type())
	assert.True(t, m.HasColumn(&account{}, "Balance"))
	assert.True(t, m.HasColumn(&account{}, "balance"))
	assert.False(t, m.HasColumn(&account{}, "email"))

	// Rows of every type go in and come back; Create of an existing key is an upsert.
	note := "vip"
	opened := time.Date(2026, 3, 1, 12, 30, 45, 123456000, time.UTC)
	a := account{ID: 1, Owner: "ada", Balance: 10.5, Note: &note, Opened: opened, Data: []byte{0, 1, 2}, Level: -3}
	require.NoError(t, db.Create(&a).Error)
	require.NoError(t, db.Create(&account{ID: 2, Owner: "bob"}).Error)
	var back account
	require.NoError(t, db.First(&back, 1).Error)
	assert.True(t, opened.Equal(back.Opened), "%v vs %v", opened, back.Opened)
	back.Opened = a.Opened
	assert.Equal(t, a, back)
	back = account{}
	require.NoError(t, db.First(&back, 2).Error)
	assert.Nil(t, back.Note)
	assert.Empty(t, back.Data) // GORM sets a NULL BYTES field to an empty slice
	res := db.Create(&account{ID: 2, Owner: "bobby", Balance: 1})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	back = account{}
	require.NoError(t, db.First(&back, 2).Error)
	assert.Equal(t, "bobby", back.Owner)
	assert.Equal(t, 1.0, back.Balance)
	// Save of a new key inserts it.
	require.NoError(t, db.Save(&account{ID: 3, Owner: "cy", Balance: 3}).Error)
	var n int64
	require.NoError(t, db.Model(&account{}).Where("id IN ?", []int64{1, 2, 3}).Count(&n).Error)
	assert.EqualValues(t, 3, n)

	// A log table appends; reading it is a scan.
	at := time.Date(2026, 3, 1, 8, 0, 0, 5_000_000, time.UTC)
	require.NoError(t, db.Create(&[]visit{{Page: "/", User: 1, At: at}, {Page: "/", User: 1, At: at}, {Page: "/docs", User: 2, At: at}}).Error)
	var visits []visit
	require.NoError(t, db.Where("page = ?", "/").Find(&visits).Error)
	require.Len(t, visits, 2)
	assert.True(t, at.Equal(visits[0].At))
	require.NoError(t, db.Model(&visit{}).Count(&n).Error)
	assert.EqualValues(t, 3, n)
	// Save of a model without a key is an UPDATE without WHERE, which GORM refuses: a log table
	// takes Create.
	assert.ErrorIs(t, db.Save(&visit{Page: "/x", User: 3, At: at}).Error, gorm.ErrMissingWhereClause)

	// A new field becomes a new nullable column; rows written before read NULL in it.
	require.NoError(t, db.AutoMigrate(&accountV2{}))
	assert.True(t, m.HasColumn(&accountV2{}, "Email"))
	cols, err = m.ColumnTypes(&accountV2{})
	require.NoError(t, err)
	require.Len(t, cols, 8)
	comment, _ := cols[7].Comment()
	assert.Equal(t, "added later", comment)
	email := "ada@example.com"
	require.NoError(t, db.Create(&accountV2{ID: 4, Owner: "dee", Email: &email}).Error)
	var v2 []accountV2
	require.NoError(t, db.Order("id").Find(&v2, []int64{1, 4}).Error)
	require.Len(t, v2, 2)
	assert.Nil(t, v2[0].Email)
	assert.Equal(t, "ada", v2[0].Owner)
	require.NotNil(t, v2[1].Email)
	assert.Equal(t, email, *v2[1].Email)

	// What Fluss cannot change fails, naming the column and the limit, and changes nothing.
	err = db.AutoMigrate(&accountRetyped{})
	require.ErrorIs(t, err, flussql.ErrNotSupported)
	assert.Contains(t, err.Error(), "column balance: the table's type is DOUBLE and the model's BIGINT; Fluss cannot change a column's type")
	err = db.AutoMigrate(&accountNotNullAdd{})
	require.ErrorIs(t, err, flussql.ErrNotSupported)
	assert.Contains(t, err.Error(), "Fluss adds only nullable columns")
	err = db.AutoMigrate(&accountOtherKey{})
	require.ErrorIs(t, err, flussql.ErrNotSupported)
	assert.Contains(t, err.Error(), "Fluss cannot change a table's primary key")
	assert.ErrorIs(t, m.DropColumn(&accountV2{}, "Email"), flussql.ErrNotSupported)
	assert.False(t, m.HasColumn(&accountV2{}, "region"))
	assert.True(t, m.HasColumn(&accountV2{}, "email"))

	require.NoError(t, m.DropTable(&visit{}, "accounts"))
	assert.False(t, m.HasTable(&account{}))
	assert.False(t, m.HasTable(&visit{}))
}

// TestAutoMigrateOptions creates tables with options from the Config, field tags and another
// database (db.Table("db.t")), and checks them with SHOW CREATE TABLE.
func TestAutoMigrateOptions(t *testing.T) {
	db := openGORM(t, flussgorm.Config{Buckets: 2, Properties: map[string]string{"table.log.ttl": "2d"}}, nil)
	require.NoError(t, db.AutoMigrate(&keyed{}))
	var createSQL string
	require.NoError(t, db.Raw("SHOW CREATE TABLE keyeds").Row().Scan(new(string), &createSQL))
	assert.Contains(t, createSQL, "PRIMARY KEY (tenant, code) NOT ENFORCED")
	assert.Contains(t, createSQL, "'bucket.num' = '2'")
	assert.Contains(t, createSQL, "'bucket.key' = 'tenant'")
	assert.Contains(t, createSQL, "'table.log.ttl' = '2d'")

	// A prefix lookup on the bucket key.
	v := 1.5
	require.NoError(t, db.Create(&[]keyed{{Tenant: "a", Code: 1, Val: &v}, {Tenant: "a", Code: 2}, {Tenant: "b", Code: 1}}).Error)
	var ks []keyed
	require.NoError(t, db.Where("tenant = ?", "a").Order("code").Find(&ks).Error)
	assert.Equal(t, []keyed{{Tenant: "a", Code: 1, Val: &v}, {Tenant: "a", Code: 2}}, ks)

	// Another database: its table is created there.
	other, _ := openTestDB(t)
	var otherName string
	require.NoError(t, other.QueryRow("SELECT CURRENT_DATABASE()").Scan(&otherName))
	tdb := db.Table(otherName + ".things")
	require.NoError(t, tdb.AutoMigrate(&keyed{}))
	assert.True(t, tdb.Migrator().HasTable(&keyed{}))
	var tables []string
	rows, err := other.Query("SHOW TABLES")
	require.NoError(t, err)
	for rows.Next() {
		var s string
		require.NoError(t, rows.Scan(&s))
		tables = append(tables, s)
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{"things"}, tables)
}

// TestCreateRefusesZeroGeneratedKey: a model whose integer key GORM takes for auto-increment
// (no autoIncrement:false) is written when the key is set, and refused before anything is sent
// when it is zero, since Fluss would not fill it in.
func TestCreateRefusesZeroGeneratedKey(t *testing.T) {
	type item struct {
		ID   uint
		Name string
	}
	db := openGORM(t, flussgorm.Config{}, nil)
	require.NoError(t, db.AutoMigrate(&item{}))
	res := db.Create(&item{ID: 7, Name: "seven"})
	require.NoError(t, res.Error)
	assert.EqualValues(t, 1, res.RowsAffected)
	var got item
	require.NoError(t, db.First(&got, 7).Error)
	assert.Equal(t, item{ID: 7, Name: "seven"}, got)

	err := db.Create(&[]item{{ID: 8, Name: "eight"}, {Name: "no key"}}).Error
	require.ErrorIs(t, err, flussql.ErrNotSupported)
	assert.Contains(t, err.Error(), "item.ID is zero: Fluss has no auto-increment")
	assert.ErrorIs(t, db.First(&item{}, 8).Error, gorm.ErrRecordNotFound)
}

// TestEveryTypeRoundTrip writes a row of every Go type the dialector maps into the table
// AutoMigrate made of it, and reads it back equal; then a row of zero values and NULLs.
func TestEveryTypeRoundTrip(t *testing.T) {
	db := openGORM(t, flussgorm.Config{}, nil)
	require.NoError(t, db.AutoMigrate(&everyType{}))
	note := "a note"
	at := time.Date(2026, 5, 17, 10, 11, 12, 345678000, time.UTC)
	want := everyType{ID: 1, Flag: true, Tiny: -128, Small: -32768, Int: -2147483648, Big: -1 << 62,
		U8: 255, U16: 65535, U32: 4294967295, F32: 1.5, F64: -2.25, Name: "ada", Note: &note,
		Maybe: sql.NullInt64{Int64: 42, Valid: true}, Data: []byte("bytes"), At: at, AtMilli: at.Truncate(time.Millisecond),
		Price: "12345678.90", Day: time.Date(2026, 5, 17, 0, 0, 0, 0, time.UTC)}
	require.NoError(t, db.Create(&want).Error)
	var got everyType
	require.NoError(t, db.First(&got, 1).Error)
	assert.True(t, want.At.Equal(got.At), "%v vs %v", want.At, got.At)
	assert.True(t, want.AtMilli.Equal(got.AtMilli), "%v vs %v", want.AtMilli, got.AtMilli)
	assert.True(t, want.Day.Equal(got.Day), "%v vs %v", want.Day, got.Day)
	got.At, got.AtMilli, got.Day = want.At, want.AtMilli, want.Day
	assert.Equal(t, want, got)

	// A time finer than the column's precision is cut to it: AtMilli is TIMESTAMP_LTZ(3). (A
	// DECIMAL column takes a string holding a number; a string field's zero value "" is refused.)
	require.NoError(t, db.Create(&everyType{ID: 2, Name: "zero", AtMilli: at, Price: "0"}).Error)
	got = everyType{}
	require.NoError(t, db.First(&got, 2).Error)
	assert.True(t, at.Truncate(time.Millisecond).Equal(got.AtMilli), "%v", got.AtMilli)
	assert.Nil(t, got.Note)
	assert.False(t, got.Maybe.Valid)
	assert.Equal(t, "zero", got.Name)
}

// TestPartitionedLogTable creates a log table partitioned by a tagged field, writes to two
// partitions (created on write: the DSN's partition_auto_create) and reads one.
func TestPartitionedLogTable(t *testing.T) {
	_, name := openTestDB(t)
	db, err := gorm.Open(flussgorm.Open("fluss://"+realcluster.Addr(t)+"/"+name+"?partition_auto_create=true"), &gorm.Config{SkipDefaultTransaction: true})
	require.NoError(t, err)
	sqlDB, err := db.DB()
	require.NoError(t, err)
	t.Cleanup(func() { sqlDB.Close() })
	require.NoError(t, db.AutoMigrate(&event{}))
	var createSQL string
	require.NoError(t, db.Raw("SHOW CREATE TABLE events").Row().Scan(new(string), &createSQL))
	assert.Contains(t, createSQL, "PARTITIONED BY (day)")
	at := time.Date(2026, 5, 17, 1, 0, 0, 0, time.UTC)
	require.NoError(t, db.Create(&[]event{{Day: "2026-05-17", Kind: "a", At: at}, {Day: "2026-05-18", Kind: "b", At: at}, {Day: "2026-05-17", Kind: "c", At: at}}).Error)
	var kinds []string
	require.NoError(t, db.Model(&event{}).Where("day = ?", "2026-05-17").Order("kind").Pluck("kind", &kinds).Error)
	assert.Equal(t, []string{"a", "c"}, kinds)
}
