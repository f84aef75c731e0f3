package flussmigrate_test

import (
	"database/sql"
	"errors"
	"log"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/source/file"

	_ "github.com/flussql/flussql"
	"github.com/flussql/flussql/flussmigrate"
)

// Migrations from a folder, by URL: importing flussmigrate registers the fluss:// scheme
// with migrate.
func Example() {
	m, err := migrate.New("file://migrations", "fluss://127.0.0.1:9123/shop?x-lock-timeout=30s")
	if err != nil {
		log.Fatal(err)
	}
	defer m.Close()
	if err := m.Up(); err != nil && !errors.Is(err, migrate.ErrNoChange) {
		log.Fatal(err) // a failed migration leaves the version dirty: fix, then m.Force(v)
	}
	version, dirty, err := m.Version()
	log.Println(version, dirty, err)
}

// A pool the application opened already, with the versions in a table of another name.
func ExampleWithInstance() {
	db, err := sql.Open("fluss", "fluss://127.0.0.1:9123/shop")
	if err != nil {
		log.Fatal(err)
	}
	driver, err := flussmigrate.WithInstance(db, &flussmigrate.Config{MigrationsTable: "shop_versions"})
	if err != nil {
		log.Fatal(err)
	}
	m, err := migrate.NewWithDatabaseInstance("file://migrations", flussmigrate.Scheme, driver)
	if err != nil {
		log.Fatal(err)
	}
	if err := m.Steps(1); err != nil {
		log.Fatal(err)
	}
}
