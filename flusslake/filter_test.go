package flusslake

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/flussql/flussql/fluss"
	"github.com/flussql/flussql/fluss/types"
)

func TestPredicate(t *testing.T) {
	info := &fluss.TableInfo{Descriptor: fluss.TableDescriptor{Schema: types.Schema{Columns: []types.Column{
		{Name: "id", Type: types.NewInt()}, {Name: "name", Type: types.NewString()}, {Name: "at", Type: types.NewDate()}}}}}
	leaf := func(op fluss.PredicateOp, col int, vals ...any) fluss.Predicate {
		return fluss.Predicate{Op: op, Column: col, Values: vals}
	}
	for _, tt := range []struct {
		name string
		in   fluss.Predicate
		want string // what the expression's text holds; "" when nothing converts
	}{
		{"comparison", leaf(fluss.PredGreater, 0, int32(5)), "GreaterThan(term=Reference(name='id'), literal=5)"},
		{"string equality", leaf(fluss.PredEqual, 1, "a"), "Equal(term=Reference(name='name'), literal=a)"},
		{"IN", leaf(fluss.PredIn, 0, int64(1), int64(2)), "In(term=Reference(name='id'), "},
		{"IS NULL", leaf(fluss.PredIsNull, 1), "IsNull(term=Reference(name='name'))"},
		{"a value with no Iceberg literal is left to the client", leaf(fluss.PredEqual, 2, struct{}{}), ""},
		{"AND keeps what converts", fluss.Predicate{Op: fluss.PredAnd, Children: []fluss.Predicate{
			leaf(fluss.PredEqual, 2, struct{}{}), leaf(fluss.PredLess, 0, int32(3))}}, "LessThan(term=Reference(name='id'), literal=3)"},
		{"OR needs every child", fluss.Predicate{Op: fluss.PredOr, Children: []fluss.Predicate{
			leaf(fluss.PredEqual, 2, struct{}{}), leaf(fluss.PredLess, 0, int32(3))}}, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := predicate(info, tt.in)
			if tt.want == "" {
				assert.False(t, ok)
				return
			}
			require.True(t, ok)
			assert.Contains(t, got.String(), tt.want)
		})
	}
}

func TestNewestMetadata(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"v1.metadata.json", "v2.metadata.json", "v10.metadata.json", "snap-1.avro"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, n), []byte("{}"), 0o644))
	}
	got, err := newestMetadata(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "v10.metadata.json"), got, "without a version hint: the highest version")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "version-hint.text"), []byte("2\n"), 0o644))
	got, err = newestMetadata(dir)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "v2.metadata.json"), got, "the version hint wins")
	_, err = newestMetadata(t.TempDir())
	assert.ErrorContains(t, err, "no v<N>.metadata.json")

	p, err := localDir("file:///w/h")
	require.NoError(t, err)
	assert.Equal(t, "/w/h", p)
	_, err = localDir("s3://bucket/w")
	assert.ErrorContains(t, err, "not on the local file system")
}
