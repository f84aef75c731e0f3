package logbatch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// javaGolden describes one file written by testdata/javagen (Fluss 0.9.1's own
// builders) and the canonical text Fluss's own reader printed for it.
type javaGolden struct {
	name       string
	format     string // "arrow" or "indexed"
	schema     string
	projection []int // projection-pushdown fetch (stale CRC)
	compressed Compression
}

var javaGoldens = []javaGolden{
	{name: "arrow_scalars_none", format: "arrow", schema: "scalars", compressed: CompressionNone},
	{name: "arrow_scalars_lz4", format: "arrow", schema: "scalars", compressed: CompressionLZ4Frame},
	{name: "arrow_scalars_zstd", format: "arrow", schema: "scalars", compressed: CompressionZstd},
	{name: "arrow_nested_none", format: "arrow", schema: "nested", compressed: CompressionNone},
	{name: "arrow_nested_lz4", format: "arrow", schema: "nested", compressed: CompressionLZ4Frame},
	{name: "arrow_nested_zstd", format: "arrow", schema: "nested", compressed: CompressionZstd},
	{name: "arrow_changelog_zstd", format: "arrow", schema: "scalars", compressed: CompressionZstd},
	{name: "arrow_empty", format: "arrow", schema: "scalars", compressed: CompressionZstd},
	{name: "arrow_multi_zstd", format: "arrow", schema: "scalars", compressed: CompressionZstd},
	{name: "arrow_projected_zstd", format: "arrow", schema: "scalars", projection: []int{0, 4, 11, 21}, compressed: CompressionZstd},
	{name: "indexed_scalars", format: "indexed", schema: "scalars"},
	{name: "indexed_changelog", format: "indexed", schema: "scalars"},
}

func readGolden(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "golden", name))
	require.NoError(t, err)
	return b
}

// decodeAll splits buf into batches and decodes each one into canonical text.
func decodeAll(t testing.TB, g javaGolden, buf []byte, mem memory.Allocator) string {
	batches, err := DecodeBatches(buf, DecodeOptions{SkipCRC: g.projection != nil})
	require.NoError(t, err)
	s := schemaByName(t, g.schema)
	var dec interface {
		Decode(Batch) (*Records, error)
	}
	if g.format == "arrow" {
		d, err := NewArrowDecoder(arrowSchema(t, s, g.projection), WithAllocator(mem))
		require.NoError(t, err)
		defer d.Close()
		dec = d
	} else {
		d, err := NewIndexedDecoder(s, g.projection, WithAllocator(mem))
		require.NoError(t, err)
		dec = d
	}
	var out strings.Builder
	for _, b := range batches {
		recs, err := dec.Decode(b)
		require.NoError(t, err)
		out.WriteString(formatBatch(recs))
		recs.Release()
	}
	return out.String()
}

// TestDecodeJavaGolden decodes batches written by Fluss's Java builders and
// checks every value against what Fluss's Java reader read from them.
func TestDecodeJavaGolden(t *testing.T) {
	for _, g := range javaGoldens {
		t.Run(g.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			want := string(readGolden(t, g.name+".txt"))
			if g.format == "indexed" {
				// The Arrow shape of the same rows, as Java's ARROW writer+reader see them.
				want = string(readGolden(t, g.name+".arrow.txt"))
			}
			got := decodeAll(t, g, readGolden(t, g.name+".bin"), mem)
			assert.Equal(t, want, got)
		})
	}
}

// TestJavaGoldenCRC checks our CRC-32C and header parsing against Java's bytes:
// every unprojected batch verifies, and the projected one does not.
func TestJavaGoldenCRC(t *testing.T) {
	for _, g := range javaGoldens {
		buf := readGolden(t, g.name+".bin")
		batches, err := DecodeBatches(buf, DecodeOptions{SkipCRC: true})
		require.NoError(t, err, g.name)
		require.NotEmpty(t, batches, g.name)
		for _, b := range batches {
			if g.projection != nil {
				assert.Error(t, b.VerifyCRC(), "%s: projected batches keep a stale CRC", g.name)
			} else {
				assert.NoError(t, b.VerifyCRC(), g.name)
			}
		}
	}
}
