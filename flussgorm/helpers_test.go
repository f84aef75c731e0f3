package flussgorm_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/flussgorm"
)

// openTestDB creates a database of its own for the test on the cluster of
// FLUSS_BOOTSTRAP_SERVERS (the test skips without it), dropped at its end, and returns a pool
// whose current database it is, and its name.
func openTestDB(t *testing.T) (*sql.DB, string) {
	t.Helper()
	addrs := realcluster.Addr(t)
	admin, err := sql.Open("fluss", "fluss://"+addrs+"/fluss")
	require.NoError(t, err)
	name := fmt.Sprintf("gorm_%s_%d", strings.ToLower(strings.ReplaceAll(t.Name(), "/", "_")), time.Now().UnixNano()%1e9)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	db, err := sql.Open("fluss", "fluss://"+addrs+"/"+name)
	require.NoError(t, err)
	t.Cleanup(func() {
		db.Close()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_, err := admin.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" CASCADE")
		assert.NoError(t, err)
		admin.Close()
	})
	return db, name
}

// openGORM opens GORM with the dialector on a database of the test's own, each statement in
// the test's log (go test -v).
func openGORM(t *testing.T, cfg flussgorm.Config, gcfg *gorm.Config) *gorm.DB {
	t.Helper()
	sqlDB, _ := openTestDB(t)
	cfg.DB = sqlDB
	if gcfg == nil {
		gcfg = &gorm.Config{SkipDefaultTransaction: true}
	}
	gcfg.Logger = logger.New(testLogWriter{t}, logger.Config{LogLevel: logger.Info, IgnoreRecordNotFoundError: true})
	db, err := gorm.Open(flussgorm.New(cfg), gcfg)
	require.NoError(t, err)
	return db
}

// testServerVersion is the release of the cluster's servers, checked against
// FLUSS_SERVER_VERSION when the cluster tool set it.
func testServerVersion(t *testing.T) fluss.ServerVersion {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := fluss.Connect(ctx, fluss.Config{BootstrapServers: realcluster.Addrs(t)})
	require.NoError(t, err)
	defer c.Close()
	v, err := c.ServerVersion(ctx)
	require.NoError(t, err)
	if launched := os.Getenv("FLUSS_SERVER_VERSION"); launched != "" {
		want, err := fluss.ParseServerVersion(launched)
		require.NoError(t, err)
		require.Equal(t, want, v, "detected from ApiVersions vs FLUSS_SERVER_VERSION=%s", launched)
	}
	return v
}
