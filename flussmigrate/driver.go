package flussmigrate

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	nurl "net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/golang-migrate/migrate/v4/database"

	"github.com/flussql/flussql"
)

// Scheme is the URL scheme migrate selects this driver by: fluss://host:port/db?….
const Scheme = "fluss"

// Defaults of Config.
const (
	DefaultMigrationsTable = "schema_migrations"
	DefaultLockTimeout     = 10 * time.Second
	DefaultLockTTL         = time.Minute
)

// The URL keys of Open; the other keys are flussql's DSN keys.
const (
	keyMigrationsTable = "x-migrations-table"
	keyLockTable       = "x-lock-table"
	keyLockTimeout     = "x-lock-timeout"
	keyLockTTL         = "x-lock-ttl"
)

// ErrNoDatabase is returned by WithInstance when its *sql.DB is not a flussql one and
// Config.DatabaseName is empty.
var ErrNoDatabase = errors.New("flussmigrate: cannot tell the database: the *sql.DB is not opened with the flussql driver; set Config.DatabaseName")

func init() {
	database.Register(Scheme, &Fluss{})
}

// Config configures the driver. The zero value takes every default.
type Config struct {
	// DatabaseName is the Fluss database the migrations table, the lock table and Drop are
	// about. Empty: the current database of the *sql.DB's connections (the DSN's).
	DatabaseName string
	// MigrationsTable holds the current version (default schema_migrations).
	MigrationsTable string
	// LockTable holds the advisory lock (default MigrationsTable + "_lock").
	LockTable string
	// LockTimeout is how long Lock waits for a lock another process holds before it
	// returns database.ErrLocked (default 10s). Keep migrate's Migrate.LockTimeout (default
	// 15 s) above it: when migrate stops waiting first, a Lock that succeeds afterwards
	// holds the lock, unused, until the driver is closed (Migrate.Close).
	LockTimeout time.Duration
	// LockTTL is how long a lock lives without being renewed; the holder renews it every
	// LockTTL/3, so only a holder that died (or stalled for LockTTL) loses it (default 1m).
	LockTTL time.Duration
}

// Fluss is the migrate database driver for Apache Fluss through flussql. Register it by
// importing this package; use it through migrate.New with a fluss:// URL, or WithInstance.
type Fluss struct {
	db     *sql.DB
	conn   *sql.Conn // the migrations run on one connection, so that a USE lasts the file
	ownsDB bool
	cfg    Config

	versionTable string // qualified and quoted
	lockTable    string

	inProcess sync.Mutex // held from Lock to Unlock: one lock per driver
	mu        sync.Mutex // guards lock
	lock      *heldLock
	hint      atomic.Int64 // the last epoch seen in the lock table, where the next search starts
}

// Open opens fluss://[user[:password]@]host:port[,…][/database][?key=value&…]: flussql's DSN
// and its keys, plus x-migrations-table, x-lock-table, x-lock-timeout and x-lock-ttl
// (durations such as 30s), which configure the driver as Config does.
func (f *Fluss) Open(url string) (database.Driver, error) {
	u, err := nurl.Parse(url)
	if err != nil {
		return nil, fmt.Errorf("flussmigrate: %w", err)
	}
	var cfg Config
	q := u.Query()
	cfg.MigrationsTable = q.Get(keyMigrationsTable)
	cfg.LockTable = q.Get(keyLockTable)
	for key, dst := range map[string]*time.Duration{keyLockTimeout: &cfg.LockTimeout, keyLockTTL: &cfg.LockTTL} {
		if v := q.Get(key); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d <= 0 {
				return nil, fmt.Errorf("flussmigrate: %s=%q: want a positive duration such as 30s", key, v)
			}
			*dst = d
		}
	}
	for key := range q {
		if strings.HasPrefix(key, "x-") && key != keyMigrationsTable && key != keyLockTable && key != keyLockTimeout && key != keyLockTTL {
			return nil, fmt.Errorf("flussmigrate: unknown URL key %s (known: %s, %s, %s, %s)", key, keyMigrationsTable, keyLockTable, keyLockTimeout, keyLockTTL)
		}
	}
	dsnCfg, err := flussql.ParseDSN(stripCustomKeys(u).String())
	if err != nil {
		return nil, err // flussql's errors say "flussql:" and name the bad part
	}
	connector, err := flussql.NewConnector(dsnCfg)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(connector)
	cfg.DatabaseName = dsnCfg.Database
	d, err := WithInstance(db, &cfg)
	if err != nil {
		db.Close()
		return nil, err
	}
	d.(*Fluss).ownsDB = true
	return d, nil
}

// stripCustomKeys is u without the x- keys, which flussql does not know.
func stripCustomKeys(u *nurl.URL) *nurl.URL {
	out := *u
	q := u.Query()
	for key := range q {
		if strings.HasPrefix(key, "x-") {
			q.Del(key)
		}
	}
	out.RawQuery = q.Encode()
	return &out
}

