package flussgorm_test

import (
	"errors"
	"fmt"
	"log"
	"time"

	"gorm.io/gorm"

	"github.com/flussql/flussql"
	"github.com/flussql/flussql/flussgorm"
)

// Product is a model with a primary key: AutoMigrate makes it a primary-key table.
type Product struct {
	Code  string `gorm:"primaryKey"`
	Name  string
	Price float64
	Stock *int32
}

// TableName puts the table in the examples database.
func (Product) TableName() string { return "gorm_examples.products" }

// FlussTableOptions gives the table 2 buckets.
func (Product) FlussTableOptions() flussgorm.TableOptions {
	return flussgorm.TableOptions{Buckets: 2, Comment: "the catalogue"}
}

// PageView has no primary key: AutoMigrate makes it a log table.
type PageView struct {
	Page string
	At   time.Time `gorm:"precision:3"`
}

// TableName puts the table in the examples database.
func (PageView) TableName() string { return "gorm_examples.page_views" }

// Open GORM on flussql, create tables from models, write and read rows. The DSN comes from
// FLUSS_DSN (or FLUSS_BOOTSTRAP_SERVERS).
func Example() {
	db, err := gorm.Open(flussgorm.Open(flussql.DSNFromEnv()), &gorm.Config{SkipDefaultTransaction: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := db.Exec("CREATE DATABASE IF NOT EXISTS gorm_examples").Error; err != nil {
		log.Fatal(err)
	}
	if err := db.Migrator().DropTable(&Product{}, &PageView{}); err != nil {
		log.Fatal(err)
	}
	if err := db.AutoMigrate(&Product{}, &PageView{}); err != nil {
		log.Fatal(err)
	}
	kind, err := db.Migrator().TableType(&Product{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("products:", kind.Type())

	stock := int32(12)
	if err := db.Create(&[]Product{{Code: "A1", Name: "anvil", Price: 99.5, Stock: &stock}, {Code: "B2", Name: "bolt", Price: 0.25}}).Error; err != nil {
		log.Fatal(err)
	}
	// Create of an existing key is an upsert: the row is replaced.
	if err := db.Create(&Product{Code: "B2", Name: "bolt", Price: 0.3}).Error; err != nil {
		log.Fatal(err)
	}
	var p Product
	if err := db.First(&p, "code = ?", "B2").Error; err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Code, p.Name, p.Price, p.Stock == nil)

	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := db.Create(&[]PageView{{Page: "/", At: at}, {Page: "/docs", At: at}}).Error; err != nil {
		log.Fatal(err)
	}
	var n int64
	if err := db.Model(&PageView{}).Where("page = ?", "/docs").Count(&n).Error; err != nil {
		log.Fatal(err)
	}
	fmt.Println("views of /docs:", n)
	// Output:
	// products: PRIMARY KEY TABLE
	// B2 bolt 0.3 true
	// views of /docs: 1
}

// ProductV2 retypes Price: Fluss cannot change a column's type, so AutoMigrate refuses.
type ProductV2 struct {
	Code  string `gorm:"primaryKey"`
	Name  string
	Price string
}

// TableName is the table ExampleMigrator_AutoMigrate evolves.
func (ProductV2) TableName() string { return "gorm_examples.evolving" }

// ProductV1 is ProductV2's first version.
type ProductV1 struct {
	Code  string `gorm:"primaryKey"`
	Name  string
	Price float64
}

// TableName is the table ExampleMigrator_AutoMigrate evolves.
func (ProductV1) TableName() string { return "gorm_examples.evolving" }

// AutoMigrate adds a model's new fields as columns (ALTER TABLE … ADD); a change Fluss cannot
// make fails with an error matching flussql.ErrNotSupported that names it.
func ExampleMigrator_AutoMigrate() {
	db, err := gorm.Open(flussgorm.New(flussgorm.Config{DSN: flussql.DSNFromEnv(), Buckets: 1}), &gorm.Config{SkipDefaultTransaction: true})
	if err != nil {
		log.Fatal(err)
	}
	if err := db.Exec("CREATE DATABASE IF NOT EXISTS gorm_examples").Error; err != nil {
		log.Fatal(err)
	}
	if err := db.Migrator().DropTable(&ProductV1{}); err != nil {
		log.Fatal(err)
	}
	if err := db.AutoMigrate(&ProductV1{}); err != nil {
		log.Fatal(err)
	}
	err = db.AutoMigrate(&ProductV2{})
	fmt.Println(errors.Is(err, flussql.ErrNotSupported))
	fmt.Println(err)
	// Output:
	// true
	// flussgorm: AutoMigrate column price: the table's type is DOUBLE and the model's STRING; Fluss cannot change a column's type (add a new column, or give the field `gorm:"type:DOUBLE"`): not supported
}
