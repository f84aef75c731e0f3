package main

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	_ "github.com/flussql/flussql"
	"github.com/flussql/flussql/fluss/flusstest/realcluster"
	"github.com/flussql/flussql/flussmigrate"
)

// TestCommands runs the command as a user would, against a database of its own on the real
// cluster: up, version, down 1, goto, a failed force argument, force, drop -f.
func TestCommands(t *testing.T) {
	addr := realcluster.Addr(t)
	name := fmt.Sprintf("mig_cli_%d", time.Now().UnixNano()%1e9)
	admin, err := sql.Open("fluss", "fluss://"+addr+"/fluss")
	require.NoError(t, err)
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err = admin.ExecContext(ctx, "CREATE DATABASE "+name)
	require.NoError(t, err)
	defer admin.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE")

	migrate := func(args ...string) (string, error) {
		var out, errOut bytes.Buffer
		err := run(append([]string{"-path", "../../testdata/migrations", "-database", "fluss://" + addr + "/" + name}, args...), &out, &errOut)
		return out.String(), err
	}
	steps := []struct {
		args    []string
		out     string
		wantErr string
	}{
		{args: []string{"version"}, out: "no migration applied\n"},
		{args: []string{"up"}},
		{args: []string{"version"}, out: "2\n"},
		{args: []string{"up"}}, // no change is no error
		{args: []string{"down", "1"}},
		{args: []string{"version"}, out: "1\n"},
		{args: []string{"down"}, wantErr: "down takes N"},
		{args: []string{"goto", "2"}},
		{args: []string{"version"}, out: "2\n"},
		{args: []string{"force", "two"}, wantErr: `version "two" is not a number`},
		{args: []string{"force", "1"}},
		{args: []string{"version"}, out: "1\n"},
		{args: []string{"drop"}, wantErr: "confirm with drop -f"},
		{args: []string{"drop", "-f"}},
		{args: []string{"version"}, out: "no migration applied\n"},
	}
	for _, s := range steps {
		out, err := migrate(s.args...)
		if s.wantErr != "" {
			assert.ErrorContains(t, err, s.wantErr, strings.Join(s.args, " "))
			continue
		}
		require.NoError(t, err, strings.Join(s.args, " "))
		assert.Equal(t, s.out, out, strings.Join(s.args, " "))
	}
}

// TestCommandWhileLocked: while another driver holds the lock, up waits x-lock-timeout and
// fails naming the holder, without running anything.
func TestCommandWhileLocked(t *testing.T) {
	addr := realcluster.Addr(t)
	name := fmt.Sprintf("mig_cli_lock_%d", time.Now().UnixNano()%1e9)
	admin, err := sql.Open("fluss", "fluss://"+addr+"/fluss")
	require.NoError(t, err)
	defer admin.Close()
	_, err = admin.Exec("CREATE DATABASE " + name)
	require.NoError(t, err)
	defer admin.Exec("DROP DATABASE IF EXISTS " + name + " CASCADE")

	url := "fluss://" + addr + "/" + name
	holder, err := (&flussmigrate.Fluss{}).Open(url)
	require.NoError(t, err)
	defer holder.Close()
	require.NoError(t, holder.Lock())

	var out, errOut bytes.Buffer
	err = run([]string{"-path", "../../testdata/migrations", "-database", url + "?x-lock-timeout=1s", "up"}, &out, &errOut)
	assert.ErrorContains(t, err, "can't acquire lock: schema_migrations_lock is held by")
	v, _, err := holder.Version()
	require.NoError(t, err)
	assert.Equal(t, -1, v, "nothing ran")
	require.NoError(t, holder.Unlock())
}

// TestUsage: without the flags or a command it prints the usage and fails.
func TestUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	err := run([]string{"-path", "x", "up"}, &out, &errOut)
	assert.ErrorContains(t, err, "-database")
	assert.Contains(t, errOut.String(), "force V")
}
