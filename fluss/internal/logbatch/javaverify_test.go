package logbatch

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -update rewrites testdata/goenc/*.bin from the current encoder; with
// FLUSSQL_JAVAGEN=1 (and the javagen program built, see its README) it also
// has Fluss's Java reader decode them into testdata/goenc/*.java.txt.
var update = flag.Bool("update", false, "rewrite testdata/goenc from the current encoder")

// reencode decodes a Java golden file and encodes every batch again with our
// encoder, keeping the header values the Java writer/server set.
func reencode(t *testing.T, g javaGolden) []byte {
	s := schemaByName(t, g.schema)
	as := arrowSchema(t, s, nil)
	dec, err := NewArrowDecoder(as)
	require.NoError(t, err)
	defer dec.Close()
	enc, err := NewArrowEncoder(as, g.compressed)
	require.NoError(t, err)
	defer enc.Close()
	batches, err := DecodeBatches(readGolden(t, g.name+".bin"), DecodeOptions{})
	require.NoError(t, err)
	var out []byte
	for _, b := range batches {
		recs, err := dec.Decode(b)
		require.NoError(t, err)
		h := Header{BaseOffset: b.BaseOffset, CommitTimestamp: b.CommitTimestamp, SchemaID: b.SchemaID,
			WriterID: b.WriterID, BatchSequence: b.BatchSequence}
		out, err = enc.AppendBatch(out, h, recs.Record, recs.ChangeTypes)
		require.NoError(t, err)
		recs.Release()
	}
	return out
}

// goEncoded are the Java goldens we re-encode; their Java-decoded text must
// be the golden text (magic 1 is read-only, projections are server-made).
var goEncoded = []string{
	"arrow_scalars_none", "arrow_scalars_lz4", "arrow_scalars_zstd",
	"arrow_nested_none", "arrow_nested_lz4", "arrow_nested_zstd",
	"arrow_changelog_zstd", "arrow_empty", "arrow_multi_zstd",
}

func goldenByName(t *testing.T, name string) javaGolden {
	for _, g := range javaGoldens {
		if g.name == name {
			return g
		}
	}
	t.Fatalf("no golden %q", name)
	return javaGolden{}
}

// TestEncodeDecodedByJava checks that our encoder's bytes are the ones Fluss's
// Java reader decoded to exactly the golden rows (testdata/goenc/*.java.txt,
// produced by javagen's decode command), and that our decoder agrees.
func TestEncodeDecodedByJava(t *testing.T) {
	javagen := os.Getenv("FLUSSQL_JAVAGEN") == "1"
	for _, name := range goEncoded {
		t.Run(name, func(t *testing.T) {
			g := goldenByName(t, name)
			got := reencode(t, g)
			binPath := filepath.Join("testdata", "goenc", name+".bin")
			javaPath := filepath.Join("testdata", "goenc", name+".java.txt")
			if *update {
				require.NoError(t, os.MkdirAll(filepath.Dir(binPath), 0o755))
				require.NoError(t, os.WriteFile(binPath, got, 0o644))
			}
			if javagen {
				out := runJavaDecode(t, g, binPath)
				if *update {
					require.NoError(t, os.WriteFile(javaPath, []byte(out), 0o644))
				}
				assert.Equal(t, string(readGolden(t, name+".txt")), out, "Java's reading of our bytes")
			}
			want, err := os.ReadFile(binPath)
			require.NoError(t, err)
			assert.Equal(t, want, got, "encoder output changed; rerun with -update and FLUSSQL_JAVAGEN=1")
			javaText, err := os.ReadFile(javaPath)
			require.NoError(t, err)
			assert.Equal(t, string(readGolden(t, name+".txt")), string(javaText), "Java's recorded reading of our bytes")
			assert.Equal(t, string(readGolden(t, name+".txt")), decodeAll(t, g, got, memory.DefaultAllocator))
		})
	}
}

// runJavaDecode has javagen decode a file with Fluss's own reader.
func runJavaDecode(t *testing.T, g javaGolden, path string) string {
	abs, err := filepath.Abs(path)
	require.NoError(t, err)
	cmd := exec.Command(filepath.Join("testdata", "javagen", "run.sh"), "decode", g.format, g.schema, abs)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, "javagen decode: %s", stderr.String())
	return string(out)
}
