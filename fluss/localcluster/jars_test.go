package localcluster

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFolderJar(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "1.0-SNAPSHOT"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "1.0-SNAPSHOT", "fluss-server-1.0-SNAPSHOT.jar"), []byte("jar"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "0.9.1-incubating"), 0o755)) // a folder without the jar
	tests := []struct {
		name    string
		version string
		want    string // "" means: fetched from Maven
		wantErr []string
	}{
		{name: "snapshot in the folder", version: "1.0-SNAPSHOT", want: filepath.Join(dir, "1.0-SNAPSHOT", "fluss-server-1.0-SNAPSHOT.jar")},
		{name: "missing snapshot names the folder and the override", version: "2.0-SNAPSHOT",
			wantErr: []string{"Maven Central does not serve", filepath.Join(dir, "2.0-SNAPSHOT", "fluss-server-2.0-SNAPSHOT.jar"), ServerDirEnv}},
		{name: "release without a jar in the folder comes from Maven", version: "0.9.1-incubating"},
		{name: "release without a folder comes from Maven", version: "0.8.0-incubating"},
	}
	t.Setenv(ServerDirEnv, dir)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := folderJar(tt.version)
			if tt.wantErr != nil {
				for _, w := range tt.wantErr {
					require.ErrorContains(t, err, w)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestServerDir(t *testing.T) {
	t.Run("override", func(t *testing.T) {
		t.Setenv(ServerDirEnv, "/somewhere/builds")
		got, err := ServerDir()
		require.NoError(t, err)
		assert.Equal(t, "/somewhere/builds", got)
	})
	t.Run("beside the module root", func(t *testing.T) {
		t.Setenv(ServerDirEnv, "")
		got, err := ServerDir()
		require.NoError(t, err)
		// The tests run in fluss/localcluster, two folders below the module root.
		wd, err := os.Getwd()
		require.NoError(t, err)
		assert.Equal(t, filepath.Join(filepath.Dir(filepath.Dir(filepath.Dir(wd))), "shared", "fluss-server"), got)
	})
}

func TestDeclaresModule(t *testing.T) {
	tests := []struct {
		name, gomod string
		want        bool
	}{
		{name: "plain", gomod: "module github.com/flussql/flussql\n\ngo 1.26.0\n", want: true},
		{name: "quoted", gomod: "module \"github.com/flussql/flussql\"\n", want: true},
		{name: "another module", gomod: "module github.com/flussql/flussql/tools\n", want: false},
		{name: "mentioned in a require only", gomod: "module example.com/x\nrequire github.com/flussql/flussql v1.0.0\n", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, declaresModule(tt.gomod, modulePath))
		})
	}
}