// WithInstance makes a driver over db, which must be opened with flussql; cfg may be nil.
// It creates the migrations and lock tables when they do not exist. Close does not close db.
func WithInstance(db *sql.DB, cfg *Config) (database.Driver, error) {
	c := Config{}
	if cfg != nil {
		c = *cfg
	}
	if c.MigrationsTable == "" {
		c.MigrationsTable = DefaultMigrationsTable
	}
	if c.LockTable == "" {
		c.LockTable = c.MigrationsTable + "_lock"
	}
	if c.LockTimeout <= 0 {
		c.LockTimeout = DefaultLockTimeout
	}
	if c.LockTTL <= 0 {
		c.LockTTL = DefaultLockTTL
	}
	if c.MigrationsTable == c.LockTable {
		return nil, fmt.Errorf("flussmigrate: the migrations table and the lock table are both %s; name two tables", c.MigrationsTable)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("flussmigrate: connecting: %w", err)
	}
	if c.DatabaseName == "" {
		err := conn.Raw(func(dc any) error {
			fc, ok := dc.(flussql.DatabaseConn)
			if !ok {
				return ErrNoDatabase
			}
			c.DatabaseName = fc.CurrentDatabase()
			return nil
		})
		if err != nil {
			conn.Close()
			return nil, err
		}
	}
	f := &Fluss{db: db, conn: conn, cfg: c,
		versionTable: quoteName(c.DatabaseName, c.MigrationsTable),
		lockTable:    quoteName(c.DatabaseName, c.LockTable),
	}
	if err := f.ensureTables(ctx); err != nil {
		conn.Close()
		return nil, err
	}
	return f, nil
}

// Config is the driver's configuration with the defaults filled in.
func (f *Fluss) Config() Config { return f.cfg }

// Close releases the driver's connection, and the *sql.DB if Open made it. A lock still
// held is released first.
func (f *Fluss) Close() error {
	var errs []error
	f.mu.Lock()
	held := f.lock != nil
	f.mu.Unlock()
	if held {
		errs = append(errs, f.Unlock())
	}
	errs = append(errs, f.conn.Close())
	if f.ownsDB {
		errs = append(errs, f.db.Close())
	}
	return errors.Join(errs...)
}

// quoteName is `db`.`table` with backticks doubled inside names.
func quoteName(db, table string) string {
	return quoteIdent(db) + "." + quoteIdent(table)
}

func quoteIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// ensureTables creates the migrations table and the lock table when they are missing.
func (f *Fluss) ensureTables(ctx context.Context) error {
	stmts := []string{
		// One row under a fixed key: the default merge engine keeps the last upsert, so
		// the table always holds exactly the current version, and a point lookup after an
		// acknowledged upsert reads it.
		"CREATE TABLE IF NOT EXISTS " + f.versionTable + " (id INT NOT NULL, version BIGINT NOT NULL, dirty BOOLEAN NOT NULL, " +
			"PRIMARY KEY (id) NOT ENFORCED) COMMENT 'golang-migrate: the current schema version' WITH ('bucket.num' = '1')",
		// first_row keeps the first row written under a key and ignores every later write
		// (deletes too): the one compare-and-set Fluss offers. See lock.go.
		"CREATE TABLE IF NOT EXISTS " + f.lockTable + " (epoch BIGINT NOT NULL, state STRING NOT NULL, owner STRING NOT NULL, " +
			"expires_ms BIGINT NOT NULL, PRIMARY KEY (epoch) NOT ENFORCED) COMMENT 'golang-migrate: the advisory lock, one row per change' " +
			"WITH ('bucket.num' = '1', 'table.merge-engine' = 'first_row')",
	}
	for _, s := range stmts {
		if _, err := f.db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("flussmigrate: creating %s: %w", strings.Fields(s)[5], err)
		}
	}
	return nil
}

// SetVersion records version and dirty as the current state (an upsert of the one row).
func (f *Fluss) SetVersion(version int, dirty bool) error {
	_, err := f.db.ExecContext(context.Background(),
		"INSERT INTO "+f.versionTable+" (id, version, dirty) VALUES (1, ?, ?)", int64(version), dirty)
	if err != nil {
		return &database.Error{OrigErr: err, Err: "recording the version failed", Query: []byte("INSERT INTO " + f.versionTable + " … " + strconv.Itoa(version))}
	}
	return nil
}

// Version is the recorded version and dirty flag; database.NilVersion when none was recorded.
func (f *Fluss) Version() (version int, dirty bool, err error) {
	var v int64
	err = f.db.QueryRowContext(context.Background(),
		"SELECT version, dirty FROM "+f.versionTable+" WHERE id = 1").Scan(&v, &dirty)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return database.NilVersion, false, nil
	case err != nil:
		return 0, false, &database.Error{OrigErr: err, Err: "reading the version failed", Query: []byte("SELECT version, dirty FROM " + f.versionTable)}
	}
	return int(v), dirty, nil
}
