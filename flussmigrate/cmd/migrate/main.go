// Command migrate is golang-migrate's up/down/goto/force/version/drop for Apache Fluss,
// built with the flussmigrate driver and migrate's file source (migrate's own CLI lives in an
// internal package and cannot take another driver):
//
//	go run github.com/flussql/flussql/flussmigrate/cmd/migrate -path ./migrations \
//	    -database 'fluss://127.0.0.1:9123/shop' up
//
// Commands: up [N], down N | down -all, goto V, force V, version, drop -f.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/golang-migrate/migrate/v4"
	_ "github.com/golang-migrate/migrate/v4/source/file" // file:// migrations

	"github.com/flussql/flussql/flussmigrate"
)

const usage = `usage: migrate -path DIR | -source URL  -database fluss://host:port/db[?…]  COMMAND

commands:
  up [N]          apply all or N up migrations
  down N | -all   apply N down migrations, or all of them
  goto V          migrate up or down to version V
  force V         record version V as clean without running anything (after a failure)
  version         print the current version ("dirty" when the last migration failed)
  drop -f         drop every table of the database

The database URL takes flussql's DSN keys and x-migrations-table, x-lock-table,
x-lock-timeout (how long to wait for another process's lock, default 10s) and x-lock-ttl.
`

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "migrate:", err)
		os.Exit(1)
	}
}

// run parses args and runs one command; progress goes to stderr, the version to stdout.
func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	path := fs.String("path", "", "folder of the migration files (NNN_name.up.sql / .down.sql)")
	source := fs.String("source", "", "migrate source URL instead of -path, e.g. file://migrations")
	dbURL := fs.String("database", "", "fluss://host:port/database[?key=value&…]")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path != "" {
		*source = "file://" + *path
	}
	if *source == "" || *dbURL == "" || fs.NArg() == 0 {
		fs.Usage()
		return errors.New("-path (or -source), -database and a command are needed")
	}
	cmd, rest := fs.Arg(0), fs.Args()[1:]
	driver, err := (&flussmigrate.Fluss{}).Open(*dbURL)
	if err != nil {
		return err
	}
	m, err := migrate.NewWithDatabaseInstance(*source, flussmigrate.Scheme, driver)
	if err != nil {
		driver.Close()
		return err
	}
	defer m.Close()
	// migrate waits for the driver's Lock a little longer than the driver waits itself
	// (x-lock-timeout), so that the driver's answer, naming the holder, is the one printed.
	m.LockTimeout = driver.(*flussmigrate.Fluss).Config().LockTimeout + 5*time.Second
	m.Log = logger{stderr}

	switch cmd {
	case "up":
		n, err := optionalInt(rest)
		if err != nil {
			return err
		}
		if n > 0 {
			return noChange(m.Steps(n))
		}
		return noChange(m.Up())
	case "down":
		if len(rest) == 1 && rest[0] == "-all" {
			return noChange(m.Down())
		}
		n, err := optionalInt(rest)
		if err != nil || n <= 0 {
			return errors.New("down takes N (how many migrations) or -all")
		}
		return noChange(m.Steps(-n))
	case "goto", "force":
		if len(rest) != 1 {
			return fmt.Errorf("%s takes a version", cmd)
		}
		v, err := strconv.ParseInt(rest[0], 10, 64)
		if err != nil {
			return fmt.Errorf("%s: version %q is not a number", cmd, rest[0])
		}
		if cmd == "force" {
			return m.Force(int(v))
		}
		return noChange(m.Migrate(uint(v)))
	case "version":
		v, dirty, err := m.Version()
		if errors.Is(err, migrate.ErrNilVersion) {
			fmt.Fprintln(stdout, "no migration applied")
			return nil
		}
		if err != nil {
			return err
		}
		if dirty {
			fmt.Fprintf(stdout, "%d (dirty)\n", v)
		} else {
			fmt.Fprintln(stdout, v)
		}
		return nil
	case "drop":
		if len(rest) != 1 || rest[0] != "-f" {
			return errors.New("drop drops every table of the database; confirm with drop -f")
		}
		return m.Drop()
	}
	fs.Usage()
	return fmt.Errorf("unknown command %q", cmd)
}

// optionalInt reads the optional N of up and down (0 when absent).
func optionalInt(rest []string) (int, error) {
	switch len(rest) {
	case 0:
		return 0, nil
	case 1:
		n, err := strconv.Atoi(rest[0])
		if err != nil || n < 0 {
			return 0, fmt.Errorf("the count must be a positive number, not %q", rest[0])
		}
		return n, nil
	}
	return 0, fmt.Errorf("too many arguments: %q", rest)
}

// noChange makes migrate's "no change" a success, as its CLI does.
func noChange(err error) error {
	if errors.Is(err, migrate.ErrNoChange) {
		return nil
	}
	return err
}

// logger prints migrate's progress lines.
type logger struct{ w io.Writer }

func (l logger) Printf(format string, v ...any) { fmt.Fprintf(l.w, format, v...) }
func (l logger) Verbose() bool                  { return false }
